import type Stripe from "stripe";
import { getDb } from "~/db/client.server";
import { stripeEvents, type Order } from "~/db/schema";
import { parseIdOrNull } from "~/lib/ids";
import type { DbOrTx } from "~/services/customers.server";
import { clearSubscription, findOrder, findOrderBySubscription, markOrderPaidIn, markSubscriptionCanceled } from "./payment-state.server";
import { invoicePaysOrder, invoiceSubscriptionId, paymentIntentPaysOrder } from "./stripe-match.server";

/** Stripe's webhook events, already verified by the route. */

export type WebhookOutcome =
  | "duplicate"
  | "order_paid"
  | "already_paid"
  | "payment_failed"
  | "subscription_ended"
  | "renewal_paid"
  | "ignored";

/**
 * Handles one verified Stripe event, exactly once: its id is recorded in the same
 * transaction as its effect, so a replay changes nothing.
 */
export function handleStripeEvent(event: Stripe.Event): { outcome: WebhookOutcome } {
  return getDb().transaction((tx) => {
    const recorded = tx.insert(stripeEvents).values({ id: event.id, type: event.type }).onConflictDoNothing().run();
    if (recorded.changes === 0) return { outcome: "duplicate" as const };
    return { outcome: applyEvent(tx, event) };
  });
}

function orderFromMetadata(tx: DbOrTx, metadata: Stripe.Metadata | null | undefined): Order | undefined {
  const orderId = parseIdOrNull(metadata?.orderId);
  return orderId === null ? undefined : findOrder(orderId, tx);
}

function applyEvent(tx: DbOrTx, event: Stripe.Event): WebhookOutcome {
  switch (event.type) {
    case "payment_intent.succeeded": {
      const pi = event.data.object;
      const order = orderFromMetadata(tx, pi.metadata);
      if (!order || !paymentIntentPaysOrder(pi, order)) return "ignored";
      return markOrderPaidIn(tx, order.id, { paymentIntentId: pi.id }) ? "order_paid" : "already_paid";
    }
    case "payment_intent.payment_failed": {
      // The order stays unpaid and can be paid again with another card.
      const order = orderFromMetadata(tx, event.data.object.metadata);
      return order ? "payment_failed" : "ignored";
    }
    case "invoice.paid": {
      const invoice = event.data.object;
      const subscriptionId = invoiceSubscriptionId(invoice);
      if (!subscriptionId) return "ignored";
      const order =
        orderFromMetadata(tx, invoice.parent?.subscription_details?.metadata) ?? findOrderBySubscription(subscriptionId, tx);
      if (!order) return "ignored";
      if (invoice.billing_reason !== "subscription_create") {
        return order.paymentStatus === "paid" ? "renewal_paid" : "ignored";
      }
      if (!invoicePaysOrder(invoice, order, subscriptionId)) return "ignored";
      return markOrderPaidIn(tx, order.id, { subscriptionId }) ? "order_paid" : "already_paid";
    }
    case "invoice.payment_failed": {
      const subscriptionId = invoiceSubscriptionId(event.data.object);
      return subscriptionId ? "payment_failed" : "ignored";
    }
    case "customer.subscription.deleted": {
      const sub = event.data.object;
      const order = findOrderBySubscription(sub.id, tx);
      if (!order) return "ignored";
      if (order.paymentStatus !== "paid") {
        // An unpaid subscription that ended: the order can start a new payment.
        clearSubscription(order.id, tx);
      } else if (!order.subscriptionCanceledAt) {
        // A paid subscription ended (cancelled online, by us at Stripe, or after failed renewals).
        const endedAt = sub.canceled_at ?? sub.ended_at;
        const by = sub.cancellation_details?.reason === "payment_failed" ? "payment_failure" : "shop";
        markSubscriptionCanceled(order.id, endedAt ? new Date(endedAt * 1000).toISOString() : new Date().toISOString(), by, tx);
      }
      return "subscription_ended";
    }
    default:
      return "ignored";
  }
}
