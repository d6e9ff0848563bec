import type Stripe from "stripe";
import { getDb } from "~/db/client.server";
import type { Subscription } from "~/db/schema";
import { splitFullName } from "~/lib/names";
import { checkInvoicePayLink } from "~/services/invoice-link.server";
import { CURRENCY } from "~/lib/money";
import { retrieveOrNull } from "~/services/stripe-errors.server";
import { getStripe } from "~/services/stripe.server";
import { findSubscriptionByStripeId } from "./record.server";

/**
 * Paying a failed renewal's invoice on the shop's own page
 * (/abonnement/payer?facture=in_…&expire=…&cle=…), the link of the failed-renewal email when
 * Stripe gives no page of its own. The key proves the link is ours (invoice-link.server.ts);
 * the invoice is read from Stripe (the real one or the emulator); the browser pays its
 * PaymentIntent with Stripe.js (confirmation_secret). The renewal's order is made by the
 * `invoice.paid` webhook only (renewals.server.ts), never here. The page never gives a link to
 * the subscription's page: a paid, closed or expired link offers a fresh one by email
 * (manage-link.server.ts).
 */

export type InvoicePaymentView =
  | { kind: "not_found" }
  /** The link was ours but is out of date: nothing is read from Stripe. */
  | { kind: "expired"; invoiceId: string }
  | { kind: "paid"; invoiceId: string; amountCents: number }
  | { kind: "closed"; invoiceId: string }
  | {
      kind: "payable";
      invoiceId: string;
      amountCents: number;
      /** What it pays: the pack of the subscription, and which renewal. */
      packName: string;
      renewalNumber: number | null;
      /** The bank asked the customer to authenticate this payment (3-D Secure): the page says so. */
      actionRequired: boolean;
      /** The PaymentIntent's client secret, for Stripe.js. */
      clientSecret: string;
      customerEmail: string;
      billing: { firstName: string; lastName: string; address: string; postalCode: string; city: string };
    };

function subscriptionIdOf(invoice: Stripe.Invoice): string | null {
  const sub = invoice.parent?.subscription_details?.subscription;
  return typeof sub === "string" ? sub : (sub?.id ?? null);
}

/** A subscription's invoice of our currency at Stripe, or null. */
async function subscriptionInvoice(invoiceId: string): Promise<{ invoice: Stripe.Invoice; stripeSubscriptionId: string } | null> {
  const stripe = await getStripe();
  const invoice = await retrieveOrNull(() => stripe.invoices.retrieve(invoiceId, { expand: ["confirmation_secret"] }));
  const stripeSubscriptionId = invoice ? subscriptionIdOf(invoice) : null;
  if (!invoice || !stripeSubscriptionId || invoice.currency !== CURRENCY) return null;
  return { invoice, stripeSubscriptionId };
}

/**
 * The subscription of a pay link that is ours, valid or expired (the one to send a fresh
 * management link to), or null for a link that is not ours or an invoice that is no subscription's.
 */
export async function invoiceLinkSubscription(params: URLSearchParams, now: Date = new Date()): Promise<Subscription | null> {
  const check = checkInvoicePayLink(params, now);
  if (!check.ok && check.reason === "invalid") return null;
  const found = await subscriptionInvoice(check.invoiceId);
  return found ? ((await findSubscriptionByStripeId(getDb(), found.stripeSubscriptionId)) ?? null) : null;
}

/**
 * The invoice behind a pay link, as the page shows it. A bad key, an unknown invoice or one
 * that is not a subscription's: not_found; a link of ours out of date: expired.
 */
export async function openInvoicePayment(params: URLSearchParams, now: Date = new Date()): Promise<InvoicePaymentView> {
  const check = checkInvoicePayLink(params, now);
  if (!check.ok) return check.reason === "expired" ? { kind: "expired", invoiceId: check.invoiceId } : { kind: "not_found" };
  const { invoiceId } = check;
  const found = await subscriptionInvoice(invoiceId);
  if (!found) return { kind: "not_found" };
  const { invoice } = found;
  const record = await findSubscriptionByStripeId(getDb(), found.stripeSubscriptionId);

  if (invoice.status === "paid") return { kind: "paid", invoiceId, amountCents: invoice.amount_paid };
  const clientSecret = invoice.confirmation_secret?.client_secret;
  if (invoice.status !== "open" || !clientSecret || invoice.amount_remaining <= 0 || record?.status === "canceled") {
    return { kind: "closed", invoiceId };
  }
  const name = splitFullName(record?.shippingName ?? record?.customerName ?? invoice.customer_name);
  const product = record?.productName ?? "Masque Hydrogel";
  return {
    kind: "payable",
    invoiceId,
    amountCents: invoice.amount_remaining,
    packName: record?.variantName ? `${product} – ${record.variantName}` : product,
    renewalNumber: record ? record.renewalCount + 1 : null,
    actionRequired: Boolean(record?.actionRequiredAt && record.unpaidInvoiceId === invoiceId),
    clientSecret,
    customerEmail: record?.customerEmail ?? invoice.customer_email ?? "",
    billing: {
      firstName: name.firstName,
      lastName: name.lastName,
      address: record?.shippingAddress ?? "",
      postalCode: record?.shippingPostalCode ?? "",
      city: record?.shippingCity ?? "",
    },
  };
}
