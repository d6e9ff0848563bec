import { z } from "zod";
import { parseIdOrNull } from "~/lib/ids";
import { safeText } from "./text";

const TRACKING_REQUIRED_MESSAGE = "Le numéro de commande est requis";

const TRACKING_EMAIL_MESSAGE = "Adresse email invalide";

/**
 * Tracking form (GET /track-order?id=...&email=...): the number is required (spec section 5);
 * the email is optional: the order's own email shows its full delivery details.
 */
export const trackingSchema = z.object({
  id: safeText({ error: TRACKING_REQUIRED_MESSAGE }).trim().min(1, TRACKING_REQUIRED_MESSAGE),
  email: safeText({ error: TRACKING_EMAIL_MESSAGE })
    .trim()
    .max(254, TRACKING_EMAIL_MESSAGE)
    .pipe(z.email(TRACKING_EMAIL_MESSAGE))
    .optional(),
});

/**
 * Reads an order number as people type it ('123456789', '#123 456 789', 'n° 123456789');
 * null when it cannot be an order number (so the lookup is skipped: 'Commande introuvable').
 */
export function parseOrderNumber(input: string | null | undefined): number | null {
  if (typeof input !== "string" || input.length > 40) return null;
  const digits = input
    .trim()
    .replace(/^(n°|no|#)\s*/i, "")
    .replace(/[\s#]/g, "");
  return parseIdOrNull(digits);
}
