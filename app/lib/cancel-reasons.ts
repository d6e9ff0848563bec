/**
 * The reasons a subscriber may give when cancelling (the cancellation form, services/analytics).
 * Giving one is never required: the law forbids making cancellation harder.
 */
export const CANCEL_REASONS = ["trop_de_masques", "prix", "resultats", "autre"] as const;
export type CancelReason = (typeof CANCEL_REASONS)[number];

export const CANCEL_REASON_LABELS: Record<CancelReason, string> = {
  trop_de_masques: "Trop de masques",
  prix: "Prix",
  resultats: "Résultats",
  autre: "Autre",
};

/** The reason a form or the API sent, or null for none (an unknown value counts as none). */
export function readCancelReason(value: unknown): CancelReason | null {
  return typeof value === "string" && (CANCEL_REASONS as readonly string[]).includes(value) ? (value as CancelReason) : null;
}
