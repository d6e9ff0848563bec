/**
 * The cart's count for the header of a shared page (server/page-cache.js serves the public pages
 * to every visitor, cart holders included, from one copy rendered without any cookie).
 *
 * The count travels in its own cookie, readable by the page's script: `cart_count=<lines>`. It
 * holds a number and nothing else (the cart itself stays behind the signed, HttpOnly `cart`
 * cookie). The root loader keeps it equal to the cart on every live answer (pages and their
 * data), so a cart change made with JavaScript updates it in the same answer that updates the
 * header.
 */
export const CART_COUNT_COOKIE = "cart_count";

/** At most this many lines are told (more shows as the number itself, but the cookie refuses nonsense). */
const MAX_COUNT = 999;

/** The count a Cookie header (or `document.cookie`) holds; null when it holds none or nonsense. */
export function readCartCountCookie(header: string | null | undefined): number | null {
  if (!header) return null;
  for (const pair of header.split(";")) {
    const eq = pair.indexOf("=");
    if (eq === -1 || pair.slice(0, eq).trim() !== CART_COUNT_COOKIE) continue;
    const value = pair.slice(eq + 1).trim();
    if (!/^\d{1,3}$/.test(value)) return null;
    const count = Number(value);
    return count <= MAX_COUNT ? count : null;
  }
  return null;
}

/**
 * The Set-Cookie that makes the browser's count `count` (0: the cookie is removed), or null when
 * the browser already holds it. Same lifetime as the cart's cookie (30 days); readable by the page.
 */
export function cartCountCookieUpdate(
  header: string | null | undefined,
  count: number,
  { secure }: { secure: boolean },
): string | null {
  const held = readCartCountCookie(header);
  const wanted = count > 0 ? Math.min(count, MAX_COUNT) : 0;
  if ((held ?? 0) === wanted && (wanted > 0 || held === null)) return null;
  const attributes = `Path=/; SameSite=Lax${secure ? "; Secure" : ""}`;
  return wanted > 0
    ? `${CART_COUNT_COOKIE}=${wanted}; Max-Age=${60 * 60 * 24 * 30}; ${attributes}`
    : `${CART_COUNT_COOKIE}=; Max-Age=0; ${attributes}`;
}
