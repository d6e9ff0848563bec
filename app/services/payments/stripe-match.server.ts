import type Stripe from "stripe";
import type { Order } from "~/db/schema";
import { CURRENCY } from "~/lib/money";

/** Does a Stripe object pay exactly this order? Amounts, currency and order id must all agree. */

/** Does this PaymentIntent pay exactly this order? */
export function paymentIntentPaysOrder(pi: Stripe.PaymentIntent, order: Order): boolean {
  return (
    pi.status === "succeeded" &&
    pi.amount_received === order.totalCents &&
    pi.amount === order.totalCents &&
    pi.currency === CURRENCY &&
    pi.metadata?.orderId === String(order.id)
  );
}

/** The subscription an invoice belongs to, or null. */
export function invoiceSubscriptionId(invoice: Stripe.Invoice): string | null {
  const sub = invoice.parent?.subscription_details?.subscription;
  if (!sub) return null;
  return typeof sub === "string" ? sub : sub.id;
}

/** Does this paid invoice pay this order (its subscription's first charge)? */
export function invoicePaysOrder(invoice: Stripe.Invoice, order: Order, subscriptionId: string): boolean {
  const metadataOrderId = invoice.parent?.subscription_details?.metadata?.orderId;
  return (
    invoice.status === "paid" &&
    invoice.amount_paid === order.totalCents &&
    invoice.currency === CURRENCY &&
    invoiceSubscriptionId(invoice) === subscriptionId &&
    (metadataOrderId === undefined || metadataOrderId === String(order.id))
  );
}
