import type { Order } from "~/db/schema";
import { ShopError } from "~/lib/shop-error";
import { parseOrderNumber } from "~/schemas/tracking";
import { findOrder, markSubscriptionCanceled } from "~/services/payments/payment-state.server";
import { isStripeError, retrieveOrNull } from "~/services/stripe-errors.server";
import { getStripe } from "~/services/stripe.server";

/**
 * Online cancellation of a subscription (article L215-1-1 du Code de la consommation):
 * the order number and the checkout email are enough. The subscription ends now at Stripe
 * (no further charge); the order already paid is kept and shipped.
 *
 * A missing order, a one-off order and a wrong email get the same neutral answer, and
 * failed attempts are rate limited per client address and per order number, so the form
 * cannot be used to find orders or guess an email.
 */

export const SUBSCRIPTION_NOT_FOUND_MESSAGE = "Aucun abonnement actif ne correspond à ces informations.";

export type SubscriptionCancelResult = {
  outcome: "canceled" | "already_canceled";
  orderId: number;
  /** UTC ISO timestamp of the cancellation. */
  canceledAt: string;
};

function notFound(): ShopError {
  return new ShopError(404, "subscription_not_found", SUBSCRIPTION_NOT_FOUND_MESSAGE);
}

const normalizeEmail = (email: string | null | undefined) => (email ?? "").trim().toLowerCase();

/** A subscription order that took its first payment: the only kind that can be cancelled here. */
function isCancellable(order: Order | undefined, email: string): order is Order & { stripeSubscriptionId: string } {
  return (
    !!order &&
    order.isSubscription &&
    !!order.stripeSubscriptionId &&
    (order.paymentStatus === "paid" || order.paymentStatus === "refunded") &&
    normalizeEmail(order.customerEmail) !== "" &&
    normalizeEmail(order.customerEmail) === normalizeEmail(email)
  );
}

/**
 * Cancels the subscription of an order at Stripe and records the date on the order.
 * Idempotent: an order already cancelled answers `already_canceled` with the first date.
 * Throws a ShopError: 404 (neutral message), 429 (too many failed attempts); Stripe's
 * own failures propagate (see toShopError: 503 when Stripe is unreachable).
 */
export async function cancelSubscription(
  input: { orderId: number | string; email: string },
  access: { address?: string } = {},
): Promise<SubscriptionCancelResult> {
  const address = access.address ?? "unknown";
  const orderId = typeof input.orderId === "number" ? input.orderId : parseOrderNumber(input.orderId);
  const gate = checkCancelAllowed(address, orderId);
  if (!gate.allowed) {
    throw new ShopError(429, "too_many_attempts", tooManyCancelAttemptsMessage(gate.retryAfterSeconds));
  }

  const order = orderId !== null && Number.isSafeInteger(orderId) && orderId > 0 ? findOrder(orderId) : undefined;
  if (!isCancellable(order, input.email)) {
    recordCancelFailure(address, orderId);
    throw notFound();
  }
  if (order.subscriptionCanceledAt) {
    return { outcome: "already_canceled", orderId: order.id, canceledAt: order.subscriptionCanceledAt };
  }

  const stripe = await getStripe();
  const subscriptionId = order.stripeSubscriptionId;
  let canceledAtSeconds: number | null = null;
  let outcome: SubscriptionCancelResult["outcome"] = "canceled";
  try {
    const sub = await stripe.subscriptions.cancel(subscriptionId);
    canceledAtSeconds = sub.canceled_at ?? sub.ended_at ?? null;
  } catch (error) {
    // Already cancelled at Stripe (Stripe answers resource_missing), or gone: nothing can be charged any more.
    if (!isStripeError(error) || error.type !== "StripeInvalidRequestError") throw error;
    const sub = await retrieveOrNull(() => stripe.subscriptions.retrieve(subscriptionId));
    if (sub && sub.status !== "canceled" && sub.status !== "incomplete_expired") throw error;
    canceledAtSeconds = sub?.canceled_at ?? sub?.ended_at ?? null;
    outcome = "already_canceled";
  }

  const canceledAt = new Date(canceledAtSeconds ? canceledAtSeconds * 1000 : Date.now()).toISOString();
  // The webhook (customer.subscription.deleted) may have recorded it first: keep the first date.
  markSubscriptionCanceled(order.id, canceledAt);
  return { outcome, orderId: order.id, canceledAt: findOrder(order.id)?.subscriptionCanceledAt ?? canceledAt };
}

// ---------------------------------------------------------------------------------------------
// Rate limit: failed attempts per client address and per order number, sliding window, in memory
// (one server process; a restart only gives a fresh window).

export const CANCEL_WINDOW_MS = 15 * 60 * 1000;
/** Failed attempts allowed per client address in the window (several people may share one). */
export const MAX_CANCEL_FAILURES_PER_ADDRESS = 10;
/** Failed attempts allowed per order number in the window (stops guessing an order's email). */
export const MAX_CANCEL_FAILURES_PER_ORDER = 5;
const MAX_TRACKED_KEYS = 10_000;

const failures = new Map<string, number[]>();

function recent(key: string, now: number): number[] {
  const list = (failures.get(key) ?? []).filter((t) => now - t < CANCEL_WINDOW_MS);
  if (list.length === 0) failures.delete(key);
  else failures.set(key, list);
  return list;
}

function keysFor(address: string, orderId: number | null): Array<[string, number]> {
  const keys: Array<[string, number]> = [[`ip:${address}`, MAX_CANCEL_FAILURES_PER_ADDRESS]];
  if (orderId !== null) keys.push([`order:${orderId}`, MAX_CANCEL_FAILURES_PER_ORDER]);
  return keys;
}

function checkCancelAllowed(address: string, orderId: number | null, now = Date.now()): { allowed: true } | { allowed: false; retryAfterSeconds: number } {
  let wait = 0;
  for (const [key, max] of keysFor(address, orderId)) {
    const list = recent(key, now);
    if (list.length >= max) wait = Math.max(wait, list[list.length - max] + CANCEL_WINDOW_MS - now);
  }
  return wait > 0 ? { allowed: false, retryAfterSeconds: Math.ceil(wait / 1000) } : { allowed: true };
}

function recordCancelFailure(address: string, orderId: number | null, now = Date.now()) {
  if (failures.size >= MAX_TRACKED_KEYS) {
    for (const key of [...failures.keys()]) recent(key, now);
    for (const key of failures.keys()) {
      if (failures.size < MAX_TRACKED_KEYS) break;
      failures.delete(key);
    }
  }
  for (const [key] of keysFor(address, orderId)) {
    const list = recent(key, now);
    list.push(now);
    failures.set(key, list);
  }
}

export function tooManyCancelAttemptsMessage(retryAfterSeconds: number) {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `Trop de tentatives. Réessayez dans ${minutes} ${minutes > 1 ? "minutes" : "minute"}.`;
}

/** For tests. */
export function resetSubscriptionCancelRateLimit() {
  failures.clear();
}
