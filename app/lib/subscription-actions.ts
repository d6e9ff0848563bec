/**
 * What a subscriber (and the shop for them) can change on a subscription: the action names and
 * their buttons, shared by /mon-abonnement, the back office, the API and the history.
 */

export const SUBSCRIPTION_ACTIONS = [
  "skip",
  "unskip",
  "pause",
  "resume",
  "change_pack",
  "change_frequency",
  "reactivate",
  "change_card",
] as const;
export type SubscriptionAction = (typeof SUBSCRIPTION_ACTIONS)[number];

/** The button of each action, word for word. */
export const SUBSCRIPTION_ACTION_BUTTONS: Record<SubscriptionAction, string> = {
  skip: "Sauter la prochaine livraison",
  unskip: "Annuler le saut de livraison",
  pause: "Mettre en pause",
  resume: "Reprendre maintenant",
  change_pack: "Changer de pack",
  change_frequency: "Changer de fréquence",
  reactivate: "Réactiver",
  change_card: "Changer de carte",
};

/** A pause lasts 1, 2 or 3 cycles. */
export const PAUSE_CYCLES = [1, 2, 3] as const;

/** The frequencies a subscriber can choose: every 4, 6 or 8 weeks. */
export const INTERVAL_WEEKS = [4, 6, 8] as const;

/** How many weeks between two renewals, unless the subscriber chose another frequency. */
export const DEFAULT_INTERVAL_WEEKS = 4;

export const WEEK_MS = 7 * 86_400_000;

/**
 * The first renewal that is charged again: the end of the current period, or with a pause
 * (Stripe's `resumes_at`), the first period end on or after it. ISO, or null without a period end.
 */
export function nextChargedRenewal(
  periodEnd: string | null,
  pauseResumesAt: string | null,
  intervalWeeks: number = DEFAULT_INTERVAL_WEEKS,
): string | null {
  if (!periodEnd) return null;
  const end = Date.parse(periodEnd);
  if (!pauseResumesAt) return periodEnd;
  const resumes = Date.parse(pauseResumesAt);
  if (!(resumes > end)) return periodEnd;
  const cycles = Math.ceil((resumes - end) / (intervalWeeks * WEEK_MS));
  return new Date(end + cycles * intervalWeeks * WEEK_MS).toISOString();
}
