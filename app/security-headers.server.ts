import { createHash } from "node:crypto";
import { getConfig } from "~/config.server";
import { inlineStylesheet } from "~/http/stylesheet.server";

/*
 * Set on each Remix response (entry.server.tsx), not by an Express middleware such as helmet: the
 * page cache renders and serves pages without Express, the nonce is drawn with the render, and
 * part of the policy depends on the page. docs/architecture.md, « Écrit à la main ou bibliothèque ».
 */

/**
 * Content-Security-Policy with a per-request nonce: our own origin plus Stripe, nothing else; the
 * one inline style is the head's stylesheet, allowed by its hash.
 */
function contentSecurityPolicy(nonce: string, framed: FramedStyles) {
  const dev = getConfig().nodeEnv === "development";
  const directives: Record<string, string[]> = {
    "default-src": ["'self'"],
    "script-src": ["'self'", `'nonce-${nonce}'`, "https://js.stripe.com"],
    // The stylesheet inlined in the head, by its hash (no other inline style).
    // A page that shows a document in a srcdoc frame (an email's preview), which runs under the
    // page's policy: that document's <style> elements and style attributes too, each by its hash.
    "style-src": ["'self'", inlineStylesheet().source, ...new Set(framed.elements.map(sha256Source))],
    ...(framed.attributes.length > 0
      ? { "style-src-attr": ["'unsafe-hashes'", ...new Set(framed.attributes.map(sha256Source))] }
      : {}),
    "img-src": ["'self'", "data:", "https://*.stripe.com"],
    "font-src": ["'self'"],
    "connect-src": ["'self'", "https://api.stripe.com", ...(dev ? ["ws://localhost:*", "ws://127.0.0.1:*"] : [])],
    "frame-src": ["https://js.stripe.com", "https://hooks.stripe.com"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    // The payment step without JavaScript posts here, then goes on to the hosted payment page.
    "form-action": ["'self'", hostedCheckoutOrigin()],
    "frame-ancestors": ["'none'"],
  };
  return Object.entries(directives)
    .map(([k, v]) => `${k} ${v.join(" ")}`)
    .join("; ");
}

/** Where Checkout's hosted payment page is: Stripe's, or the emulator's own origin in demo mode. */
function hostedCheckoutOrigin() {
  const config = getConfig();
  return config.mode === "live" ? "https://checkout.stripe.com" : `http://127.0.0.1:${config.stripe.emulatorPort}`;
}

function sha256Source(text: string) {
  return `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

/** The styles of a document shown in a srcdoc frame: its <style> elements' contents and its style attributes. */
export type FramedStyles = { elements: string[]; attributes: string[] };

/** The styles of an HTML document, as the browser reads them (the attributes' entities decoded). */
export function framedStyles(html: string): FramedStyles {
  const elements = [...html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/gi)].map(([, css]) => css);
  const attributes = [...html.matchAll(/\sstyle="([^"]*)"/gi)].map(([, value]) =>
    value.replace(/&(?:#x([0-9a-f]+)|#(\d+)|(amp|lt|gt|quot|apos));/gi, (_, hex, dec, name) =>
      hex ? String.fromCodePoint(parseInt(hex, 16)) : dec ? String.fromCodePoint(Number(dec)) : ENTITIES[name.toLowerCase()],
    ),
  );
  return { elements, attributes };
}

/** Policies a page may set instead of the default, so that the key in its URL never leaves the shop. */
const STRICTER_REFERRER_POLICIES = new Set(["no-referrer", "same-origin"]);

/** `framed`: the styles of a document the page shows in a srcdoc frame (route handle `framedHtml`). */
export function applySecurityHeaders(headers: Headers, nonce?: string, framed: FramedStyles = { elements: [], attributes: [] }) {
  if (nonce) headers.set("Content-Security-Policy", contentSecurityPolicy(nonce, framed));
  headers.set("X-Content-Type-Options", "nosniff");
  // A page whose URL carries a key (a signed link) sets a stricter policy itself: kept.
  if (!STRICTER_REFERRER_POLICIES.has(headers.get("Referrer-Policy") ?? ""))
    headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
  headers.set("X-Frame-Options", "DENY");
  headers.set("Permissions-Policy", 'camera=(), microphone=(), geolocation=(), payment=(self "https://js.stripe.com")');
  headers.set("Cross-Origin-Opener-Policy", "same-origin");
  if (getConfig().mode === "live") {
    headers.set("Strict-Transport-Security", "max-age=63072000; includeSubDomains");
  }
}
