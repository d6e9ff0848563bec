import { z } from "zod";
import { parseOrderNumber } from "./tracking";
import { safeText } from "./text";

export const WITHDRAWAL_ORDER_REQUIRED_MESSAGE = "Le numéro de commande est requis";
export const WITHDRAWAL_ORDER_SHAPE_MESSAGE =
  "Le numéro de commande comporte 9 chiffres : il figure dans l'email de confirmation de votre commande.";
export const WITHDRAWAL_EMAIL_REQUIRED_MESSAGE = "L'adresse email est requise";
export const WITHDRAWAL_EMAIL_INVALID_MESSAGE = "Adresse email invalide";
/** The one answer to every confirmed request, whether it matched an order or not (no order can be found out with the form). */
export const WITHDRAWAL_NEUTRAL_MESSAGE =
  "Si une commande correspond à ces informations, votre demande de rétractation est enregistrée et un accusé de réception vous est envoyé par e-mail dans les minutes qui suivent.";
/**
 * What to do when no acknowledgement arrives (a typo in the number or the email matches nothing,
 * and the neutral answer cannot say so): the same for every request, page and API.
 */
export const WITHDRAWAL_NO_ACK_MESSAGE =
  "Pas d'accusé de réception d'ici quelques minutes ? Vérifiez vos courriers indésirables, puis le numéro de commande et l'adresse e-mail saisis : ce sont ceux de votre e-mail de confirmation de commande. Sinon, écrivez-nous depuis la page Contact en indiquant votre numéro de commande : votre rétractation compte à la date de votre message.";
export const WITHDRAWAL_REASON_MAX = 1000;
export const WITHDRAWAL_REASON_TOO_LONG_MESSAGE = `Le motif ne doit pas dépasser ${WITHDRAWAL_REASON_MAX} caractères.`;

/** A 9-digit order number as people type it ('123456789', '123 456 789', 'n° 123456789'). */
export function isOrderNumberShape(value: string): boolean {
  const id = parseOrderNumber(value);
  return id !== null && id >= 100_000_000 && id <= 999_999_999;
}

/**
 * The online withdrawal form (/retractation): the order number and the checkout email,
 * both required, and an optional reason. `intent` tells the steps apart: `review` shows
 * the request to confirm, `edit` goes back to the form with it, `confirm` records it.
 */
export const withdrawalSchema = z.object({
  intent: z.enum(["review", "edit", "confirm"]).default("review"),
  orderId: safeText({ error: WITHDRAWAL_ORDER_REQUIRED_MESSAGE })
    .trim()
    .min(1, WITHDRAWAL_ORDER_REQUIRED_MESSAGE)
    .max(40, WITHDRAWAL_ORDER_SHAPE_MESSAGE)
    .refine(isOrderNumberShape, WITHDRAWAL_ORDER_SHAPE_MESSAGE),
  email: safeText({ error: WITHDRAWAL_EMAIL_REQUIRED_MESSAGE })
    .trim()
    .min(1, WITHDRAWAL_EMAIL_REQUIRED_MESSAGE)
    .max(254, WITHDRAWAL_EMAIL_INVALID_MESSAGE)
    .pipe(z.email(WITHDRAWAL_EMAIL_INVALID_MESSAGE)),
  reason: safeText({ multiline: true }).trim().max(WITHDRAWAL_REASON_MAX, WITHDRAWAL_REASON_TOO_LONG_MESSAGE).optional(),
});

export type WithdrawalInput = z.infer<typeof withdrawalSchema>;

/** POST /api/withdrawals: the same fields, sent at once (an API client confirms by sending). */
export const withdrawalApiSchema = withdrawalSchema.omit({ intent: true });
