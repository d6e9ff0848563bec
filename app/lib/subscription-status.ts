/**
 * Where a subscription stands (its record, services/subscriptions): incomplete until the first
 * payment, active while renewals are paid, past_due after a failed renewal until it is paid,
 * canceled when it ended (online cancellation, the shop, or Stripe giving up).
 */
export const SUBSCRIPTION_STATUSES = ["incomplete", "active", "past_due", "canceled"] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export const SUBSCRIPTION_STATUS_LABELS: Record<SubscriptionStatus, string> = {
  incomplete: "En attente du premier paiement",
  active: "Actif",
  past_due: "Paiement en retard",
  canceled: "Résilié",
};

/** A subscription still active whose cancellation takes effect at the end of the period paid for. */
export const CANCEL_SCHEDULED_LABEL = "Résiliation prévue";
