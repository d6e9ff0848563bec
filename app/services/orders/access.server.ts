import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { Order } from "~/db/schema";
import { orderLinkKeyMatches } from "./link.server";

/**
 * Who may see an order's name and street address, change its checkout details, pay it, or
 * reach its subscription's page. An order number alone shows the order's progress only
 * (status, date, items, total, postcode and city). Two levels of proof:
 *
 * 1. `holdsOrder`, the buyer's own: their browser (the cart that created the order, or the
 *    signed `orders` cookie holding the ids of the orders this browser created,
 *    services/orders/session.server.ts) or the order token, given once to the API client that
 *    created the order. It may pay the order, change its checkout details, and is shown the
 *    link to the subscription's page on the confirmation page.
 * 2. `canViewOrder`, a viewer: a holder, an administrator's session, the order's email typed
 *    on the tracking page, or the view link of the order's emails (`?cle=`, valid 10 years,
 *    services/orders/link.server.ts). It shows the order and its documents, nothing else:
 *    never a payment, a change, or a link to the subscription's page.
 */

export type OrderProof = {
  /** The visitor's cart id (cart cookie). */
  cartId?: string | null;
  /** Order ids of the signed `orders` cookie. */
  orderIds?: readonly number[];
  /** An order token (X-Order-Token header, ?token= or a body field). */
  token?: string | null;
  /** An administrator is signed in. */
  admin?: boolean;
  /** An email typed on the tracking page. */
  email?: string | null;
  /** The key of an email's view link (?cle=): viewing only. */
  linkKey?: string | null;
};

type OwnedOrder = Pick<Order, "id" | "cartId" | "tokenHash" | "customerEmail" | "createdAt">;

/** An order token: 32 random bytes, base64url (43 characters). */
export const ORDER_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** A new order token and the SHA-256 (hex) stored on the order; the token itself is shown once. */
export function newOrderToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString("base64url");
  return { token, hash: hashOrderToken(token) };
}

export function hashOrderToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** Whether the token is the order's (constant-time comparison of the hashes). */
export function orderTokenMatches(storedHash: string | null | undefined, token: string | null | undefined): boolean {
  if (!storedHash || !token || !ORDER_TOKEN_PATTERN.test(token)) return false;
  const given = Buffer.from(hashOrderToken(token), "hex");
  const stored = Buffer.from(storedHash, "hex");
  return given.length === stored.length && timingSafeEqual(given, stored);
}

export const normalizeEmail = (email: string | null | undefined) => (email ?? "").trim().toLowerCase();

/** Whether the email is the order's (an order without an email is proven by nothing typed). */
export function orderEmailMatches(order: Pick<Order, "customerEmail">, email: string | null | undefined): boolean {
  const stored = normalizeEmail(order.customerEmail);
  return stored !== "" && stored === normalizeEmail(email);
}

/** The buyer's browser or the order token: who may pay the order, change its checkout details or manage its subscription. */
export function holdsOrder(order: Pick<Order, "id" | "cartId" | "tokenHash">, proof: OrderProof): boolean {
  if (order.cartId && proof.cartId && order.cartId === proof.cartId) return true;
  if (proof.orderIds?.includes(order.id)) return true;
  return orderTokenMatches(order.tokenHash, proof.token);
}

/** Whether the proof shows the order's full details (name, street address, email) and its documents: viewing only. */
export function canViewOrder(order: OwnedOrder, proof: OrderProof, now: Date = new Date()): boolean {
  return (
    Boolean(proof.admin) ||
    holdsOrder(order, proof) ||
    (proof.email != null && orderEmailMatches(order, proof.email)) ||
    orderLinkKeyMatches(order, proof.linkKey, now)
  );
}
