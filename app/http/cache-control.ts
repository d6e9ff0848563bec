/**
 * The Cache-Control policies of the shop's responses, one name per value. Routes use these
 * names, never a literal header value.
 */

/** Personal or changing answers (admin pages, cart, orders, API answers): kept by no cache. */
export const NO_STORE = "no-store";
/** Kept, but checked with the server before each use (the Stripe emulator's script). */
export const NO_CACHE = "no-cache";
/** HTML pages without a policy of their own: the visitor's browser only, checked each time (cart badge, toasts). */
export const PRIVATE_NO_CACHE = "private, no-cache";
/** A customer's private pages opened with a signed link (/mon-abonnement, /abonnement/payer): kept by no cache, shared or not. */
export const PRIVATE_NO_STORE = "private, no-store";
/** The public catalog (GET /api/products and /api/products/{id}): 30 seconds. */
export const PUBLIC_CATALOG = "public, max-age=30";
/** The public site settings (GET /api/settings): 1 minute. */
export const PUBLIC_SETTINGS = "public, max-age=60";
/** The API documentation (/docs/api and /api/openapi.json): 5 minutes. */
export const PUBLIC_API_DOCS = "public, max-age=300";
/** What search engines read (/robots.txt and /sitemap.xml): 1 hour. */
export const PUBLIC_CRAWLER_FILES = "public, max-age=3600";

type CachePolicy =
  | typeof NO_STORE
  | typeof NO_CACHE
  | typeof PRIVATE_NO_CACHE
  | typeof PRIVATE_NO_STORE
  | typeof PUBLIC_CATALOG
  | typeof PUBLIC_SETTINGS
  | typeof PUBLIC_API_DOCS
  | typeof PUBLIC_CRAWLER_FILES;

/** The header for a `headers` init or a route's `headers` export: `{ "Cache-Control": policy }`. */
export function cacheControl(policy: CachePolicy) {
  return { "Cache-Control": policy } as const;
}

/** The most common one, ready to pass as `{ headers: NO_STORE_HEADERS }`. */
export const NO_STORE_HEADERS = cacheControl(NO_STORE);
