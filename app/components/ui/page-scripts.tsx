import { Scripts } from "@remix-run/react";

/** The id of the <template> that holds the page's scripts until they start. */
export const PAGE_SCRIPTS_ID = "shop-scripts";

/**
 * Starts the page's scripts once the page is on screen: after the load event (the page's
 * HTML, its inline stylesheet and its images are there) and the next frame. Each element of the
 * <template> is created anew in the document, in order: the modulepreload links (their requests
 * start then), Remix's context script, the module script that imports the routes and hydrates;
 * each in a task of its own, so that none of these tasks keeps the page busy long.
 * Their attributes are copied as they are, the nonce of the live render included; in a page of
 * the page cache, the inline scripts are allowed by their hashes, which cover the template's
 * scripts like the others (server/page-cache.js). The same text in every page: one hash.
 */
const START_SCRIPTS = `(() => {
  const start = () => {
    const scripts = document.getElementById(${JSON.stringify(PAGE_SCRIPTS_ID)});
    if (!scripts) return;
    // One element per task, in order: none of these tasks keeps the page busy long.
    for (const node of scripts.content.children) {
      setTimeout(() => {
        const element = document.createElement(node.localName);
        for (const { name, value } of node.attributes) element.setAttribute(name, value);
        element.textContent = node.textContent;
        document.body.append(element);
      });
    }
  };
  const afterPaint = () => requestAnimationFrame(() => setTimeout(start));
  if (document.readyState === "complete") afterPaint();
  else addEventListener("load", afterPaint, { once: true });
})();`;

/**
 * The page's scripts (Remix's <Scripts/>), started after the first paint instead of with the
 * HTML: they hydrate a page already on screen and working as plain HTML (links, forms), so the
 * first paint need not share the network and the processor with them. On the server, Remix's
 * scripts are rendered inside a <template>, where the browser neither fetches nor runs them;
 * a small inline script then starts them (START_SCRIPTS). In the browser the template stays
 * empty: its content is not among the element's children, so the hydration finds it as rendered;
 * the elements the inline script adds at the end of <body> are left alone by React, as any
 * element after the ones it rendered there.
 */
export function PageScripts({ nonce }: { nonce: string }) {
  const server = typeof document === "undefined";
  return (
    <>
      <template id={PAGE_SCRIPTS_ID}>{server ? <Scripts nonce={nonce} /> : null}</template>
      <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: START_SCRIPTS }} />
    </>
  );
}
