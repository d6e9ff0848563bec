import { createHmac, timingSafeEqual } from "node:crypto";
import { getConfig } from "~/config.server";

/**
 * The key of an order's view link, sent in its emails (`/track-order?id=N&cle=KEY`, and the
 * invoice and credit note pages): HMAC-SHA256 of `order-link:<id>` with the session secret,
 * base64url. It is deterministic (every email of an order carries the same link), stored
 * nowhere, and shows the order and its documents only: the name and the street, never a way
 * to pay, change or manage anything, never a link to the subscription's page
 * (services/orders/access.server.ts, `canViewOrder`). Verified against every session secret,
 * so rotating the secret (SESSION_SECRET=new,old) keeps the links already sent working.
 *
 * It expires with the order's documents: ORDER_LINK_YEARS after the order was made (the
 * accounts, invoices included, are kept 10 years, Code de commerce L123-22). The expiry is
 * bound to the order's creation date rather than written in the link, so every link ever
 * sent, before and after this rule, lives exactly as long.
 */

/** How long an order's view link works after the order was made. */
export const ORDER_LINK_YEARS = 10;

/** When the view links of an order made at `createdAt` (ISO) stop working. */
export function orderLinkExpiresAt(createdAt: string): Date {
  const expires = new Date(createdAt);
  expires.setUTCFullYear(expires.getUTCFullYear() + ORDER_LINK_YEARS);
  return expires;
}

/** What the check needs of an order. */
export type LinkedOrder = { id: number; createdAt: string };

/** A key: 32 bytes, base64url (43 characters). */
export const ORDER_LINK_KEY_PATTERN = /^[A-Za-z0-9_-]{43}$/;

function sign(orderId: number, secret: string): Buffer {
  return createHmac("sha256", secret).update(`order-link:${orderId}`, "utf8").digest();
}

/** The key of the order's view link, with the current session secret. */
export function orderLinkKey(orderId: number): string {
  const [secret] = getConfig().sessionSecrets;
  return sign(orderId, secret).toString("base64url");
}

/**
 * Whether the key is the order's, with any of the session secrets (constant-time comparison),
 * and the order's links have not expired.
 */
export function orderLinkKeyMatches(order: LinkedOrder, key: string | null | undefined, now: Date = new Date()): boolean {
  if (!key || !ORDER_LINK_KEY_PATTERN.test(key)) return false;
  const expires = orderLinkExpiresAt(order.createdAt);
  if (Number.isNaN(expires.getTime()) || expires.getTime() <= now.getTime()) return false;
  const orderId = order.id;
  // Compared as text: two spellings of the same bytes (the last character's unused bits) are not both accepted.
  const given = Buffer.from(key, "ascii");
  return getConfig().sessionSecrets.some((secret) => {
    const expected = Buffer.from(sign(orderId, secret).toString("base64url"), "ascii");
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/** The tracking page of the order, with its key: the link the emails carry. */
export function orderTrackingUrl(orderId: number): string {
  return `${getConfig().publicUrl}/track-order?id=${orderId}&cle=${orderLinkKey(orderId)}`;
}

/** The order's invoice for its customer, with the same key (app/routes/facture.$id.tsx). */
export function orderInvoicePath(orderId: number): string {
  return `/facture/${orderId}?cle=${orderLinkKey(orderId)}`;
}

/** The order's credit note for its customer (the latest, or the one of this number), with the same key (app/routes/avoir.$id.tsx). */
export function orderCreditNotePath(orderId: number, number?: string | null): string {
  const which = number ? `&numero=${encodeURIComponent(number)}` : "";
  return `/avoir/${orderId}?cle=${orderLinkKey(orderId)}${which}`;
}

export function orderCreditNoteUrl(orderId: number, number?: string | null): string {
  return `${getConfig().publicUrl}${orderCreditNotePath(orderId, number)}`;
}

export function orderInvoiceUrl(orderId: number): string {
  return `${getConfig().publicUrl}${orderInvoicePath(orderId)}`;
}
