import { formatPrice } from "./money";

/**
 * Promotion codes, the parts both sides use: how a code is written, what it takes off a total,
 * and the French reasons for a refusal. The rules that read the database are in
 * services/promotions/.
 */

/** Stripe's smallest charge in euros: a code never brings a total to pay below it (a free one-off order aside). */
export const MIN_CHARGE_CENTS = 50;

export type PromotionTerms = {
  kind: "percent" | "amount";
  /** 10 for 10 %, or cents. */
  value: number;
  appliesTo: "one_off" | "first_payment" | "every_payment";
};

/** Letters and digits, case ignored: the code as stored and compared. */
export function normalizePromotionCode(input: string): string {
  return input.trim().toUpperCase();
}

export const PROMOTION_CODE_PATTERN = /^[A-Z0-9]{3,32}$/;

/**
 * What the code takes off `totalCents` (including VAT), in cents. A 100 % code on a one-off
 * purchase makes the order free; otherwise what is left to pay is never below 0,50 €
 * (the discount is reduced), and a total already below it gets no discount.
 */
export function discountFor(terms: PromotionTerms, totalCents: number): number {
  if (totalCents <= 0) return 0;
  const raw = terms.kind === "percent" ? Math.round((totalCents * terms.value) / 100) : terms.value;
  if (terms.kind === "percent" && terms.value >= 100 && terms.appliesTo === "one_off") return totalCents;
  return Math.max(0, Math.min(raw, totalCents - MIN_CHARGE_CENTS));
}

/** « -10 % » or « -5,00€ ». */
export function promotionValueLabel(terms: Pick<PromotionTerms, "kind" | "value">): string {
  return terms.kind === "percent" ? `-${terms.value}\u202f%` : `-${formatPrice(terms.value)}`;
}

export const PROMOTION_TARGET_LABELS: Record<PromotionTerms["appliesTo"], string> = {
  one_off: "Achat unique",
  first_payment: "Premier paiement de l'abonnement",
  every_payment: "Chaque paiement de l'abonnement",
};

/** Where the code applies, as the cart says it under the discount line. */
export function promotionScopeNote(terms: Pick<PromotionTerms, "appliesTo"> & { cycles?: number | null }): string {
  if (terms.appliesTo === "one_off") return "Valable sur un achat unique.";
  if (terms.appliesTo === "first_payment") return "Valable sur le premier paiement de l'abonnement.";
  const cycles = terms.cycles ?? 1;
  return `Valable sur l'abonnement : le premier paiement et ${cycles === 1 ? "le renouvellement suivant" : `les ${cycles} renouvellements suivants`}.`;
}

/** The refusals, word for word. */
export const PROMOTION_REFUSALS = {
  unknown: "Ce code promo n'existe pas.",
  inactive: "Ce code n'est plus valable.",
  notStarted: "Ce code n'est pas encore valable.",
  expired: "Ce code a expiré",
  usedUp: "Ce code a atteint son nombre maximal d'utilisations.",
  usedByEmail: "Ce code a déjà été utilisé avec cette adresse email",
  firstOrderOnly: "Ce code est réservé à une première commande.",
  subscriptionOnly: "Ce code est réservé à l'abonnement : choisissez l'abonnement pour en profiter.",
  oneOffOnly: "Ce code ne s'applique qu'à un achat unique : retirez-le pour vous abonner.",
  invalidFormat: "Saisissez un code promo (lettres et chiffres).",
} as const;
