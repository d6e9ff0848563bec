import { eq } from "drizzle-orm";
import Stripe from "stripe";
import { getDb } from "~/db/client.server";
import { lockFor } from "~/db/locks.server";
import { subscriptions, type Subscription } from "~/db/schema";
import { bankRefusalReason, cardLabel } from "~/lib/cards";
import { formatPrice } from "~/lib/money";
import { ShopError } from "~/lib/shop-error";
import { parseIdOrNull } from "~/lib/ids";
import { queueSubscriptionChangedEmail, subscriptionChangedEmailOnce } from "~/services/email/notifications.server";
import { applyRenewalPaid } from "./renewals.server";
import { getStripe } from "~/services/stripe.server";
import { recordSubscriptionEvent, type SubscriptionActor } from "~/services/subscriptions/history.server";
import { findSubscription } from "~/services/subscriptions/record.server";

/**
 * « Changer de carte » (/mon-abonnement): the subscriber saves a new card through a Stripe
 * SetupIntent (`usage: off_session`, the subscription's customer), which their bank may
 * challenge with 3-D Secure in the browser (Stripe.js `confirmCardSetup`). The shop never sees
 * the card: once the browser says it is done, the SetupIntent is read back from Stripe, and only
 * a succeeded one of this subscription's customer is used:
 * - the card becomes the subscription's `default_payment_method` and the customer's
 *   `invoice_settings.default_payment_method`;
 * - a renewal left unpaid (past due) is paid at once on it (`invoices.pay`), and its order made
 *   as the `invoice.paid` webhook makes it (the same function, once per invoice);
 * - the record keeps the card's brand and last 4 digits, the history says « carte de paiement
 *   changée », and the email « Abonnement modifié » says which card and what became of the
 *   unpaid renewal.
 */

export const CARD_CHANGE_MESSAGES = {
  ended: "Cet abonnement est résilié : sa carte ne peut plus être changée.",
  notStarted: "Cet abonnement attend encore son premier paiement : sa carte ne peut pas encore être changée.",
  notSetUp: "La nouvelle carte n'a pas été enregistrée par votre banque. Réessayez, ou utilisez une autre carte.",
  unknownSetup: "Cet enregistrement de carte ne correspond pas à cet abonnement.",
  noCustomer: "Cet abonnement n'a pas de client chez Stripe : sa carte ne peut pas être changée en ligne.",
} as const;

const M = CARD_CHANGE_MESSAGES;

function assertCardChangeable(record: Subscription) {
  if (record.status === "canceled") throw new ShopError(409, "subscription_canceled", M.ended);
  if (record.status === "incomplete") throw new ShopError(409, "subscription_incomplete", M.notStarted);
}

async function stripeCustomerOf(stripe: Stripe, record: Subscription): Promise<string> {
  if (record.stripeCustomerId) return record.stripeCustomerId;
  const sub = await stripe.subscriptions.retrieve(record.stripeSubscriptionId);
  const customer = typeof sub.customer === "string" ? sub.customer : sub.customer?.id;
  if (!customer) throw new ShopError(409, "no_stripe_customer", M.noCustomer);
  return customer;
}

/** The first step: a SetupIntent for the subscription's customer; the browser confirms its client secret. */
export async function startCardChange(record: Subscription): Promise<{ clientSecret: string; setupIntentId: string }> {
  assertCardChangeable(record);
  const stripe = await getStripe();
  const customer = await stripeCustomerOf(stripe, record);
  const intent = await stripe.setupIntents.create({
    customer,
    usage: "off_session",
    allowed_payment_method_types: ["card"],
    metadata: { subscriptionId: String(record.id), stripeSubscriptionId: record.stripeSubscriptionId },
  });
  if (!intent.client_secret) throw new ShopError(502, "setup_intent_without_secret", M.notSetUp);
  return { clientSecret: intent.client_secret, setupIntentId: intent.id };
}

/** What became of the renewal left unpaid, once retried on the new card. */
export type PastDueRetry =
  | { outcome: "paid"; renewalNumber: number; amountCents: number }
  | { outcome: "failed"; renewalNumber: number; amountCents: number; reason: string };

export type CardChange = {
  /** « Visa •••• 3155 ». */
  card: string;
  /** false when this SetupIntent's card was already saved (the page reloaded, or the webhook came first): nothing was done twice. */
  changed: boolean;
  retry: PastDueRetry | null;
  title: string;
  summary: string;
  subscription: Subscription;
};

const idOf = (value: string | { id: string } | null | undefined) => (typeof value === "string" ? value : (value?.id ?? null));

/**
 * Retries the unpaid renewal on the new card now; a paid one makes its renewal order as the webhook
 * would. The payment's idempotency key names the SetupIntent and the invoice: the page and the
 * webhook both retrying get Stripe's one answer, and the invoice is charged once.
 */
async function retryPastDue(
  stripe: Stripe,
  record: Subscription,
  paymentMethodId: string,
  setupIntentId: string,
): Promise<PastDueRetry | null> {
  if (record.status !== "past_due" || !record.unpaidInvoiceId) return null;
  const renewalNumber = record.renewalCount + 1;
  const invoiceId = record.unpaidInvoiceId;
  try {
    const invoice = await stripe.invoices.pay(
      invoiceId,
      { payment_method: paymentMethodId },
      { idempotencyKey: `card-change:${setupIntentId}:${invoiceId}` },
    );
    if (invoice.status !== "paid") {
      return { outcome: "failed", renewalNumber, amountCents: invoice.amount_due, reason: bankRefusalReason(null) };
    }
    await getDb().transaction(async (tx) => {
      await lockFor(tx, "subscription", record.stripeSubscriptionId);
      await applyRenewalPaid(tx, invoice, record.stripeSubscriptionId);
    });
    return { outcome: "paid", renewalNumber, amountCents: invoice.amount_paid };
  } catch (error) {
    if (error instanceof Stripe.errors.StripeInvalidRequestError) {
      // Paid or closed meanwhile (Stripe's own retry, the pay link): say what Stripe now has; its webhook makes the order.
      const invoice = await stripe.invoices.retrieve(invoiceId);
      if (invoice.status === "paid") return { outcome: "paid", renewalNumber, amountCents: invoice.amount_paid };
      if (invoice.status !== "open") return null;
      return { outcome: "failed", renewalNumber, amountCents: invoice.amount_due, reason: bankRefusalReason(null) };
    }
    if (!(error instanceof Stripe.errors.StripeCardError)) throw error;
    return {
      outcome: "failed",
      renewalNumber,
      amountCents: record.amountCents,
      reason: bankRefusalReason({ code: error.code, decline_code: error.decline_code }),
    };
  }
}

function retrySentence(retry: PastDueRetry | null): string {
  if (!retry) return "";
  const which = `Le renouvellement n°${retry.renewalNumber} en attente (${formatPrice(retry.amountCents)})`;
  return retry.outcome === "paid"
    ? ` ${which} a été réglé avec cette carte.`
    : ` ${which} n'a pas pu être prélevé sur cette carte (${retry.reason}) : réglez-le avec une autre carte.`;
}

/** What the SetupIntent's card change is once for: its « Abonnement modifié » email's key. */
const onceFor = (setupIntentId: string) => `setup_intent:${setupIntentId}`;

/**
 * The second step, once the browser's `confirmCardSetup` succeeded, or once Stripe's
 * `setup_intent.succeeded` webhook came (the customer may close the page right after the bank's
 * challenge): the SetupIntent is read back from Stripe and must have succeeded for this
 * subscription's customer.
 *
 * Once per SetupIntent, whichever comes first or both at once: the « Abonnement modifié » email's
 * key names the SetupIntent, so its insert is the claim; the history line is written with it, in
 * the same transaction, by the one that queued it (PostgreSQL makes the other wait for the key,
 * then finds it taken). Stripe's side is the same for both: the default card set twice to the same
 * value, the unpaid renewal paid under one idempotency key, its order made once per invoice.
 */
export async function completeCardChange(
  record: Subscription,
  setupIntentId: string,
  actor: SubscriptionActor,
  now: Date = new Date(),
): Promise<CardChange> {
  assertCardChangeable(record);
  if (!/^seti_[A-Za-z0-9]+$/.test(setupIntentId)) throw new ShopError(422, "unknown_setup_intent", M.unknownSetup);
  const stripe = await getStripe();
  const intent = await stripe.setupIntents.retrieve(setupIntentId, { expand: ["payment_method"] });
  const customer = await stripeCustomerOf(stripe, record);
  if (idOf(intent.customer) !== customer || intent.metadata?.subscriptionId !== String(record.id)) {
    throw new ShopError(422, "unknown_setup_intent", M.unknownSetup);
  }
  const method = intent.payment_method;
  if (intent.status !== "succeeded" || !method || typeof method === "string") {
    throw new ShopError(409, "card_not_set_up", M.notSetUp);
  }
  const card = cardLabel(method.card?.brand, method.card?.last4);
  const unchanged = (summary = "") => ({ card, changed: false, retry: null, title: "", summary, subscription: record });
  // Already done for this SetupIntent (the page posted again, or the webhook came first): nothing twice.
  const done = await subscriptionChangedEmailOnce(getDb(), record, onceFor(setupIntentId));
  if (done) return unchanged(done.summary ?? "");
  if (!record.customerEmail?.trim()) {
    // No email to claim the change with (none on the record): Stripe's default card says it was done.
    const sub = await stripe.subscriptions.retrieve(record.stripeSubscriptionId);
    if (idOf(sub.default_payment_method) === method.id) return unchanged();
  }
  await stripe.subscriptions.update(record.stripeSubscriptionId, { default_payment_method: method.id });
  await stripe.customers.update(customer, { invoice_settings: { default_payment_method: method.id } });
  const retry = await retryPastDue(stripe, record, method.id, setupIntentId);

  const title = "Votre carte de paiement a changé";
  const summary = `Carte enregistrée : ${card}. Les prochains renouvellements seront prélevés sur cette carte.${retrySentence(retry)}`;
  const updated = await getDb().transaction(async (tx) => {
    const claimed = await queueSubscriptionChangedEmail(
      tx,
      record,
      { action: "change_card", title, summary },
      onceFor(setupIntentId),
    );
    if (!claimed && record.customerEmail?.trim()) return null;
    const [row] = await tx
      .update(subscriptions)
      .set({ cardBrand: method.card?.brand ?? null, cardLast4: method.card?.last4 ?? null })
      .where(eq(subscriptions.id, record.id))
      .returning();
    await recordSubscriptionEvent(tx, record.id, {
      action: "change_card",
      label: `carte de paiement changée (${card}).${retrySentence(retry)}`,
      actor,
      at: now.toISOString(),
    });
    return row;
  });
  // The other one (page or webhook) claimed it meanwhile: it wrote the history and the email.
  if (!updated) return { ...unchanged(summary), retry };
  return { card, changed: true, retry, title, summary, subscription: (await findSubscription(getDb(), record.id)) ?? updated };
}

/**
 * Stripe's `setup_intent.succeeded` (webhook.server.ts, once the event is recorded): a SetupIntent
 * of « Changer de carte » (its `metadata.subscriptionId`) saves the card as the page would, for a
 * customer who closed the page right after the bank's challenge. Anything else is left alone: a
 * SetupIntent that is not ours, an ended subscription, another customer's.
 */
export async function completeCardChangeFromWebhook(intent: Stripe.SetupIntent): Promise<"card_changed" | "ignored"> {
  const subscriptionId = parseIdOrNull(intent.metadata?.subscriptionId);
  if (subscriptionId === null) return "ignored";
  const record = await findSubscription(getDb(), subscriptionId);
  if (!record || record.stripeSubscriptionId !== intent.metadata?.stripeSubscriptionId) return "ignored";
  try {
    const change = await completeCardChange(record, intent.id, { kind: "customer" });
    return change.changed ? "card_changed" : "ignored";
  } catch (error) {
    // A refusal (ended since, not this subscription's customer) is final: Stripe need not send it again.
    if (error instanceof ShopError) return "ignored";
    throw error;
  }
}
