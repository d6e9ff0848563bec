import type { Order } from "~/db/schema";
import { log } from "~/log.server";
import { getStripe } from "~/services/stripe.server";

/**
 * A second payment of an order another payment already paid: a hosted payment page left open
 * and paid after the card form (or the other way round), a card payment authorised after the
 * order was paid elsewhere. The order keeps its first payment; the second one is refunded in
 * full at once, at Stripe, never counted as the order's refund (its metadata says why, and the
 * refund webhooks leave it out: refunds.server.ts).
 */

/** The metadata key of such a refund (its value: the order's number). */
export const DUPLICATE_PAYMENT_METADATA = "duplicatePaymentOfOrder";

/** Whether a refund seen at Stripe is one of these. */
export function isDuplicatePaymentRefund(metadata: Record<string, string> | null | undefined): boolean {
  return Boolean(metadata?.[DUPLICATE_PAYMENT_METADATA]);
}

/**
 * The PaymentIntent that succeeded for an order it could not pay (the order already paid, by
 * another PaymentIntent or a subscription), or null when it is the order's own payment.
 */
export function duplicatePaymentOf(order: Order, paymentIntentId: string | null | undefined): string | null {
  if (!paymentIntentId) return null;
  if (!order.isSubscription && order.stripePaymentIntentId === paymentIntentId) return null;
  return paymentIntentId;
}

/** The subscription a session started for an order already paid by another payment, or null when it is the order's own. */
export function duplicateSubscriptionOf(order: Order, subscriptionId: string | null | undefined): string | null {
  if (!subscriptionId) return null;
  if (order.isSubscription && order.stripeSubscriptionId === subscriptionId) return null;
  return subscriptionId;
}

/**
 * A second subscription of a paid order: cancelled at once at Stripe (no renewal will ever be
 * charged), and its first invoice's payment refunded in full.
 */
export async function cancelDuplicateSubscription(orderId: number, subscriptionId: string, invoiceId: string | null) {
  const stripe = await getStripe();
  const sub = await stripe.subscriptions.retrieve(subscriptionId);
  if (sub.status !== "canceled" && sub.status !== "incomplete_expired") await stripe.subscriptions.cancel(subscriptionId);
  const latest = invoiceId ?? (typeof sub.latest_invoice === "string" ? sub.latest_invoice : (sub.latest_invoice?.id ?? null));
  if (latest) {
    const invoice = await stripe.invoices.retrieve(latest, { expand: ["payments"] });
    for (const payment of invoice.payments?.data ?? []) {
      const pi = payment.payment?.payment_intent;
      const paymentIntentId = typeof pi === "string" ? pi : (pi?.id ?? null);
      if (paymentIntentId && payment.status === "paid") await refundDuplicatePayment(orderId, paymentIntentId);
    }
  }
  log.warn({ orderId, subscriptionId }, "Second subscription of an already paid order: cancelled");
}

/** Refunds the duplicate payment in full (once: Stripe's idempotency key is the PaymentIntent's). */
export async function refundDuplicatePayment(orderId: number, paymentIntentId: string): Promise<void> {
  const stripe = await getStripe();
  await stripe.refunds.create(
    { payment_intent: paymentIntentId, reason: "duplicate", metadata: { [DUPLICATE_PAYMENT_METADATA]: String(orderId) } },
    { idempotencyKey: `duplicate-payment-${paymentIntentId}` },
  );
  log.warn({ orderId, paymentIntentId }, "Second payment of an already paid order: refunded in full");
}
