import { getConfig } from "~/config.server";
import { inlineStylesheet } from "~/http/stylesheet.server";

/**
 * Content-Security-Policy with a per-request nonce: our own origin plus Stripe, nothing else; the
 * one inline style is the head's stylesheet, allowed by its hash.
 */
function contentSecurityPolicy(nonce: string) {
  const dev = getConfig().nodeEnv === "development";
  const directives: Record<string, string[]> = {
    "default-src": ["'self'"],
    "script-src": ["'self'", `'nonce-${nonce}'`, "https://js.stripe.com"],
    // The stylesheet inlined in the head, by its hash (no other inline style).
    "style-src": ["'self'", inlineStylesheet().source],
    "img-src": ["'self'", "data:", "https://*.stripe.com"],
    "font-src": ["'self'"],
    "connect-src": ["'self'", "https://api.stripe.com", ...(dev ? ["ws://localhost:*"] : [])],
    "frame-src": ["https://js.stripe.com", "https://hooks.stripe.com"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
  };
  return Object.entries(directives)
    .map(([k, v]) => `${k} ${v.join(" ")}`)
    .join("; ");
}

/** Policies a page may set instead of the default, so that the key in its URL never leaves the shop. */
const STRICTER_REFERRER_POLICIES = new Set(["no-referrer", "same-origin"]);

export function applySecurityHeaders(headers: Headers, nonce?: string) {
  if (nonce) headers.set("Content-Security-Policy", contentSecurityPolicy(nonce));
  headers.set("X-Content-Type-Options", "nosniff");
  // A page whose URL carries a key (a signed link) sets a stricter policy itself: kept.
  if (!STRICTER_REFERRER_POLICIES.has(headers.get("Referrer-Policy") ?? "")) headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
  headers.set("X-Frame-Options", "DENY");
  headers.set("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=(self \"https://js.stripe.com\")");
  headers.set("Cross-Origin-Opener-Policy", "same-origin");
  if (getConfig().mode === "live") {
    headers.set("Strict-Transport-Security", "max-age=63072000; includeSubDomains");
  }
}
