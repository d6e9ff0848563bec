/**
 * Client-safe French messages of the payment step (spec section 8, 'Payment').
 * Shared by the browser (toasts, inline alert) and the server (API error bodies).
 */

export type PaymentNotice = { title: string; description: string };

export const PAYMENT_MESSAGES = {
  missingClientSecret: {
    title: "Erreur de configuration",
    description: "Impossible de traiter le paiement. Veuillez rafraîchir la page.",
  },
  cardElementMissing: { title: "Erreur de paiement", description: "Élément de carte non trouvé" },
  cardErrorFallback: "Veuillez vérifier vos informations de carte.",
  general: { title: "Erreur de paiement", description: "Une erreur est survenue lors du paiement. Veuillez réessayer." },
  missingFields: { title: "Informations manquantes", description: "Veuillez remplir tous les champs obligatoires" },
  incompleteCard: { title: "Informations de carte incomplètes", description: "Veuillez remplir tous les champs de la carte" },
  subscriptionExists: { title: "Abonnement existant", description: "Vous avez déjà un abonnement actif." },
  concurrentAttempt: {
    title: "Erreur de traitement",
    description: "Une commande similaire est déjà en cours de traitement. Veuillez patienter.",
  },
  subscriptionFailed: "Une erreur est survenue lors du traitement de votre commande.",
  clientSecretNotReceived: "Client secret non reçu",
  pendingAttempt: {
    title: "Traitement en cours",
    description: "Une tentative de paiement est déjà en cours. Veuillez patienter.",
  },
  resuming: "Reprise du paiement en cours",
  consentRequired: "Veuillez accepter les conditions de l'abonnement pour continuer.",
  paid: { title: "Paiement réussi", description: "Merci ! Votre commande est confirmée." },
  authenticationFailed: {
    title: "Authentification refusée",
    description: "L'authentification de votre carte a échoué. Réessayez ou utilisez une autre carte.",
  },
  notConfirmed: {
    title: "Paiement en cours de vérification",
    description: "Votre paiement n'a pas encore été confirmé. Veuillez patienter quelques instants puis réessayer.",
  },
} as const;

/** Stripe.js error as returned by createPaymentMethod / confirmCardPayment. */
export type ProviderError = { type?: string; code?: string; decline_code?: string; message?: string };

/** createPaymentMethod failed: 'Erreur de carte' with the provider's message. */
export function cardErrorNotice(error: ProviderError | undefined): PaymentNotice {
  return { title: "Erreur de carte", description: error?.message || PAYMENT_MESSAGES.cardErrorFallback };
}

/** The failure is about the card (declined, invalid, its authentication refused): another card may pay. */
export function isCardProblem(error: ProviderError | undefined): boolean {
  return (
    error?.type === "card_error" ||
    error?.type === "validation_error" ||
    error?.code === "payment_intent_authentication_failure" ||
    error?.code === "authentication_required"
  );
}

/** confirmCardPayment failed: the notice for its error code. */
export function confirmationErrorNotice(error: ProviderError | undefined): PaymentNotice {
  switch (error?.code) {
    case "incorrect_zip":
      return {
        title: "Code postal incorrect",
        description: "Le code postal ne correspond pas à l'adresse de facturation de votre carte.",
      };
    case "incorrect_cvc":
      return { title: "Code CVC incorrect", description: "Le code de sécurité (CVC) de votre carte est incorrect." };
    case "payment_intent_authentication_failure":
    case "setup_intent_authentication_failure":
    case "authentication_required":
      // The bank's 3-D Secure challenge was refused or could not be completed.
      return PAYMENT_MESSAGES.authenticationFailed;
    case "card_declined":
      return {
        title: "Carte refusée",
        description: "Votre carte a été refusée. Vérifiez vos informations ou essayez une autre carte.",
      };
  }
  if (error?.type === "card_error" || error?.type === "validation_error") {
    return cardErrorNotice(error);
  }
  return { title: "Erreur de paiement", description: error?.message || PAYMENT_MESSAGES.general.description };
}
