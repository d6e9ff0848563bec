import { createContext, lazy, Suspense, useContext, useEffect, useId, useState, type ComponentType } from "react";

/*
 * The document's hydration: what the server's render hands to the page (the CSP nonce, the
 * inline stylesheet), which render reuses the server's HTML, when the page is interactive, and
 * the parts of a page that hydrate after it from their own module (`deferred`).
 */

/**
 * What the server's render gives the document (entry.server): the CSP nonce of its scripts,
 * the shop's stylesheet, inlined in the head (http/stylesheet.server.ts), and the request's id
 * (its X-Request-Id), which an error page shows.
 */
const DocumentContext = createContext<{ nonce: string; stylesheet: string; requestId?: string } | null>(null);
export const DocumentContextProvider = DocumentContext.Provider;

/** The CSP nonce of the current document ("" in the browser, which needs it no more once the page has loaded). */
export function useNonce() {
  return useContext(DocumentContext)?.nonce ?? "";
}

/** The id of the element that shows the request's id on an error page. */
export const ERROR_REFERENCE_ID = "reference-erreur";

/**
 * The id of the request that rendered this document, for the error page: from the server; in
 * the browser, read back from the server's error page while it hydrates (an error met later,
 * during a navigation, was not rendered by the server: no reference then).
 */
export function useRequestId(): string | undefined {
  const context = useContext(DocumentContext);
  if (context) return context.requestId;
  if (!isHydrating()) return undefined;
  return document.getElementById(ERROR_REFERENCE_ID)?.dataset.reference;
}

/** The id of the head's <style> element. */
export const STYLESHEET_ID = "shop-css";

let pageStylesheet: string | undefined;

/**
 * The stylesheet inlined in the head: from the server; in the browser, read back from the page
 * itself, so that the head React renders there is the server's, without the stylesheet among the scripts.
 */
export function useInlineStylesheet() {
  const context = useContext(DocumentContext);
  if (context) return context.stylesheet;
  return (pageStylesheet ??= document.getElementById(STYLESHEET_ID)?.textContent ?? "");
}

let hydrating = true;

/** True once the page has hydrated (never on the server). */
export function pageHydrated() {
  return !hydrating;
}

/** True during the page's first (hydrating) render in the browser: the server's HTML is being reused. */
function isHydrating() {
  return typeof document !== "undefined" && hydrating;
}

/**
 * True inside a part of the page that hydrates after the rest (`deferred` below) while it has
 * not hydrated yet: its first render must match the server's HTML too (useHydrated).
 */
export const DeferredHydrationContext = createContext(false);

/** The parts of the page still waiting for their code after the first hydration (`deferred` below). */
const waiting = new Set<string>();
let rootHydrated = false;

/** Tests wait for this mark before clicking: every part of the page then answers. */
function markWhenInteractive() {
  if (rootHydrated && waiting.size === 0) document.documentElement.dataset.hydrated = "true";
}

/** root.tsx's document, once the page has hydrated: the deferred parts may still be on their way. */
export function markRootHydrated() {
  hydrating = false;
  rootHydrated = true;
  markWhenInteractive();
}

type Loaded<P> = { default: ComponentType<P> };

/** A thenable that calls back at once: React.lazy then renders without suspending. */
function ready<T>(value: T): Promise<T> {
  return { then: (resolve: (v: T) => unknown) => resolve(value) } as Promise<T>;
}

/**
 * A part of a page whose code is not among the page's scripts. The server renders it with the
 * rest of the page (its module is loaded when the server starts), so its HTML arrives at once
 * and works as plain HTML (links, forms, <details>). In the browser its code is fetched while
 * the page hydrates; React keeps the server's HTML on screen and hydrates it in place when the
 * code arrives. Rendered after a client-side navigation, it waits for its code: the route
 * preloads it in its clientLoader (`preload`).
 */
export function deferred<P extends object>(load: () => Promise<ComponentType<P>>) {
  let loaded: Loaded<P> | undefined;
  let pending: Promise<Loaded<P>> | undefined;
  const preload = () => (pending ??= load().then((component) => (loaded = { default: component })));
  // On the server, loaded at start-up: the first page renders it without waiting. A failed load
  // is tried again at the next render.
  if (typeof document === "undefined") preload().catch(() => (pending = undefined));
  const Lazy = lazy(() => {
    if (loaded) return ready(loaded);
    const hydrating = isHydrating();
    return preload().catch((error: unknown) => {
      pending = undefined;
      if (typeof document === "undefined") throw error;
      // The code did not arrive (the network, a new version of the shop): while hydrating, the
      // server's HTML stays as it is (plain links and forms); after a client-side navigation, the
      // page is asked of the server instead.
      if (!hydrating) window.location.reload();
      return new Promise<Loaded<P>>(() => {});
    });
  }) as unknown as ComponentType<P>;

  function Hydrated({ id }: { id: string }) {
    useEffect(() => {
      waiting.delete(id);
      markWhenInteractive();
    }, [id]);
    return null;
  }

  function Deferred(props: P) {
    const id = useId();
    const [hydrating] = useState(() => {
      if (!isHydrating()) return false;
      waiting.add(id);
      return true;
    });
    return (
      <DeferredHydrationContext.Provider value={hydrating}>
        <Suspense fallback={null}>
          <Lazy {...props} />
          {hydrating ? <Hydrated id={id} /> : null}
        </Suspense>
      </DeferredHydrationContext.Provider>
    );
  }
  return Object.assign(Deferred, { preload });
}
