import { z } from "zod";
import { parseIdOrNull } from "~/lib/ids";

const TRACKING_REQUIRED_MESSAGE = "Le numéro de commande est requis";

/** Tracking form (GET /track-order?id=...): spec section 5. */
export const trackingSchema = z.object({
  id: z.string({ error: TRACKING_REQUIRED_MESSAGE }).trim().min(1, TRACKING_REQUIRED_MESSAGE),
});

/**
 * Reads an order number as people type it ('123456789', '#123 456 789', 'n° 123456789');
 * null when it cannot be an order number (so the lookup is skipped: 'Commande introuvable').
 */
export function parseOrderNumber(input: string | null | undefined): number | null {
  if (typeof input !== "string" || input.length > 40) return null;
  const digits = input.trim().replace(/^(n°|no|#)\s*/i, "").replace(/[\s#]/g, "");
  return parseIdOrNull(digits);
}
