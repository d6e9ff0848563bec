import { z } from "zod";
import { safeText } from "./text";

const AT_MESSAGE = "at doit être une date et heure ISO 8601, par exemple 2026-11-27T18:00:00Z.";

/**
 * POST /api/admin/cart-reminders/run (demo mode): the moment the abandoned-checkout reminders are
 * worked out for, so a demonstration (or a test) sees the 4 hours pass without waiting.
 */
export const cartRemindersRunSchema = z.strictObject({
  at: safeText({ error: AT_MESSAGE })
    .max(40, AT_MESSAGE)
    .pipe(z.iso.datetime({ offset: true, error: AT_MESSAGE }))
    .optional()
    .meta({
      description: "Le moment pour lequel les rappels sont calculés (ISO 8601) ; maintenant s'il est absent",
      examples: ["2026-11-27T18:00:00Z"],
    }),
});
