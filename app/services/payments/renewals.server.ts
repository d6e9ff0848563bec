import type Stripe from "stripe";
import type { DbOrTx } from "~/db/client.server";
import type { Subscription } from "~/db/schema";
import { CURRENCY } from "~/lib/money";
import {
  queueRenewalActionRequiredEmail,
  queueRenewalPaidEmails,
  queueRenewalPaymentFailedEmail,
} from "~/services/email/notifications.server";
import { notifyOwnerOfRenewalProblem } from "~/services/email/owner-notifications.server";
import { invoicePayUrl } from "~/services/invoice-link.server";
import { findOrderBySubscription } from "~/services/orders/find.server";
import {
  ensureSubscriptionRecord,
  findSubscription,
  findSubscriptionByStripeId,
  recordRenewalActionRequired,
  recordRenewalFailed,
  recordRenewalPaid,
} from "~/services/subscriptions/record.server";
import { createRenewalOrderIn } from "./payment-state.server";
import { endSubscriptionDiscountAfter, invoiceDiscountCents } from "~/services/promotions/stripe-coupon.server";

/**
 * The renewals of a subscription, from Stripe's signed webhooks (in the webhook's
 * transaction): each paid renewal invoice makes one order to ship, paid by the payment state
 * (createRenewalOrderIn); a failed one puts the subscription past due and tells the customer
 * how to pay it. The subscription's record is written by services/subscriptions/record.server.ts.
 */

export type RenewalOutcome = "renewal_recorded" | "already_recorded" | "renewal_failed" | "renewal_action_required" | "ignored";

/** The subscription's record, made from its first order when the renewal arrives before the first payment's webhook. */
async function recordFor(tx: DbOrTx, stripeSubscriptionId: string): Promise<Subscription | undefined> {
  const record = await findSubscriptionByStripeId(tx, stripeSubscriptionId);
  if (record) return record;
  const order = await findOrderBySubscription(stripeSubscriptionId, tx);
  if (!order) return undefined;
  return await ensureSubscriptionRecord(tx, { ...order, stripeSubscriptionId });
}

/** The end of the period the invoice pays (its subscription lines' latest `period.end`), ISO; null when it has none. */
export function invoicePeriodEnd(invoice: Stripe.Invoice): string | null {
  let end: number | null = null;
  for (const line of invoice.lines?.data ?? []) {
    if (line.parent?.type !== "subscription_item_details") continue;
    if (line.period?.end && (end === null || line.period.end > end)) end = line.period.end;
  }
  return end === null ? null : new Date(end * 1000).toISOString();
}

/** The renewal's date: the start of the period the invoice pays, else the invoice's creation (ISO). */
export function invoiceRenewalDate(invoice: Stripe.Invoice): string {
  let start: number | null = null;
  for (const line of invoice.lines?.data ?? []) {
    if (line.parent?.type !== "subscription_item_details") continue;
    if (line.period?.start && (start === null || line.period.start > start)) start = line.period.start;
  }
  return new Date((start ?? invoice.created) * 1000).toISOString();
}

function paidAtOf(invoice: Stripe.Invoice): string {
  const at = invoice.status_transitions?.paid_at;
  return new Date(at ? at * 1000 : Date.now()).toISOString();
}

/** `invoice.paid` for a renewal (`subscription_cycle`): one order per invoice, the subscription active again. */
export async function applyRenewalPaid(
  tx: DbOrTx,
  invoice: Stripe.Invoice,
  stripeSubscriptionId: string,
): Promise<RenewalOutcome> {
  if (invoice.status !== "paid" || invoice.currency !== CURRENCY || invoice.amount_paid <= 0) return "ignored";
  const record = await recordFor(tx, stripeSubscriptionId);
  if (!record) return "ignored";
  const paidAt = paidAtOf(invoice);
  const orderId = await createRenewalOrderIn(tx, record, {
    stripeInvoiceId: invoice.id!,
    amountCents: invoice.amount_paid,
    paidAt,
    renewalNumber: record.renewalCount + 1,
    discountCents: invoiceDiscountCents(invoice),
  });
  if (orderId === null) return "already_recorded";
  if (invoiceDiscountCents(invoice) > 0) {
    await endSubscriptionDiscountAfter(tx, record.firstOrderId, stripeSubscriptionId, record.renewalCount + 1);
  }
  await recordRenewalPaid(tx, record, { invoiceId: invoice.id!, paidAt, periodEnd: invoicePeriodEnd(invoice) });
  const updated = await findSubscription(tx, record.id);
  await queueRenewalPaidEmails(tx, orderId, {
    renewalNumber: record.renewalCount + 1,
    nextRenewalAt: updated?.status === "canceled" ? null : (updated?.currentPeriodEnd ?? null),
  });
  return "renewal_recorded";
}

/** `invoice.payment_failed` for a renewal: past due, the invoice to pay kept, the customer told once per invoice. */
export async function applyRenewalFailed(
  tx: DbOrTx,
  invoice: Stripe.Invoice,
  stripeSubscriptionId: string,
): Promise<RenewalOutcome> {
  const record = await recordFor(tx, stripeSubscriptionId);
  if (!record || record.status === "canceled" || !invoice.id) return "ignored";
  await recordRenewalFailed(tx, record, invoice.id);
  // The bank asked the customer to authenticate this invoice: the "action required" email says what to do.
  const actionRequired = record.unpaidInvoiceId === invoice.id && record.actionRequiredAt !== null;
  if (record.firstOrderId !== null && !actionRequired) {
    await queueRenewalPaymentFailedEmail(tx, record.firstOrderId, {
      invoiceId: invoice.id,
      amountCents: invoice.amount_due,
      payUrl: invoice.hosted_invoice_url || invoicePayUrl(invoice.id),
      renewalNumber: record.renewalCount + 1,
      dueAt: invoiceRenewalDate(invoice),
    });
  }
  // The owner is told once per invoice, whether it was refused or is waiting for the customer.
  if (record.firstOrderId !== null)
    await notifyOwnerOfRenewalProblem(tx, record.firstOrderId, {
      subscriptionId: record.id,
      invoiceId: invoice.id,
      amountCents: invoice.amount_due,
      renewalNumber: record.renewalCount + 1,
      problem: actionRequired ? "action_required" : "failed",
    });
  return "renewal_failed";
}

/**
 * `invoice.payment_action_required` for a renewal: the bank asks the customer to authenticate
 * (3-D Secure) a payment made without them. Past due with the invoice to pay and the date it was
 * asked (the back office shows it), and the customer is asked to confirm it, once per invoice,
 * with the same pay link as a failed renewal: its page shows the bank's challenge.
 */
export async function applyRenewalActionRequired(
  tx: DbOrTx,
  invoice: Stripe.Invoice,
  stripeSubscriptionId: string,
  at: string,
): Promise<RenewalOutcome> {
  const record = await recordFor(tx, stripeSubscriptionId);
  if (!record || record.status === "canceled" || !invoice.id || invoice.status !== "open") return "ignored";
  await recordRenewalActionRequired(tx, record, invoice.id, at);
  if (record.firstOrderId !== null) {
    await queueRenewalActionRequiredEmail(tx, record.firstOrderId, {
      invoiceId: invoice.id,
      amountCents: invoice.amount_remaining || invoice.amount_due,
      payUrl: invoice.hosted_invoice_url || invoicePayUrl(invoice.id),
      renewalNumber: record.renewalCount + 1,
      dueAt: invoiceRenewalDate(invoice),
    });
    await notifyOwnerOfRenewalProblem(tx, record.firstOrderId, {
      subscriptionId: record.id,
      invoiceId: invoice.id,
      amountCents: invoice.amount_remaining || invoice.amount_due,
      renewalNumber: record.renewalCount + 1,
      problem: "action_required",
    });
  }
  return "renewal_action_required";
}
