import { z } from "zod";
import { safeText } from "./text";

const EMAIL_INVALID_MESSAGE = "Adresse email invalide";

/**
 * « Recevoir un nouveau lien » (/mon-abonnement without a valid link): the email address of the
 * subscription. A fresh management link goes to each ongoing subscription of that address.
 */
export const subscriptionLinkRequestSchema = z.object({
  email: safeText({ error: EMAIL_INVALID_MESSAGE }).trim().max(254, EMAIL_INVALID_MESSAGE).pipe(z.email(EMAIL_INVALID_MESSAGE)),
});

export type SubscriptionLinkRequestInput = z.infer<typeof subscriptionLinkRequestSchema>;
