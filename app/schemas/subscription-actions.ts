import { z } from "zod";
import { INTERVAL_WEEKS, PAUSE_CYCLES } from "~/lib/subscription-actions";
import { safeText } from "./text";

/**
 * The changes a subscriber makes on /mon-abonnement, and the shop on /admin/subscriptions/{id}
 * and POST /api/admin/subscriptions/{id}/…: one schema per change, used by the forms and the
 * API alike. The shop's own changes need a reason, written in the subscription's history.
 */

const CYCLES_MESSAGE = "Choisissez une pause de 1, 2 ou 3 cycles.";
const PACK_MESSAGE = "Choisissez un pack.";
export const REASON_MESSAGE = "Indiquez la raison de ce changement (elle est écrite dans l'historique).";

export const pauseSchema = z.object({
  cycles: z.coerce
    .number({ error: CYCLES_MESSAGE })
    .int(CYCLES_MESSAGE)
    .refine((n) => (PAUSE_CYCLES as readonly number[]).includes(n), CYCLES_MESSAGE),
});
export type PauseInput = z.infer<typeof pauseSchema>;

export const changePackSchema = z.object({
  packId: z.coerce.number({ error: PACK_MESSAGE }).int(PACK_MESSAGE).positive(PACK_MESSAGE),
});
export type ChangePackInput = z.infer<typeof changePackSchema>;

const FREQUENCY_MESSAGE = "Choisissez une fréquence de 4, 6 ou 8 semaines.";

export const changeFrequencySchema = z.object({
  intervalWeeks: z.coerce
    .number({ error: FREQUENCY_MESSAGE })
    .int(FREQUENCY_MESSAGE)
    .refine((n) => (INTERVAL_WEEKS as readonly number[]).includes(n), FREQUENCY_MESSAGE),
});
export type ChangeFrequencyInput = z.infer<typeof changeFrequencySchema>;

/** The reason the back office and the API give for a change they make for the subscriber. */
export const adminReasonSchema = z.object({
  reason: safeText({ error: REASON_MESSAGE }).trim().min(3, REASON_MESSAGE).max(500, "500 caractères au plus."),
});

export const adminPauseSchema = pauseSchema.extend(adminReasonSchema.shape);
export const adminChangePackSchema = changePackSchema.extend(adminReasonSchema.shape);
export const adminChangeFrequencySchema = changeFrequencySchema.extend(adminReasonSchema.shape);

/** The body of each API operation: the reason, and the form's own fields. */
export const ADMIN_CHANGE_SCHEMAS = {
  skip: adminReasonSchema,
  unskip: adminReasonSchema,
  pause: adminPauseSchema,
  resume: adminReasonSchema,
  change_pack: adminChangePackSchema,
  change_frequency: adminChangeFrequencySchema,
  reactivate: adminReasonSchema,
} as const;
