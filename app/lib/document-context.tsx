import { createContext, useContext } from "react";

/**
 * What the server's render gives the document (entry.server): the CSP nonce of its scripts and
 * the shop's stylesheet, inlined in the head (http/stylesheet.server.ts).
 */
export type DocumentContext = { nonce: string; stylesheet: string };

const Context = createContext<DocumentContext | null>(null);
export const DocumentContextProvider = Context.Provider;

/** The CSP nonce of the current document ("" in the browser, which needs it no more once the page has loaded). */
export function useNonce() {
  return useContext(Context)?.nonce ?? "";
}

/** The id of the head's <style> element. */
export const STYLESHEET_ID = "shop-css";

let pageStylesheet: string | undefined;

/**
 * The stylesheet inlined in the head: from the server; in the browser, read back from the page
 * itself, so that the head React renders there is the server's, without the stylesheet among the scripts.
 */
export function useInlineStylesheet() {
  const context = useContext(Context);
  if (context) return context.stylesheet;
  return (pageStylesheet ??= document.getElementById(STYLESHEET_ID)?.textContent ?? "");
}
