/**
 * A saved card as the shop shows it (« Visa •••• 3155 »), and a bank's refusal in French: shared
 * by the subscription's page, its emails and the back office.
 */

const BRANDS: Record<string, string> = {
  visa: "Visa",
  mastercard: "Mastercard",
  amex: "American Express",
  discover: "Discover",
  diners: "Diners Club",
  jcb: "JCB",
  unionpay: "UnionPay",
  cartes_bancaires: "Carte Bancaire",
};

export function cardLabel(brand: string | null | undefined, last4: string | null | undefined): string {
  const name = (brand && BRANDS[brand]) || "Carte";
  return last4 ? `${name} •••• ${last4}` : name;
}

/** Why the bank refused a payment, in French, from Stripe's `decline_code` or `code` (its messages are in English). */
export function bankRefusalReason(error: { code?: string | null; decline_code?: string | null } | null | undefined): string {
  switch (error?.decline_code ?? error?.code) {
    case "insufficient_funds":
      return "fonds insuffisants";
    case "expired_card":
      return "carte expirée";
    case "lost_card":
    case "stolen_card":
      return "carte déclarée perdue ou volée";
    case "incorrect_cvc":
      return "code de sécurité incorrect";
    case "processing_error":
      return "erreur de traitement chez la banque";
    case "authentication_required":
      return "votre banque demande une authentification";
    default:
      return "paiement refusé par la banque";
  }
}

/** « Changer de carte » without JavaScript: the card is typed into the payment provider's field, which needs it. */
export const CARD_FORM_NEEDS_JAVASCRIPT =
  "La saisie d'une nouvelle carte se fait dans le formulaire sécurisé de notre prestataire de paiement, qui nécessite JavaScript : activez-le dans votre navigateur puis rechargez cette page. Vous pouvez aussi nous contacter pour changer de carte.";
