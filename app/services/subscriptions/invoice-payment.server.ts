import type Stripe from "stripe";
import { getDb } from "~/db/client.server";
import { splitFullName } from "~/lib/names";
import { invoicePayKeyMatches } from "~/services/invoice-link.server";
import { CURRENCY } from "~/lib/money";
import { retrieveOrNull } from "~/services/stripe-errors.server";
import { getStripe } from "~/services/stripe.server";
import { subscriptionLinkQuery, subscriptionLink } from "~/services/subscription-link.server";
import { findSubscriptionByStripeId } from "./record.server";

/**
 * Paying a failed renewal's invoice on the shop's own page (/abonnement/payer?facture=in_…&cle=…),
 * the link of the failed-renewal email when Stripe gives no page of its own. The key proves
 * the link is ours; the invoice is read from Stripe (the real one or the emulator); the
 * browser pays its PaymentIntent with Stripe.js (confirmation_secret). The renewal's order is
 * made by the `invoice.paid` webhook only (renewals.server.ts), never here.
 */

export type InvoicePaymentView =
  | { kind: "not_found" }
  | { kind: "paid"; invoiceId: string; amountCents: number; subscriptionPath: string | null }
  | { kind: "closed"; invoiceId: string; subscriptionPath: string | null }
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
      subscriptionPath: string | null;
    };

const INVOICE_ID = /^in_[A-Za-z0-9_]{1,120}$/;

function subscriptionIdOf(invoice: Stripe.Invoice): string | null {
  const sub = invoice.parent?.subscription_details?.subscription;
  return typeof sub === "string" ? sub : (sub?.id ?? null);
}

/** The invoice behind a pay link, as the page shows it. A bad key, an unknown invoice or one that is not a subscription's: not_found. */
export async function openInvoicePayment(invoiceId: string | null, key: string | null): Promise<InvoicePaymentView> {
  if (!invoiceId || !INVOICE_ID.test(invoiceId) || !invoicePayKeyMatches(invoiceId, key)) return { kind: "not_found" };
  const stripe = await getStripe();
  const invoice = await retrieveOrNull(() => stripe.invoices.retrieve(invoiceId, { expand: ["confirmation_secret"] }));
  const stripeSubscriptionId = invoice ? subscriptionIdOf(invoice) : null;
  if (!invoice || !stripeSubscriptionId || invoice.currency !== CURRENCY) return { kind: "not_found" };
  const record = await findSubscriptionByStripeId(getDb(), stripeSubscriptionId);
  const subscriptionPath = record ? `/mon-abonnement?${subscriptionLinkQuery(subscriptionLink(record.id))}` : null;

  if (invoice.status === "paid") return { kind: "paid", invoiceId, amountCents: invoice.amount_paid, subscriptionPath };
  const clientSecret = invoice.confirmation_secret?.client_secret;
  if (invoice.status !== "open" || !clientSecret || invoice.amount_remaining <= 0 || record?.status === "canceled") {
    return { kind: "closed", invoiceId, subscriptionPath };
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
    subscriptionPath,
  };
}
