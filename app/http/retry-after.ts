import type { HeadersFunction } from "@remix-run/node";

/**
 * Retry-After on refusals that pass (429 rate limits, 503 busy). Client-safe: route modules
 * use `pageHeaders` as their `headers` export.
 */

/** `{ "Retry-After": "12" }` for a refusal that says when to try again, else `{}`. */
export function retryAfterHeaders(refusal: { retryAfterSeconds?: number } | null | undefined): Record<string, string> {
  const seconds = refusal?.retryAfterSeconds;
  return seconds !== undefined && seconds > 0 ? { "Retry-After": String(Math.ceil(seconds)) } : {};
}

/**
 * A page's `headers` export: its own headers (its parent's when it names none), plus the
 * Retry-After its loader or action set. Remix builds a document's headers from this export
 * alone, so a loader's or an action's Retry-After is lost without it.
 */
export function pageHeaders(own?: Record<string, string>): HeadersFunction {
  return ({ actionHeaders, loaderHeaders, parentHeaders }) => {
    const headers = new Headers(own ?? parentHeaders);
    const retryAfter = actionHeaders.get("Retry-After") ?? loaderHeaders.get("Retry-After");
    if (retryAfter) headers.set("Retry-After", retryAfter);
    return headers;
  };
}
