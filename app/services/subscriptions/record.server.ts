import { and, asc, eq, inArray, ne, sql } from "drizzle-orm";
import type { DbOrTx } from "~/db/client.server";
import { lockFor } from "~/db/locks.server";
import { orderItems, orders, subscriptions, type Order, type Subscription } from "~/db/schema";
import { findSubscription, findSubscriptionByStripeId } from "../orders/find.server";
import { noteRenewalFailure, noteRenewalPaid } from "./renewal-failures.server";

/**
 * The subscription's record: created from its first order (at the first payment, or by
 * whichever of Stripe's events arrives first), then kept up to date by the webhooks. Every
 * write happens in the caller's transaction, the one of the event that causes it.
 */

const DAY_MS = 86_400_000;

export { findSubscription, findSubscriptionByStripeId };

/** The subscription's record, created from its first order when there is none yet; the order is linked to it. */
export async function ensureSubscriptionRecord(
  tx: DbOrTx,
  order: Order & { stripeSubscriptionId: string },
): Promise<Subscription> {
  await lockFor(tx, "subscription", order.stripeSubscriptionId);
  const existing = await findSubscriptionByStripeId(tx, order.stripeSubscriptionId);
  if (existing) {
    if (order.subscriptionId !== existing.id)
      await tx.update(orders).set({ subscriptionId: existing.id }).where(eq(orders.id, order.id));
    return existing;
  }
  const [item] = await tx.select().from(orderItems).where(eq(orderItems.orderId, order.id)).orderBy(asc(orderItems.id)).limit(1);
  const name =
    order.customerName?.trim() || [order.customerFirstName, order.customerLastName].filter(Boolean).join(" ").trim() || null;
  const [created] = await tx
    .insert(subscriptions)
    .values({
      userId: order.userId,
      customerEmail: order.customerEmail,
      customerName: name,
      productId: item?.productId ?? null,
      packId: item?.packId ?? null,
      quantity: item?.quantity ?? 1,
      productName: item?.productName ?? null,
      variantName: item?.variantName ?? null,
      // The recurring amount, before the promotion code (a Stripe coupon takes its discount off while it lasts: renewal-amount.server.ts).
      amountCents: order.totalCents + order.discountCents,
      stripeSubscriptionId: order.stripeSubscriptionId,
      stripeCustomerId: order.stripeCustomerId,
      status: "incomplete",
      shippingName: name,
      shippingAddress: order.shippingAddress,
      shippingAddress2: order.shippingAddress2,
      shippingPostalCode: order.shippingPostalCode,
      shippingCity: order.shippingCity,
      shippingCountry: order.shippingCountry,
      shippingPhone: order.shippingPhone,
      firstOrderId: order.id,
    })
    .returning();
  await tx.update(orders).set({ subscriptionId: created.id }).where(eq(orders.id, order.id));
  return created;
}

/** The later of two ISO dates (null when both are). */
function later(a: string | null, b: string | null): string | null {
  if (!a) return b;
  if (!b) return a;
  return a > b ? a : b;
}

/**
 * The first payment: the subscription is active (unless it has already ended), started at the
 * payment, and renews at the end of the period Stripe says (else 30 days after the payment).
 */
export async function activateSubscription(
  tx: DbOrTx,
  order: Order & { stripeSubscriptionId: string },
  at: { paidAt: string; currentPeriodEnd?: string | null },
): Promise<Subscription> {
  const record = await ensureSubscriptionRecord(tx, order);
  const periodEnd = at.currentPeriodEnd ?? new Date(new Date(at.paidAt).getTime() + 30 * DAY_MS).toISOString();
  return (
    await tx
      .update(subscriptions)
      .set({
        status: record.status === "incomplete" ? "active" : record.status,
        startedAt: record.startedAt ?? at.paidAt,
        currentPeriodEnd: later(record.currentPeriodEnd, periodEnd),
        stripeCustomerId: record.stripeCustomerId ?? order.stripeCustomerId,
      })
      .where(eq(subscriptions.id, record.id))
      .returning()
  )[0];
}

/** A renewal was paid: one more renewal, the next one at the end of the period paid for, active again. */
export async function recordRenewalPaid(
  tx: DbOrTx,
  record: Subscription,
  paid: { invoiceId: string; paidAt: string; periodEnd: string | null },
) {
  await tx
    .update(subscriptions)
    .set({
      renewalCount: sql`${subscriptions.renewalCount} + 1`,
      currentPeriodEnd: later(record.currentPeriodEnd, paid.periodEnd),
      startedAt: record.startedAt ?? paid.paidAt,
      ...(record.status !== "canceled" ? { status: "active" as const } : {}),
      ...(record.unpaidInvoiceId === paid.invoiceId ? { unpaidInvoiceId: null, actionRequiredAt: null } : {}),
    })
    .where(eq(subscriptions.id, record.id));
  await noteRenewalPaid(tx, paid.invoiceId, paid.paidAt);
}

/** A renewal's payment failed: past due, with the invoice to pay (a new invoice to pay has asked for no authentication yet). */
export async function recordRenewalFailed(tx: DbOrTx, record: Subscription, invoiceId: string) {
  await tx
    .update(subscriptions)
    .set({
      status: "past_due",
      unpaidInvoiceId: invoiceId,
      ...(record.unpaidInvoiceId !== invoiceId ? { actionRequiredAt: null } : {}),
    })
    .where(and(eq(subscriptions.id, record.id), inArray(subscriptions.status, ["incomplete", "active", "past_due"])));
  await noteRenewalFailure(tx, record.id, invoiceId, new Date().toISOString());
}

/**
 * The bank asks the customer to authenticate a renewal's payment (3-D Secure): past due, with
 * the invoice to pay and when it was first asked (a replay or a retry keeps the first date).
 */
export async function recordRenewalActionRequired(tx: DbOrTx, record: Subscription, invoiceId: string, at: string) {
  const sameInvoice = record.unpaidInvoiceId === invoiceId && record.actionRequiredAt !== null;
  await tx
    .update(subscriptions)
    .set({ status: "past_due", unpaidInvoiceId: invoiceId, actionRequiredAt: sameInvoice ? record.actionRequiredAt : at })
    .where(and(eq(subscriptions.id, record.id), inArray(subscriptions.status, ["incomplete", "active", "past_due"])));
  await noteRenewalFailure(tx, record.id, invoiceId, at);
}

/** Whether the subscription will end at the end of its period (Stripe's `cancel_at_period_end`). */
export async function recordCancelAtPeriodEnd(tx: DbOrTx, stripeSubscriptionId: string, cancelAtPeriodEnd: boolean) {
  await tx.update(subscriptions).set({ cancelAtPeriodEnd }).where(eq(subscriptions.stripeSubscriptionId, stripeSubscriptionId));
}

/** The subscription ended: canceled, once (the first date is kept). True the first time. */
export async function recordSubscriptionCanceled(tx: DbOrTx, record: Subscription, canceledAt: string): Promise<boolean> {
  const canceled = await tx
    .update(subscriptions)
    .set({ status: "canceled", canceledAt, unpaidInvoiceId: null, actionRequiredAt: null })
    .where(and(eq(subscriptions.id, record.id), ne(subscriptions.status, "canceled")))
    .returning({ id: subscriptions.id });
  return canceled.length === 1;
}

/**
 * Stripe's `pause_collection` and billing period after a `customer.subscription.updated`: a pause
 * lifted at Stripe (its `resumes_at` came) is lifted here; while paused, a renewal that was not
 * charged moves the next renewal on (no invoice is paid to do it).
 */
export async function recordPauseState(
  tx: DbOrTx,
  sub: {
    id: string;
    pause_collection?: { resumes_at?: number | null } | null;
    items: { data: { current_period_end?: number }[] };
  },
) {
  const record = await findSubscriptionByStripeId(tx, sub.id);
  if (!record || (!record.pauseKind && !sub.pause_collection)) return;
  const ends = sub.items.data.map((i) => i.current_period_end).filter((e): e is number => typeof e === "number");
  const periodEnd = ends.length ? new Date(Math.min(...ends) * 1000).toISOString() : null;
  const resumesAt = sub.pause_collection?.resumes_at ? new Date(sub.pause_collection.resumes_at * 1000).toISOString() : null;
  const next = {
    currentPeriodEnd: record.status === "canceled" ? record.currentPeriodEnd : later(record.currentPeriodEnd, periodEnd),
    pauseKind: sub.pause_collection ? record.pauseKind : null,
    pauseResumesAt: sub.pause_collection ? resumesAt : null,
  };
  const same = (a: string | null, b: string | null) => (a === null || b === null ? a === b : Date.parse(a) === Date.parse(b));
  // A replayed or late event that changes nothing writes nothing.
  if (
    same(next.currentPeriodEnd, record.currentPeriodEnd) &&
    next.pauseKind === record.pauseKind &&
    same(next.pauseResumesAt, record.pauseResumesAt)
  ) {
    return;
  }
  await tx.update(subscriptions).set(next).where(eq(subscriptions.id, record.id));
}
