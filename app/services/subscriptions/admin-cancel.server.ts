import { getDb } from "~/db/client.server";
import type { Subscription } from "~/db/schema";
import { formatDate } from "~/lib/dates";
import { ShopError } from "~/lib/shop-error";
import type { AdminSubscriptionCancel } from "~/schemas/admin-subscription";
import { markSubscriptionCanceled } from "./end.server";
import { getStripe } from "~/services/stripe.server";
import { findSubscription, recordCancelAtPeriodEnd, recordSubscriptionCanceled } from "./record.server";
import { cancelAtStripeNow } from "./stripe-cancel.server";

/**
 * The shop's own cancellations, from the back office: now (Stripe ends the subscription at
 * once, the customer gets the cancellation email) or at the end of the paid period (Stripe's
 * `cancel_at_period_end`, which can be undone until then). Stripe is told first; the record
 * follows what Stripe answered, and the webhooks confirm it.
 */

const notFound = () => new ShopError(404, "subscription_not_found", "Abonnement introuvable");

async function loadCancellable(id: number): Promise<Subscription> {
  const record = await findSubscription(getDb(), id);
  if (!record) throw notFound();
  if (record.status === "canceled") {
    const when = record.canceledAt ? ` le ${formatDate(record.canceledAt)}` : "";
    throw new ShopError(409, "subscription_canceled", `Cet abonnement est déjà résilié${when}.`);
  }
  if (record.status === "incomplete") {
    throw new ShopError(
      409,
      "subscription_incomplete",
      "Cet abonnement attend encore son premier paiement : il n'y a rien à résilier.",
    );
  }
  return record;
}

export type AdminCancelOutcome = { outcome: "canceled" | "cancel_scheduled"; subscriptionId: number };

/**
 * The admin's cancellation. `now`: ended at Stripe and here, one cancellation email to the
 * customer. `period_end`: Stripe ends it at the end of the paid period (no further charge; the
 * webhook then records the end and sends the email). 409 when already canceled or never paid.
 */
export async function cancelSubscriptionAsAdmin(id: number, input: AdminSubscriptionCancel): Promise<AdminCancelOutcome> {
  const record = await loadCancellable(id);
  if (input.when === "period_end") {
    if (!record.cancelAtPeriodEnd) {
      const stripe = await getStripe();
      const sub = await stripe.subscriptions.update(record.stripeSubscriptionId, { cancel_at_period_end: true });
      await getDb().transaction(
        async (tx) => await recordCancelAtPeriodEnd(tx, record.stripeSubscriptionId, sub.cancel_at_period_end),
      );
    }
    return { outcome: "cancel_scheduled", subscriptionId: id };
  }
  const { canceledAt } = await cancelAtStripeNow(record.stripeSubscriptionId);
  if (record.firstOrderId) {
    // The cancellation email goes to the customer of the first order (the webhook may have recorded it first: once).
    await markSubscriptionCanceled(record.firstOrderId, canceledAt, "shop");
  } else {
    await getDb().transaction(async (tx) => await recordSubscriptionCanceled(tx, record, canceledAt));
  }
  return { outcome: "canceled", subscriptionId: id };
}

/** Undoes a cancellation planned at the end of the period: the renewals go on. 409 when none is planned. */
export async function undoScheduledCancellation(id: number): Promise<{ outcome: "cancel_undone"; subscriptionId: number }> {
  const record = await loadCancellable(id);
  if (!record.cancelAtPeriodEnd) {
    throw new ShopError(409, "no_cancellation_planned", "Aucune résiliation n'est prévue pour cet abonnement.");
  }
  const stripe = await getStripe();
  const sub = await stripe.subscriptions.update(record.stripeSubscriptionId, { cancel_at_period_end: false });
  await getDb().transaction(
    async (tx) => await recordCancelAtPeriodEnd(tx, record.stripeSubscriptionId, sub.cancel_at_period_end),
  );
  return { outcome: "cancel_undone", subscriptionId: id };
}
