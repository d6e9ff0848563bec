import { paymentReceived } from "~/lib/order-status";
import { and, eq, isNull } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { subscriptions, type Order, type Subscription } from "~/db/schema";
import type { CancelReason } from "~/lib/cancel-reasons";
import { ShopError } from "~/lib/shop-error";
import { parseOrderNumber } from "~/schemas/tracking";
import { markSubscriptionCanceled } from "./end.server";
import { findOrder } from "~/services/orders/find.server";
import { assertNotLimited, cancelFailuresByAddress } from "~/services/limits.server";
import { cancelAtStripeNow } from "./stripe-cancel.server";

/**
 * Online cancellation of a subscription (article L215-1-1 du Code de la consommation):
 * the order number and the checkout email are enough. The subscription ends now at Stripe
 * (no further charge); the order already paid is kept and shipped.
 *
 * A missing order, a one-off order and a wrong email get the same neutral answer, and
 * failed attempts are limited per client address (limits.server.ts), so the form cannot be
 * used to find orders or guess an email. Never per order: wrong emails sent by others must
 * not stop the customer from cancelling, which the law guarantees.
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
    paymentReceived(order.paymentStatus) &&
    normalizeEmail(order.customerEmail) !== "" &&
    normalizeEmail(order.customerEmail) === normalizeEmail(email)
  );
}

/**
 * Cancels the subscription of an order at Stripe and records the date on the order.
 * Idempotent: an order already cancelled answers `already_canceled` with the first date.
 * Throws a ShopError: 404 (neutral message), 429 (too many failed attempts from this
 * address, with retryAfterSeconds); Stripe's
 * own failures propagate (see toShopError: 503 when Stripe is unreachable).
 */
export async function cancelSubscription(
  input: { orderId: number | string; email: string; reason?: CancelReason },
  access: { address?: string } = {},
): Promise<SubscriptionCancelResult> {
  const address = access.address ?? "unknown";
  const orderId = typeof input.orderId === "number" ? input.orderId : parseOrderNumber(input.orderId);
  await assertNotLimited(cancelFailuresByAddress, address, "Trop de tentatives.");

  const order = orderId !== null && Number.isSafeInteger(orderId) && orderId > 0 ? await findOrder(orderId) : undefined;
  if (!isCancellable(order, input.email)) {
    await cancelFailuresByAddress.hit(address);
    throw notFound();
  }
  return cancelOrderSubscription(order, input.reason);
}

/**
 * The cancellation of a subscription whose holder is already known: its private page
 * (/mon-abonnement, opened with the signed link of its emails). Same rules as the online form:
 * ended now at Stripe, the date recorded, one confirmation email. Idempotent.
 */
export async function cancelSubscriptionRecord(record: Subscription, reason?: CancelReason): Promise<SubscriptionCancelResult> {
  const order = record.firstOrderId === null ? undefined : await findOrder(record.firstOrderId);
  if (!order) throw notFound();
  if (record.status === "canceled" && record.canceledAt) {
    return { outcome: "already_canceled", orderId: order.id, canceledAt: record.canceledAt };
  }
  return cancelOrderSubscription({ ...order, stripeSubscriptionId: record.stripeSubscriptionId }, reason);
}

/** The core of both: Stripe first (no further charge), then the date on the order and the record, and the email (outbox). */
async function cancelOrderSubscription(
  order: Order & { stripeSubscriptionId: string },
  reason?: CancelReason,
): Promise<SubscriptionCancelResult> {
  if (order.subscriptionCanceledAt) {
    return { outcome: "already_canceled", orderId: order.id, canceledAt: order.subscriptionCanceledAt };
  }
  const { canceledAt, alreadyEnded } = await cancelAtStripeNow(order.stripeSubscriptionId);
  const outcome: SubscriptionCancelResult["outcome"] = alreadyEnded ? "already_canceled" : "canceled";
  // The webhook (customer.subscription.deleted) may have recorded it first: keep the first date.
  await markSubscriptionCanceled(order.id, canceledAt, "customer");
  if (reason) await recordCancelReason(order.id, reason);
  return { outcome, orderId: order.id, canceledAt: (await findOrder(order.id))?.subscriptionCanceledAt ?? canceledAt };
}

/** The reason the subscriber gave (the first one kept: a second click changes nothing). */
async function recordCancelReason(firstOrderId: number, reason: CancelReason) {
  await getDb()
    .update(subscriptions)
    .set({ cancelReason: reason })
    .where(and(eq(subscriptions.firstOrderId, firstOrderId), isNull(subscriptions.cancelReason)));
}

/** For tests. */
export async function resetSubscriptionCancelRateLimit() {
  await cancelFailuresByAddress.clear();
}
