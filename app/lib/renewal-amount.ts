import { formatPrice } from "./money";

/**
 * What the next renewal of a subscription really charges: its recurring amount, less the
 * promotion code's discount while its cycles last (services/promotions/renewal-amount.server.ts
 * computes it). Client-safe: the pages and the emails print it with renewalChargeText.
 */
export type RenewalCharge = {
  /** What the next renewal charges (cents). */
  amountCents: number;
  /** The recurring amount, once the discount is over (cents). */
  fullAmountCents: number;
  /** The code still discounting renewals, or null. */
  code: string | null;
  /** How many renewals it still discounts (the next one included); 0 without a code. */
  remaining: number;
};

export function fullCharge(amountCents: number): RenewalCharge {
  return { amountCents, fullAmountCents: amountCents, code: null, remaining: 0 };
}

/** « 20,90€ (code CINQ, encore 1 renouvellement), puis 25,90€ », or « 25,90€ » without a discount. */
export function renewalChargeText(charge: RenewalCharge): string {
  if (!charge.code || charge.remaining <= 0 || charge.amountCents >= charge.fullAmountCents) {
    return formatPrice(charge.fullAmountCents);
  }
  const renewals = charge.remaining === 1 ? "1 renouvellement" : `${charge.remaining} renouvellements`;
  return `${formatPrice(charge.amountCents)} (code ${charge.code}, encore ${renewals}), puis ${formatPrice(charge.fullAmountCents)}`;
}
