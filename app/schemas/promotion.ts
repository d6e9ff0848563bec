import { z } from "zod";
import { normalizePromotionCode, PROMOTION_CODE_PATTERN, PROMOTION_REFUSALS } from "~/lib/promotions";
import { safeText } from "./text";

/**
 * Promotion codes: the code field (cart form, POST /api/orders) and the promotion itself
 * (the admin's form at /admin/promotions and /api/admin/promotions share this schema).
 */

export const promotionCodeField = safeText({ error: PROMOTION_REFUSALS.invalidFormat })
  .transform(normalizePromotionCode)
  .pipe(z.string().regex(PROMOTION_CODE_PATTERN, PROMOTION_REFUSALS.invalidFormat));

/** The cart's « Code promo » form: a code to apply, or `remove`. */
export const cartPromotionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("apply"), code: promotionCodeField }),
  z.object({ intent: z.literal("remove") }),
]);

const MESSAGES = {
  kind: "Choisissez un pourcentage ou un montant.",
  percent: "Un pourcentage est un entier de 1 à 100.",
  amount: 'Un montant en euros est attendu, par exemple "5.00".',
  appliesTo: "Choisissez à quoi le code s'applique.",
  cycles: "Indiquez le nombre de renouvellements (1 à 24).",
  date: "Date invalide (AAAA-MM-JJ).",
  window: "La fin de validité doit suivre son début.",
  maxUses: "Le nombre d'utilisations est un entier positif.",
};

/** The start (or, for an end, the end) of a day in Paris, from the form's AAAA-MM-JJ. */
function parisDay(text: string, end: boolean): Date {
  const noon = new Date(`${text}T12:00:00Z`);
  const paris = new Date(noon.toLocaleString("en-US", { timeZone: "Europe/Paris" }));
  const offsetMs = paris.getTime() - noon.getTime();
  const midnightUtc = Date.parse(`${text}T00:00:00Z`) + (end ? 86_400_000 : 0);
  return new Date(midnightUtc - offsetMs);
}

/**
 * A date from the form (AAAA-MM-JJ, a day in Paris: its start for `startsAt`, its end for
 * `endsAt`) or an ISO instant from the API.
 */
function instant(end: boolean) {
  return z
    .union([safeText(), z.null()])
    .transform((value, ctx) => {
      if (value === null || value.trim() === "") return null;
      const text = value.trim();
      const date = /^\d{4}-\d{2}-\d{2}$/.test(text) ? parisDay(text, end) : new Date(text);
      if (Number.isNaN(date.getTime())) {
        ctx.addIssue({ code: "custom", message: MESSAGES.date });
        return z.NEVER;
      }
      return date.toISOString();
    })
    .meta({
      description: end
        ? "Fin de validité : instant ISO 8601, ou AAAA-MM-JJ (valable jusqu'à la fin de ce jour, heure de Paris) ; null pour aucune"
        : "Début de validité : instant ISO 8601, ou AAAA-MM-JJ (dès le début de ce jour, heure de Paris) ; null pour aucun",
    });
}

/** A checkbox (form: "on") or a JSON boolean. */
const flag = z
  .union([z.boolean(), z.literal("on"), z.literal("true"), z.literal("false")])
  .transform((v) => v === true || v === "on" || v === "true");

const countField = z
  .union([
    z.number(),
    safeText()
      .trim()
      .regex(/^\d{0,6}$/, MESSAGES.maxUses),
    z.null(),
  ])
  .transform((v) => (v === null || v === "" ? null : Number(v)))
  .pipe(z.number().int(MESSAGES.maxUses).min(1, MESSAGES.maxUses).nullable());

const promotionFields = z.object({
  code: promotionCodeField,
  kind: z.enum(["percent", "amount"], { error: MESSAGES.kind }),
  /** 10 (for 10 %) or "5.00" (euros). */
  value: z.union([z.number(), safeText().trim()], { error: MESSAGES.amount }),
  appliesTo: z.enum(["one_off", "first_payment", "every_payment"], { error: MESSAGES.appliesTo }),
  cycles: countField.optional(),
  startsAt: instant(false).optional(),
  endsAt: instant(true).optional(),
  maxUses: countField.optional(),
  oncePerEmail: flag.optional(),
  firstOrderOnly: flag.optional(),
  active: flag.optional(),
});

function centsOf(value: number | string): number | null {
  const text = typeof value === "number" ? value.toFixed(2) : value.replace(",", ".");
  if (!/^\d{1,6}(\.\d{1,2})?$/.test(text)) return null;
  return Math.round(Number(text) * 100);
}

/** The promotion's values, checked together (value by kind, cycles for every_payment, dates in order). */
function refine<T extends z.infer<typeof promotionFields>>(v: T, ctx: z.RefinementCtx) {
  let value: number | null = null;
  if (v.kind === "percent") {
    const n = typeof v.value === "number" ? v.value : Number(v.value);
    if (Number.isInteger(n) && n >= 1 && n <= 100) value = n;
    else ctx.addIssue({ code: "custom", path: ["value"], message: MESSAGES.percent });
  } else {
    value = centsOf(v.value);
    if (value === null || value < 1) ctx.addIssue({ code: "custom", path: ["value"], message: MESSAGES.amount });
  }
  if (v.appliesTo === "every_payment" && (!v.cycles || v.cycles > 24))
    ctx.addIssue({ code: "custom", path: ["cycles"], message: MESSAGES.cycles });
  if (v.startsAt && v.endsAt && v.endsAt <= v.startsAt)
    ctx.addIssue({ code: "custom", path: ["endsAt"], message: MESSAGES.window });
  return value;
}

export type PromotionValues = {
  code: string;
  kind: "percent" | "amount";
  value: number;
  appliesTo: "one_off" | "first_payment" | "every_payment";
  cycles: number | null;
  startsAt: string | null;
  endsAt: string | null;
  maxUses: number | null;
  oncePerEmail: boolean;
  firstOrderOnly: boolean;
  active: boolean;
};

/** A new promotion (the admin's form, POST /api/admin/promotions). */
export const promotionSchema = promotionFields.transform((v, ctx): PromotionValues => {
  const value = refine(v, ctx) ?? 0;
  return {
    code: v.code,
    kind: v.kind,
    value,
    appliesTo: v.appliesTo,
    cycles: v.appliesTo === "every_payment" ? (v.cycles ?? null) : null,
    startsAt: v.startsAt ?? null,
    endsAt: v.endsAt ?? null,
    maxUses: v.maxUses ?? null,
    oncePerEmail: v.oncePerEmail ?? false,
    firstOrderOnly: v.firstOrderOnly ?? false,
    active: v.active ?? true,
  };
});

/** PATCH /api/admin/promotions/{id}: any of the fields; the result is checked as a whole by the service. */
export const promotionPatchSchema = promotionFields.partial().refine((v) => Object.values(v).some((x) => x !== undefined), {
  message: "Indiquez au moins un champ à modifier.",
});
export type PromotionPatch = z.infer<typeof promotionPatchSchema>;
