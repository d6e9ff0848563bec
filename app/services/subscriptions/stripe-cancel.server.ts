import { isStripeError, retrieveOrNull } from "~/services/stripe-errors.server";
import { getStripe } from "~/services/stripe.server";

export type StripeCancelResult = {
  /** UTC ISO timestamp of the end at Stripe (now when Stripe gives none). */
  canceledAt: string;
  /** True when Stripe had already ended it (or no longer knows it): nothing was done there. */
  alreadyEnded: boolean;
};

/**
 * Ends a subscription at Stripe now, so that nothing more is charged. Already ended at Stripe
 * (Stripe answers resource_missing) or gone: its date, `alreadyEnded`. Stripe's own failures
 * propagate (see toShopError: 503 when Stripe is unreachable).
 */
export async function cancelAtStripeNow(stripeSubscriptionId: string): Promise<StripeCancelResult> {
  const stripe = await getStripe();
  let canceledAtSeconds: number | null;
  let alreadyEnded = false;
  try {
    const sub = await stripe.subscriptions.cancel(stripeSubscriptionId);
    canceledAtSeconds = sub.canceled_at ?? sub.ended_at ?? null;
  } catch (error) {
    if (!isStripeError(error) || error.type !== "StripeInvalidRequestError") throw error;
    const sub = await retrieveOrNull(() => stripe.subscriptions.retrieve(stripeSubscriptionId));
    if (sub && sub.status !== "canceled" && sub.status !== "incomplete_expired") throw error;
    canceledAtSeconds = sub?.canceled_at ?? sub?.ended_at ?? null;
    alreadyEnded = true;
  }
  return {
    canceledAt: new Date(canceledAtSeconds ? canceledAtSeconds * 1000 : Date.now()).toISOString(),
    alreadyEnded,
  };
}
