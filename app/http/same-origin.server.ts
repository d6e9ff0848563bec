/** The refusal of a post from another site, for pages, their data and the JSON API alike. */
export const CROSS_SITE_MESSAGE = "Origine de la requête non autorisée";

/**
 * True when a request comes from our own pages, or from a client that is not a browser. Its
 * `Origin` must name the request's host (the first X-Forwarded-Host, else Host, else
 * `requestHost`); an opaque ("null") or malformed origin is refused. Without an `Origin`,
 * browsers say where they come from in `Sec-Fetch-Site`; API clients (curl, servers) send
 * neither. The one rule of the shop: the API's and the pages' checks (http/api.server.ts) and
 * the server's refusal ahead of Remix (server/same-origin.js, through the build) call it.
 */
export function isSameOriginRequest(header: (name: string) => string | null | undefined, requestHost?: string): boolean {
  const origin = header("origin");
  if (!origin) {
    const site = header("sec-fetch-site");
    return !site || site === "same-origin" || site === "none";
  }
  const host = header("x-forwarded-host")?.split(",")[0]?.trim() || header("host") || requestHost;
  if (!host || origin === "null") return false;
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}
