import { z } from "zod";

/**
 * POST /api/admin/cart-reminders/run (demo mode): the moment the abandoned-checkout reminders are
 * worked out for, so a demonstration (or a test) sees the 4 hours pass without waiting.
 */
export const cartRemindersRunSchema = z.strictObject({
  at: z.iso
    .datetime({ offset: true, error: "at doit être une date et heure ISO 8601, par exemple 2026-11-27T18:00:00Z." })
    .optional()
    .meta({
      description: "Le moment pour lequel les rappels sont calculés (ISO 8601) ; maintenant s'il est absent",
      examples: ["2026-11-27T18:00:00Z"],
    }),
});
