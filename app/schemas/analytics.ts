import { z } from "zod";
import { daysBetween, isDay } from "~/lib/paris-days";

/**
 * The period of the analytics (/admin/analytique and GET /api/admin/analytics): whole days of
 * the Paris calendar, `from` and `to` included. The page offers presets; the API takes dates.
 */

export const ANALYTICS_PRESETS = ["7j", "30j", "90j", "12m"] as const;
export type AnalyticsPreset = (typeof ANALYTICS_PRESETS)[number];

export const ANALYTICS_PRESET_LABELS: Record<AnalyticsPreset | "dates", string> = {
  "7j": "7 jours",
  "30j": "30 jours",
  "90j": "90 jours",
  "12m": "12 mois",
  dates: "Dates choisies",
};

/** At most about three years at once: two years of data and their comparison fit. */
export const MAX_PERIOD_DAYS = 1100;

const emptyToUndefined = (value: unknown) => (value === "" || value === null ? undefined : value);

const day = (message: string) => z.preprocess(emptyToUndefined, z.string(message).trim().refine(isDay, message).optional());

const PERIOD_ORDER_MESSAGE = "La date de fin doit suivre la date de début";
const PERIOD_LENGTH_MESSAGE = "La période ne peut pas dépasser 3 ans";

/** `?from=2026-11-01&to=2026-11-30` (the API): both optional, the last 30 days by default. */
export const analyticsApiQuerySchema = z
  .object({
    from: day("Date de début invalide (format AAAA-MM-JJ)"),
    to: day("Date de fin invalide (format AAAA-MM-JJ)"),
  })
  .superRefine((value, ctx) => {
    if (!value.from || !value.to) return;
    if (value.to < value.from) ctx.addIssue({ code: "custom", path: ["to"], message: PERIOD_ORDER_MESSAGE });
    else if (daysBetween(value.from, value.to) > MAX_PERIOD_DAYS)
      ctx.addIssue({ code: "custom", path: ["to"], message: PERIOD_LENGTH_MESSAGE });
  });

/** The page's form (a GET form, so it works without JavaScript): a preset, or « Dates choisies » with two dates. */
export const analyticsPageQuerySchema = z
  .object({
    periode: z.preprocess(emptyToUndefined, z.enum([...ANALYTICS_PRESETS, "dates"], "Période inconnue").default("30j")),
    du: day("Date de début invalide"),
    au: day("Date de fin invalide"),
  })
  .superRefine((value, ctx) => {
    if (value.periode !== "dates") return;
    if (!value.du) ctx.addIssue({ code: "custom", path: ["du"], message: "Indiquez la date de début" });
    if (!value.au) ctx.addIssue({ code: "custom", path: ["au"], message: "Indiquez la date de fin" });
    if (!value.du || !value.au) return;
    if (value.au < value.du) ctx.addIssue({ code: "custom", path: ["au"], message: PERIOD_ORDER_MESSAGE });
    else if (daysBetween(value.du, value.au) > MAX_PERIOD_DAYS)
      ctx.addIssue({ code: "custom", path: ["au"], message: PERIOD_LENGTH_MESSAGE });
  });

export type AnalyticsPageQuery = z.infer<typeof analyticsPageQuerySchema>;
