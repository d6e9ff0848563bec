import { z } from "zod";
import { CANCEL_REASONS } from "~/lib/cancel-reasons";

/** GET /api/admin/analytics: the figures of /admin/analytique (services/analytics/api-view.server.ts). */

const money = z
  .string()
  .regex(/^-?\d+\.\d{2}$/)
  .meta({ description: "Montant en euros, chaîne décimale à deux décimales", examples: ["25.90"] });
const day = z.iso.date().meta({ description: "Jour (heure de Paris)", examples: ["2026-11-27"] });
const change = z.number().nullable().describe("Évolution en % par rapport à la période précédente (null : rien à comparer)");

const comparedAmount = z.strictObject({ current: money.nullable(), previous: money.nullable(), change });
const comparedNumber = z.strictObject({ current: z.number().nullable(), previous: z.number().nullable(), change });

export const analyticsResponseSchema = z
  .strictObject({
    period: z.strictObject({
      from: day,
      to: day,
      days: z.number().int().positive(),
      granularity: z.enum(["day", "week"]).describe("Séries par jour (jusqu'à 92 jours) ou par semaine"),
      previous: z.strictObject({ from: day, to: day }),
    }),
    revenue: z.strictObject({
      netIncluding: comparedAmount.describe("Chiffre d'affaires net TTC : factures moins avoirs"),
      netExcluding: comparedAmount.describe("Chiffre d'affaires net HT"),
      refundedIncluding: comparedAmount.describe("Remboursé TTC (avoirs)"),
      orders: comparedNumber.describe("Commandes payées (factures)"),
      averageOrder: comparedAmount.describe("Panier moyen TTC, avant remboursements"),
      oneOffNet: comparedAmount.describe("Achats uniques, net TTC"),
      subscriptionNet: comparedAmount.describe("Abonnements (premiers paiements et renouvellements), net TTC"),
    }),
    revenueSeries: z.array(
      z.strictObject({ from: day, to: day, netIncluding: money, netExcluding: money, orders: z.number().int() }),
    ),
    packs: z.array(z.strictObject({ label: z.string(), quantity: z.number().int(), amount: money })),
    subscriptions: z.strictObject({
      active: comparedNumber.describe("Abonnements en cours à la fin de la période"),
      mrr: comparedAmount.describe("Revenu mensuel récurrent : montants par cycle de 4 semaines × 13 / 12"),
      started: comparedNumber,
      ended: comparedNumber,
      churnPercent: comparedNumber.describe("Désabonnement mensuel, en %"),
      renewalSuccessPercent: comparedNumber.describe("Renouvellements payés du premier coup, en %"),
      renewalsFailed: comparedNumber,
      renewalsRecovered: comparedNumber,
    }),
    subscriberSeries: z.array(z.strictObject({ from: day, to: day, active: z.number().int(), mrr: money })),
    cancelReasons: z.array(
      z.strictObject({ reason: z.enum([...CANCEL_REASONS, "none"]), label: z.string(), count: z.number().int() }),
    ),
    funnel: z.array(
      z.strictObject({
        key: z.enum(["carts", "checkouts", "paymentStarted", "paid"]),
        label: z.string(),
        current: z.number().int(),
        previous: z.number().int(),
        fromPrevious: z.number().nullable().describe("% de l'étape précédente"),
      }),
    ),
    methods: z.strictObject({ mrr: z.string(), churn: z.string(), renewals: z.string(), funnel: z.string() }),
  })
  .describe("Les chiffres de /admin/analytique pour une période, comparés à la période précédente de même durée");
