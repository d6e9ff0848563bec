import { z } from "zod";
import { parsePriceToCents } from "~/lib/money";
import { isDay } from "~/lib/paris-days";
import { SUBSCRIPTION_STATUSES } from "~/lib/subscription-status";
import { safeText } from "./text";

/**
 * Filters of the admin subscription list (/admin/subscriptions) and of
 * GET /api/admin/subscriptions (query string), one schema for both. The API refuses a value it
 * cannot read (400 with the French detail per field); the page says which filter it ignored.
 */

const DAY_MESSAGE = "Date attendue au format AAAA-MM-JJ (ex. 2026-03-05).";
const AMOUNT_MESSAGE = "Montant invalide : un nombre d'euros est attendu (ex. 25,90).";
const COUNT_MESSAGE = "Nombre de renouvellements invalide : un entier positif ou nul est attendu.";

/** A calendar day, AAAA-MM-JJ (what an <input type="date"> sends); one message whatever is wrong. */
const dayField = z.string().refine(isDay, DAY_MESSAGE);

const amountField = z.string().transform((value, ctx) => {
  const cents = parsePriceToCents(value);
  if (cents === null) {
    ctx.addIssue({ code: "custom", message: AMOUNT_MESSAGE });
    return z.NEVER;
  }
  return cents;
});

const countField = z
  .string()
  .regex(/^\d{1,6}$/, COUNT_MESSAGE)
  .transform(Number);

export const subscriptionFiltersSchema = z
  .object({
    status: z.enum(SUBSCRIPTION_STATUSES, { error: "Statut inconnu : incomplete, active, past_due ou canceled." }).optional(),
    q: safeText().trim().max(100, "Recherche trop longue (100 caractères au plus).").optional(),
    pack: z
      .string()
      .regex(/^[1-9]\d{0,8}$/, "Pack inconnu : indiquez l'identifiant d'un pack (un nombre entier).")
      .transform(Number)
      .optional(),
    minAmount: amountField.optional(),
    maxAmount: amountField.optional(),
    startedFrom: dayField.optional(),
    startedTo: dayField.optional(),
    renewsFrom: dayField.optional(),
    renewsTo: dayField.optional(),
    minRenewals: countField.optional(),
    maxRenewals: countField.optional(),
    page: z
      .string()
      .regex(/^[1-9]\d{0,5}$/, "Numéro de page invalide : un entier à partir de 1 est attendu.")
      .transform(Number)
      .optional(),
  })
  .superRefine((f, ctx) => {
    const pairs = [
      ["minAmount", "maxAmount", "Le montant minimum dépasse le montant maximum."],
      ["startedFrom", "startedTo", "La date de début de la période de souscription est après sa date de fin."],
      ["renewsFrom", "renewsTo", "La date de début de la période de renouvellement est après sa date de fin."],
      ["minRenewals", "maxRenewals", "Le nombre minimum de renouvellements dépasse le maximum."],
    ] as const;
    for (const [min, max, message] of pairs) {
      const a = f[min];
      const b = f[max];
      if (a !== undefined && b !== undefined && a > b) ctx.addIssue({ code: "custom", path: [max], message });
    }
  });

export type SubscriptionFilters = z.output<typeof subscriptionFiltersSchema>;

export const SUBSCRIPTION_FILTER_NAMES = [
  "status",
  "q",
  "pack",
  "minAmount",
  "maxAmount",
  "startedFrom",
  "startedTo",
  "renewsFrom",
  "renewsTo",
  "minRenewals",
  "maxRenewals",
  "page",
] as const;

type FilterIssue = { path: string; message: string };

/**
 * The filters of the query string: those that can be read, and a French message for each one
 * that cannot (an empty value is no filter). Unknown parameters are ignored.
 */
export function readSubscriptionFilters(
  url: URL,
  packIds?: readonly number[],
): { filters: SubscriptionFilters; issues: FilterIssue[] } {
  const raw: Record<string, string> = {};
  for (const name of SUBSCRIPTION_FILTER_NAMES) {
    const value = url.searchParams.get(name)?.trim();
    if (value) raw[name] = value;
  }
  const parsed = subscriptionFiltersSchema.safeParse(raw);
  // The packs are data: `packIds`, when given, are the ones that exist.
  const unknownPack = (pack: number | undefined) => pack !== undefined && packIds !== undefined && !packIds.includes(pack);
  const packIssue = { path: "pack", message: `Pack inconnu : ${packIds?.join(", ") || "aucun pack"}.` };
  if (parsed.success && !unknownPack(parsed.data.pack)) return { filters: parsed.data, issues: [] };
  const issues = parsed.success
    ? [packIssue]
    : parsed.error.issues.map((i) => ({ path: i.path.map(String).join("."), message: i.message }));
  if (!parsed.success && unknownPack(subscriptionFiltersSchema.shape.pack.safeParse(raw.pack).data)) issues.push(packIssue);
  // The page keeps the filters it can read.
  for (const issue of issues) delete raw[issue.path];
  const rest = subscriptionFiltersSchema.safeParse(raw);
  return { filters: rest.success ? rest.data : {}, issues };
}

/** POST /api/admin/subscriptions/{id}/cancel and the detail page's two cancel buttons. */
export const adminSubscriptionCancelSchema = z.strictObject({
  when: z.enum(["now", "period_end"], {
    error: 'Indiquez quand résilier : "now" (tout de suite) ou "period_end" (à la fin de la période payée).',
  }),
});

export type AdminSubscriptionCancel = z.infer<typeof adminSubscriptionCancelSchema>;
