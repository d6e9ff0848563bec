/**
 * A subscription's first renewal comes this many days after its first payment (the trial period
 * its Stripe subscription is created with), then one every 4 weeks.
 */
export const SUBSCRIPTION_TRIAL_DAYS = 30;

/** How a subscription's renewal order is named in the admin ("Renouvellement n°2"); null for any other order. */
export function renewalLabel(renewalNumber: number | null | undefined): string | null {
  return renewalNumber ? `Renouvellement n°${renewalNumber}` : null;
}
