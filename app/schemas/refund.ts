import { z } from "zod";
import { parsePriceToCents } from "~/lib/money";
import { safeText } from "./text";

/**
 * A refund of an order: the back office's « Rembourser » form (/admin/orders/{id}) and
 * POST /api/admin/orders/{id}/refunds, one schema for both. The amount is in euros, like every
 * amount of the forms and the API ("12,50" or "12.50"); empty or absent: all that remains.
 */

export const REFUND_REASON_MAX = 200;
const AMOUNT_MESSAGE = "Montant invalide : indiquez un montant en euros, par exemple 12,50.";
const REASON_MESSAGE = "Indiquez le motif du remboursement.";
const KEY_MESSAGE = "Clé de la demande invalide : rechargez la page.";

const amountField = z
  .union([z.string(), z.number()], { error: AMOUNT_MESSAGE })
  .optional()
  .nullable()
  .transform((value, ctx) => {
    if (value === undefined || value === null || (typeof value === "string" && value.trim() === "")) return null;
    const cents = parsePriceToCents(value);
    if (cents === null) {
      ctx.addIssue({ code: "custom", message: AMOUNT_MESSAGE });
      return z.NEVER;
    }
    if (cents <= 0) {
      ctx.addIssue({ code: "custom", message: "Le montant à rembourser doit être supérieur à 0,00€." });
      return z.NEVER;
    }
    return cents;
  });

export const refundSchema = z.object({
  /** In euros; null: all that remains to refund. */
  amount: amountField,
  reason: safeText({ error: REASON_MESSAGE })
    .trim()
    .min(1, REASON_MESSAGE)
    .max(REFUND_REASON_MAX, `Le motif ne doit pas dépasser ${REFUND_REASON_MAX} caractères.`),
  /** One per form shown (or API request): a double submit or a replay refunds once. */
  idempotencyKey: safeText({ error: KEY_MESSAGE })
    .trim()
    .regex(/^[A-Za-z0-9_-]{8,100}$/, KEY_MESSAGE)
    .optional(),
});

export type RefundInput = z.output<typeof refundSchema>;

/** The back office's « Rembourser » form: the same fields, its key always sent, and the refund confirmed. */
export const refundFormSchema = refundSchema.extend({
  idempotencyKey: safeText({ error: KEY_MESSAGE })
    .trim()
    .regex(/^[A-Za-z0-9_-]{8,100}$/, KEY_MESSAGE),
  confirm: z.literal("on", { error: "Cochez la case pour confirmer le remboursement." }),
});
