import { z } from "zod";
import { CANCEL_REASONS } from "~/lib/cancel-reasons";
import { safeText } from "./text";

const SUBSCRIPTION_ORDER_REQUIRED_MESSAGE = "Le numéro de commande est requis";
const SUBSCRIPTION_EMAIL_INVALID_MESSAGE = "Adresse email invalide";

/**
 * Online cancellation of a subscription (/abonnement/resilier): the order number as people
 * type it ('123456789', '#123 456 789', read by parseOrderNumber) and the checkout email.
 */
export const subscriptionCancelSchema = z.object({
  orderId: safeText({ error: SUBSCRIPTION_ORDER_REQUIRED_MESSAGE })
    .trim()
    .min(1, SUBSCRIPTION_ORDER_REQUIRED_MESSAGE)
    .max(40, "Numéro de commande invalide"),
  email: safeText({ error: SUBSCRIPTION_EMAIL_INVALID_MESSAGE })
    .trim()
    .max(254, SUBSCRIPTION_EMAIL_INVALID_MESSAGE)
    .pipe(z.email(SUBSCRIPTION_EMAIL_INVALID_MESSAGE)),
  reason: cancelReasonField(),
});

/**
 * Why the subscriber cancels: optional, never required (« Je préfère ne pas répondre » sends
 * nothing); the same field on every cancellation form.
 */
export function cancelReasonField() {
  return z.preprocess(
    (value) => (value === "" || value === null ? undefined : value),
    z.enum(CANCEL_REASONS, "Motif de résiliation inconnu").optional(),
  );
}
