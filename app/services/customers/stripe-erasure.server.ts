import type Stripe from "stripe";
import type { StripeErasureResult } from "~/lib/audit";
import { isStripeError, retrieveOrNull } from "~/services/stripe-errors.server";
import { ERASED } from "./placeholders.server";

/**
 * What a customer's erasure changes at Stripe (the calls; the queue that retries them is
 * stripe-erasure-queue.server.ts). The shop gave Stripe the customer's email and name (the
 * Stripe customer of a subscription), their email as the PaymentIntent's `receipt_email`, and
 * their card's billing details (name, email, address) typed at the payment step. After the
 * erasure:
 * - each Stripe customer: no email, phone, address or delivery address, « [effacé] » for a name,
 *   a description saying why, and only the shop's own metadata keys (order number);
 * - its saved cards: billing details emptied, then detached (they can no longer be charged);
 * - each PaymentIntent: no `receipt_email` nor `shipping`, only the shop's metadata keys.
 * Every call can be made again: a second run finds nothing left to change. What Stripe keeps
 * and the API cannot change (the charges' billing details, finalised invoices' customer_email
 * and customer_name, a canceled PaymentIntent) is listed in docs/architecture.md.
 */

/** The metadata keys the shop writes (an order or product number): nothing personal. */
const SHOP_METADATA_KEYS = new Set(["orderId", "productId"]);

export type StripeIds = { customerIds: string[]; paymentIntentIds: string[] };

/** The metadata update that unsets every key the shop did not write (`""` unsets a key at Stripe). */
function foreignMetadata(metadata: Stripe.Metadata | null | undefined): Record<string, string> | undefined {
  const keys = Object.keys(metadata ?? {}).filter((key) => !SHOP_METADATA_KEYS.has(key));
  return keys.length ? Object.fromEntries(keys.map((key) => [key, ""])) : undefined;
}

/** Stripe refuses to change this PaymentIntent in its status (canceled, processing). */
function isUnchangeable(error: unknown) {
  return isStripeError(error) && error.code === "payment_intent_unexpected_state";
}

/** Who the erased customer was at the shop, said in the Stripe customer's description. */
export function erasedDescription(customerId: number) {
  return `Client n° ${customerId} de la boutique : données personnelles effacées à sa demande.`;
}

async function eraseCustomer(
  stripe: Stripe,
  id: string,
  customerId: number,
  options: Stripe.RequestOptions,
  result: StripeErasureResult,
) {
  const customer = await retrieveOrNull(() => stripe.customers.retrieve(id, {}, options));
  if (!customer || customer.deleted) {
    result.unknown++;
    return;
  }
  // Saved cards first: an attached card is the only one Stripe lets the shop change.
  const cards: Stripe.PaymentMethod[] = [];
  // Read whole before any is detached: a detached card leaves the list the pages are read from.
  for await (const card of stripe.customers.listPaymentMethods(id, { limit: 100 }, options)) cards.push(card);
  for (const card of cards) {
    await stripe.paymentMethods.update(card.id, { billing_details: { name: "", email: "", phone: "", address: "" } }, options);
    await stripe.paymentMethods.detach(card.id, {}, options);
    result.paymentMethods++;
  }
  const metadata = foreignMetadata(customer.metadata);
  await stripe.customers.update(
    id,
    {
      email: "",
      name: ERASED,
      phone: "",
      address: "",
      shipping: "",
      description: erasedDescription(customerId),
      ...(metadata ? { metadata } : {}),
    },
    options,
  );
  result.customers++;
}

async function erasePaymentIntent(stripe: Stripe, id: string, options: Stripe.RequestOptions, result: StripeErasureResult) {
  const intent = await retrieveOrNull(() => stripe.paymentIntents.retrieve(id, {}, options));
  if (!intent) {
    result.unknown++;
    return;
  }
  const metadata = foreignMetadata(intent.metadata);
  const update: Stripe.PaymentIntentUpdateParams = {
    ...(intent.receipt_email ? { receipt_email: "" } : {}),
    ...(intent.shipping ? { shipping: "" } : {}),
    ...(metadata ? { metadata } : {}),
  };
  if (Object.keys(update).length === 0) {
    result.paymentIntents++;
    return;
  }
  try {
    await stripe.paymentIntents.update(id, update, options);
    result.paymentIntents++;
  } catch (error) {
    if (!isUnchangeable(error)) throw error;
    result.unchangeable++;
  }
}

/**
 * Overwrites at Stripe what the shop sent there about the customer. Throws on any failure but
 * "no such object" (nothing to erase) and "this PaymentIntent can no longer change" (counted):
 * the caller tries the whole list again later, which is harmless.
 */
export async function eraseAtStripe(
  stripe: Stripe,
  ids: StripeIds,
  customerId: number,
  options: Stripe.RequestOptions = {},
): Promise<StripeErasureResult> {
  const result: StripeErasureResult = { customers: 0, paymentIntents: 0, paymentMethods: 0, unknown: 0, unchangeable: 0 };
  for (const id of ids.customerIds) await eraseCustomer(stripe, id, customerId, options, result);
  for (const id of ids.paymentIntentIds) await erasePaymentIntent(stripe, id, options, result);
  return result;
}

/** Why an attempt failed, in French, from the kind of error only (Stripe's text may repeat a value it was sent). */
export function stripeFailureLabel(error: unknown): string {
  if (!isStripeError(error)) return "Erreur inattendue pendant l'effacement chez Stripe.";
  const kind = `${error.type}${error.code ? `, ${error.code}` : ""}`;
  switch (error.type) {
    case "StripeConnectionError":
      return `Stripe injoignable (${kind}).`;
    case "StripeAPIError":
      return `Erreur chez Stripe (${kind}).`;
    case "StripeRateLimitError":
      return `Stripe limite les requêtes (${kind}).`;
    case "StripeAuthenticationError":
    case "StripePermissionError":
      return `Clé Stripe refusée (${kind}).`;
    default:
      return `Refus de Stripe (${kind}).`;
  }
}
