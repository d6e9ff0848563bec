import { eq, sql } from "drizzle-orm";
import { paymentReceived } from "~/lib/order-status";
import type Stripe from "stripe";
import { getDb, type DbOrTx } from "~/db/client.server";
import { lockFor } from "~/db/locks.server";
import { prepared } from "~/db/prepared.server";
import { stripeEvents, type Order } from "~/db/schema";
import { parseIdOrNull } from "~/lib/ids";
import { getStripe } from "~/services/stripe.server";
import {
  findSubscriptionByStripeId,
  recordCancelAtPeriodEnd,
  recordPauseState,
  recordSubscriptionCanceled,
} from "~/services/subscriptions/record.server";
import {
  applyRenewalActionRequired,
  applyRenewalFailed,
  applyRenewalPaid,
  invoicePeriodEnd,
  type RenewalOutcome,
} from "./renewals.server";
import { clearSubscription, findOrderByPaymentIntent, markOrderPaidIn } from "./payment-state.server";
import { markSubscriptionCanceled } from "~/services/subscriptions/end.server";
import { findOrder, findOrderBySubscription } from "~/services/orders/find.server";
import { reconcileStripeRefundIn, type StripeRefundLike } from "./refunds.server";
import { invoicePaysOrder, invoiceSubscriptionId, paymentIntentPaysOrder } from "./stripe-match.server";
import { countOrderPaid, countRenewal, countWebhook } from "~/services/observability/metrics.server";
import { applyCheckoutSessionIn, orderPaidBySession } from "./hosted-checkout.server";
import { completeCardChangeFromWebhook } from "./subscription-card.server";
import {
  cancelDuplicateSubscription,
  duplicatePaymentOf,
  duplicateSubscriptionOf,
  refundDuplicatePayment,
} from "./duplicate-payment.server";
import { HANDLED_WEBHOOK_EVENTS } from "./webhook-events";

/** The events the shop's webhook endpoint is subscribed to (at Stripe, and at the emulator in demo mode). */
export { HANDLED_WEBHOOK_EVENTS };

/** Stripe's webhook events, already verified by the route. */

export type WebhookOutcome =
  | "duplicate"
  | "order_paid"
  | "already_paid"
  | "payment_failed"
  | "subscription_ended"
  | "order_refunded"
  | "refund_updated"
  | "duplicate_payment_refunded"
  | "card_changed"
  | Exclude<RenewalOutcome, "ignored">
  | "ignored";

/**
 * What a verified event needs from Stripe before it is handled: a `charge.refunded` whose charge
 * does not list its refunds (Stripe's recent API versions leave them out) gets them, so the
 * handling itself stays one transaction that awaits nothing but the database.
 */
export async function prepareStripeEvent(event: Stripe.Event): Promise<Stripe.Event> {
  if (event.type !== "charge.refunded") return event;
  const charge = event.data.object;
  if (charge.refunds?.data && !charge.refunds.has_more) return event;
  const list = await (await getStripe()).refunds.list({ charge: charge.id, limit: 100 });
  return { ...event, data: { ...event.data, object: { ...charge, refunds: list } } } as Stripe.Event;
}

/** The event's id, recorded once (every handled event, in its transaction): prepared once per database handle. */
const recordStripeEvent = (db: DbOrTx) =>
  db
    .insert(stripeEvents)
    .values({ id: sql.placeholder("id"), type: sql.placeholder("type"), receivedAt: sql.placeholder("receivedAt") })
    .onConflictDoNothing()
    .returning({ id: stripeEvents.id })
    .prepare();

/**
 * Handles one verified Stripe event, exactly once: its id is recorded in the same
 * transaction as its effect, so a replay changes nothing.
 */
export async function handleStripeEvent(event: Stripe.Event): Promise<{ outcome: WebhookOutcome }> {
  // An event the shop does not act on (payment_intent.created, charge.succeeded…) changes
  // nothing: it is answered at once, without a transaction that other writes would wait for.
  if (!HANDLED_EVENTS.has(event.type)) {
    countWebhook(event.type, "ignored", event.id);
    return { outcome: "ignored" };
  }
  let handled: { outcome: WebhookOutcome };
  let afterCommit: (() => Promise<void | WebhookOutcome>) | undefined;
  try {
    handled = await getDb().transaction(async (tx) => {
      const recorded = await prepared(tx, "recordStripeEvent", recordStripeEvent).execute({
        id: event.id,
        type: event.type,
        receivedAt: new Date().toISOString(),
      });
      if (recorded.length === 0) return { outcome: "duplicate" as const };
      return { outcome: await applyEvent(tx, event, (action) => (afterCommit = action)) };
    });
    // Stripe's side of the outcome (a second payment refunded, a new card saved), once the event is
    // recorded. If Stripe cannot be reached, the event is forgotten again and answered with an error:
    // Stripe sends it again.
    if (afterCommit) {
      const action: () => Promise<void | WebhookOutcome> = afterCommit;
      const outcome = await action().catch(async (error: unknown) => {
        await getDb().delete(stripeEvents).where(eq(stripeEvents.id, event.id));
        throw error;
      });
      if (outcome) handled = { outcome };
    }
  } catch (error) {
    countWebhook(event.type, "error", event.id);
    throw error;
  }
  // Counted once committed.
  countWebhook(event.type, handled.outcome, event.id);
  if (handled.outcome === "order_paid") countOrderPaid();
  else if (handled.outcome === "renewal_recorded") countRenewal("paid");
  else if (handled.outcome === "renewal_failed") countRenewal("failed");
  return handled;
}

async function orderFromMetadata(tx: DbOrTx, metadata: Stripe.Metadata | null | undefined): Promise<Order | undefined> {
  const orderId = parseIdOrNull(metadata?.orderId);
  return orderId === null ? undefined : await findOrder(orderId, tx);
}

function idOf(value: string | { id: string } | null | undefined): string | null {
  return typeof value === "string" ? value : (value?.id ?? null);
}

/** What is left to do at Stripe once the event's transaction is committed (it may tell the outcome). */
type AfterCommit = (action: () => Promise<void | WebhookOutcome>) => void;

/** An order already paid by another payment: this one is refunded after the commit (duplicate-payment.server.ts). */
function refundIfDuplicate(order: Order, paymentIntentId: string | null, afterCommit: AfterCommit): WebhookOutcome {
  const duplicate = duplicatePaymentOf(order, paymentIntentId);
  if (!duplicate) return "already_paid";
  afterCommit(async () => await refundDuplicatePayment(order.id, duplicate));
  return "duplicate_payment_refunded";
}

/** The Stripe subscription an event is about (its invoices, its changes), or null. */
function subscriptionOf(event: Stripe.Event): string | null {
  if (event.type.startsWith("customer.subscription.")) return (event.data.object as Stripe.Subscription).id;
  if (event.type.startsWith("invoice.")) return invoiceSubscriptionId(event.data.object as Stripe.Invoice);
  return null;
}

/** The events applyEvent acts on; any other is ignored before the database is touched. */
const HANDLED_EVENTS: ReadonlySet<string> = new Set<string>(HANDLED_WEBHOOK_EVENTS);

async function applyEvent(tx: DbOrTx, event: Stripe.Event, afterCommit: AfterCommit): Promise<WebhookOutcome> {
  // A subscription's record is read then written by each of its events: they wait for each other.
  const subscriptionId = subscriptionOf(event);
  if (subscriptionId) await lockFor(tx, "subscription", subscriptionId);
  switch (event.type) {
    case "payment_intent.succeeded": {
      const pi = event.data.object;
      const order = await orderFromMetadata(tx, pi.metadata);
      if (!order || !paymentIntentPaysOrder(pi, order)) return "ignored";
      if (await markOrderPaidIn(tx, order.id, { paymentIntentId: pi.id })) return "order_paid";
      return refundIfDuplicate(order, pi.id, afterCommit);
    }
    case "checkout.session.completed": {
      // Paid on the hosted payment page (no JavaScript): its PaymentIntent or its subscription.
      const session = event.data.object;
      const outcome = await applyCheckoutSessionIn(tx, session);
      if (outcome !== "already_paid") return outcome;
      const order = await orderPaidBySession(tx, session);
      if (!order) return outcome;
      if (session.mode === "payment") return refundIfDuplicate(order, idOf(session.payment_intent), afterCommit);
      const duplicate = duplicateSubscriptionOf(order, idOf(session.subscription));
      if (!duplicate) return outcome;
      afterCommit(async () => await cancelDuplicateSubscription(order.id, duplicate, idOf(session.invoice)));
      return "duplicate_payment_refunded";
    }
    case "payment_intent.payment_failed": {
      // The order stays unpaid and can be paid again with another card.
      const order = await orderFromMetadata(tx, event.data.object.metadata);
      return order ? "payment_failed" : "ignored";
    }
    case "invoice.paid": {
      const invoice = event.data.object;
      const subscriptionId = invoiceSubscriptionId(invoice);
      if (!subscriptionId) return "ignored";
      // A renewal: an order of its own, whatever the state of the first one.
      if (invoice.billing_reason === "subscription_cycle") return await applyRenewalPaid(tx, invoice, subscriptionId);
      if (invoice.billing_reason !== "subscription_create") return "ignored";
      const order =
        (await orderFromMetadata(tx, invoice.parent?.subscription_details?.metadata)) ??
        (await findOrderBySubscription(subscriptionId, tx));
      if (!order) return "ignored";
      if (!invoicePaysOrder(invoice, order, subscriptionId)) return "ignored";
      const paid = await markOrderPaidIn(tx, order.id, { subscriptionId, currentPeriodEnd: invoicePeriodEnd(invoice) });
      return paid ? "order_paid" : "already_paid";
    }
    case "invoice.payment_failed": {
      const invoice = event.data.object;
      const subscriptionId = invoiceSubscriptionId(invoice);
      if (!subscriptionId) return "ignored";
      if (invoice.billing_reason === "subscription_cycle") return await applyRenewalFailed(tx, invoice, subscriptionId);
      return "payment_failed";
    }
    case "invoice.payment_action_required": {
      // The bank asks the customer to authenticate. For a renewal they are not there: they are
      // asked by email. For a first payment they are on the payment step, where Stripe.js shows the challenge.
      const invoice = event.data.object;
      const subscriptionId = invoiceSubscriptionId(invoice);
      if (!subscriptionId || invoice.billing_reason !== "subscription_cycle") return "ignored";
      return await applyRenewalActionRequired(tx, invoice, subscriptionId, new Date(event.created * 1000).toISOString());
    }
    case "customer.subscription.updated": {
      const sub = event.data.object;
      // Stripe gave up (after failed renewals, per the account's settings): the subscription has ended.
      if (sub.status === "canceled" || sub.status === "unpaid") return await subscriptionEnded(tx, sub);
      await recordCancelAtPeriodEnd(tx, sub.id, sub.cancel_at_period_end);
      await recordPauseState(tx, sub);
      return "ignored";
    }
    case "customer.subscription.deleted":
      return await subscriptionEnded(tx, event.data.object);
    case "charge.refunded": {
      // A refund, in part or in full, made here or at Stripe (its dashboard): each of the charge's refunds is recorded once.
      const charge = event.data.object;
      const paymentIntentId = typeof charge.payment_intent === "string" ? charge.payment_intent : charge.payment_intent?.id;
      const order =
        (await orderFromMetadata(tx, charge.metadata)) ??
        (paymentIntentId ? await findOrderByPaymentIntent(paymentIntentId, tx) : undefined);
      if (!order) return "ignored";
      let changed = false;
      for (const refund of charge.refunds?.data ?? []) {
        if (
          await reconcileStripeRefundIn(
            tx,
            { ...refund, payment_intent: refund.payment_intent ?? paymentIntentId ?? null },
            order,
          )
        )
          changed = true;
      }
      return changed ? "order_refunded" : "ignored";
    }
    case "refund.created":
    case "refund.updated": {
      // A refund's status (a failed refund gives its amount back).
      const refund = event.data.object;
      return (await reconcileStripeRefundIn(tx, refund as StripeRefundLike)) ? "refund_updated" : "ignored";
    }
    case "setup_intent.succeeded": {
      // « Changer de carte » confirmed at the bank: the card is saved even if the customer closed
      // the page right after the challenge (subscription-card.server.ts, once per SetupIntent).
      const intent = event.data.object;
      if (!intent.metadata?.subscriptionId) return "ignored";
      afterCommit(async () => await completeCardChangeFromWebhook(intent));
      return "ignored";
    }
    default:
      return "ignored";
  }
}

/** The subscription ended at Stripe: deleted, or updated to canceled or unpaid. */
async function subscriptionEnded(tx: DbOrTx, sub: Stripe.Subscription): Promise<WebhookOutcome> {
  const order = await findOrderBySubscription(sub.id, tx);
  const endedAtSeconds = sub.canceled_at ?? sub.ended_at;
  const endedAt = endedAtSeconds ? new Date(endedAtSeconds * 1000).toISOString() : new Date().toISOString();
  if (!order) {
    const record = await findSubscriptionByStripeId(tx, sub.id);
    if (!record) return "ignored";
    await recordSubscriptionCanceled(tx, record, endedAt);
    return "subscription_ended";
  }
  if (!paymentReceived(order.paymentStatus)) {
    // An unpaid subscription that ended: the order can start a new payment.
    const record = await findSubscriptionByStripeId(tx, sub.id);
    if (record) await recordSubscriptionCanceled(tx, record, endedAt);
    await clearSubscription(order.id, tx);
  } else {
    // A paid subscription ended (cancelled online, by us at Stripe, or Stripe giving up after failed renewals).
    const by = sub.status === "unpaid" || sub.cancellation_details?.reason === "payment_failed" ? "payment_failure" : "shop";
    await markSubscriptionCanceled(order.id, endedAt, by, tx);
  }
  return "subscription_ended";
}
