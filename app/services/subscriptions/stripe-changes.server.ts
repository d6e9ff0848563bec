import type Stripe from "stripe";
import { CURRENCY } from "~/lib/money";
import { ShopError } from "~/lib/shop-error";
import { getStripe } from "~/services/stripe.server";

/**
 * The subscription changes as Stripe makes them (the emulator answers the same calls):
 * - a skipped delivery or a pause: `pause_collection` with `behavior: void` and a `resumes_at`
 *   (the renewals before it make an invoice that is voided at once: nothing is charged);
 *   "" lifts it;
 * - another pack: the subscription item's price, from the next renewal, with
 *   `proration_behavior: none` (nothing charged or credited for the current period);
 * - another frequency: the item's price with another `interval_count` in weeks, and a
 *   `trial_end` at the next renewal so the new interval starts there (Stripe would otherwise
 *   start a new period, and charge it, now);
 * - a reactivation: `cancel_at_period_end: false`.
 */

const toUnix = (iso: string) => Math.floor(Date.parse(iso) / 1000);

export async function pauseCollectionAtStripe(stripeSubscriptionId: string, resumesAt: string): Promise<Stripe.Subscription> {
  const stripe = await getStripe();
  return await stripe.subscriptions.update(stripeSubscriptionId, {
    pause_collection: { behavior: "void", resumes_at: toUnix(resumesAt) },
  });
}

export async function resumeCollectionAtStripe(stripeSubscriptionId: string): Promise<Stripe.Subscription> {
  const stripe = await getStripe();
  return await stripe.subscriptions.update(stripeSubscriptionId, { pause_collection: "" });
}

/** The item's new price (same product, same weekly interval), charged from the next renewal. */
export async function changePriceAtStripe(
  stripeSubscriptionId: string,
  price: { unitAmountCents: number; intervalWeeks: number },
  options: { keepRenewalDate?: string } = {},
): Promise<Stripe.Subscription> {
  const stripe = await getStripe();
  const sub = await stripe.subscriptions.retrieve(stripeSubscriptionId);
  const item = sub.items.data[0];
  if (!item)
    throw new ShopError(
      409,
      "subscription_without_item",
      "Cet abonnement n'a pas de ligne chez Stripe : le pack ne peut pas être changé.",
    );
  const product = typeof item.price.product === "string" ? item.price.product : item.price.product.id;
  return await stripe.subscriptions.update(stripeSubscriptionId, {
    items: [
      {
        id: item.id,
        price_data: {
          currency: CURRENCY,
          product,
          unit_amount: price.unitAmountCents,
          recurring: { interval: "week", interval_count: price.intervalWeeks },
        },
      },
    ],
    proration_behavior: "none",
    // Another interval would start a new period now and charge it: a trial up to the renewal
    // date keeps that date (nothing charged until then), and the new interval starts there.
    ...(options.keepRenewalDate ? { trial_end: toUnix(options.keepRenewalDate) } : {}),
  });
}

export async function reactivateAtStripe(stripeSubscriptionId: string): Promise<Stripe.Subscription> {
  const stripe = await getStripe();
  return await stripe.subscriptions.update(stripeSubscriptionId, { cancel_at_period_end: false });
}
