import type { LinksFunction, MetaFunction } from "@remix-run/node";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLoaderData,
  useLocation,
  useMatches,
  useRouteError,
} from "@remix-run/react";
import { useEffect } from "react";
import { isBusyAnswer } from "~/lib/busy";
import { rootLoader } from "~/pages/root.server";
import {
  deferred,
  markRootHydrated,
  STYLESHEET_ID,
  useInlineStylesheet,
  useNonce,
  useRequestId,
} from "~/components/ui/hydration";

/** The frame around every page hydrates after the page itself, from one module (components/shop/frame.tsx). */
const frame = () => import("~/components/shop/frame");
const SeoTags = deferred(() => frame().then((m) => m.SeoTags));
const PageTop = deferred(() => frame().then((m) => m.PageTop));
const PageBottom = deferred(() => frame().then((m) => m.PageBottom));
const ErrorPage = deferred(() => frame().then((m) => m.ErrorPage));

export const links: LinksFunction = () => [{ rel: "icon", href: "/favicon.svg", type: "image/svg+xml" }];

export const meta: MetaFunction = () => [
  { title: "Maison Éclat : masques au collagène" },
  { name: "description", content: "Masques hydrogel au collagène : hydratation, éclat, fermeté." },
];

export const loader = rootLoader;

/** `head`: the canonical link, the link preview and the robots meta of the page (SeoTags). */
function Document({ children, head }: { children: React.ReactNode; head: React.ReactNode }) {
  const nonce = useNonce();
  const stylesheet = useInlineStylesheet();
  // Marks the page interactive once its deferred parts have hydrated too (tests wait for it before clicking).
  useEffect(markRootHydrated, []);
  return (
    <html lang="fr">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#fbf7f3" />
        <Meta />
        {/* The whole stylesheet, inline: the first paint waits for no other request (http/stylesheet.server.ts). */}
        <style id={STYLESHEET_ID} dangerouslySetInnerHTML={{ __html: stylesheet }} />
        <Links />
        {head}
      </head>
      <body className="flex min-h-screen flex-col">
        {children}
        <ScrollRestoration nonce={nonce} />
        {/* Module scripts: fetched while the page is read and painted, run once it is parsed. */}
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  const data = useLoaderData<typeof loader>();
  // The back office has its own frame: no shop header and footer under /admin.
  const adminArea = /^\/admin(\/|$)/.test(useLocation().pathname);
  // Invoices and credit notes (route handle `printable`): no demo banner, and nothing but the document in print.
  const printable = useMatches().some((match) => (match.handle as { printable?: boolean } | undefined)?.printable === true);
  return (
    <Document head={<SeoTags publicUrl={data.config.publicUrl} siteName={data.settings.siteName} />}>
      <PageTop
        cartCount={data.cartCount}
        demo={data.config.mode === "demo" && !printable}
        adminArea={adminArea}
        toast={data.toast}
      />
      <main id="contenu" className="flex-1">
        <Outlet />
      </main>
      <PageBottom settings={data.settings} adminArea={adminArea} />
    </Document>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  const reference = useRequestId();
  return (
    <Document head={<meta name="robots" content="noindex" />}>
      <ErrorPage notFound={notFound} busy={isBusyAnswer(error)} reference={reference} />
    </Document>
  );
}
