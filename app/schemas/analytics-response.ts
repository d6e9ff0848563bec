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
      paused: comparedNumber.describe("Abonnements mis en pause pendant la période"),
      pausedNow: comparedNumber.describe("Abonnements en pause aujourd'hui (pas de valeur précédente)"),
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
    reminders: z
      .strictObject({
        sent: comparedNumber.describe("Rappels de commande non finalisée envoyés"),
        recovered: comparedNumber.describe("Paniers récupérés : commandes rappelées payées après le rappel"),
        recoveredRevenue: comparedAmount.describe("Ce qu'elles ont payé, TTC"),
      })
      .describe("Rappels de commande non finalisée (envoyés seulement avec le consentement de l'acheteur)"),
    promotions: z
      .array(
        z.strictObject({
          code: z.string(),
          uses: z.number().int().describe("Commandes payées avec ce code pendant la période"),
          revenue: money.describe("Chiffre d'affaires TTC de ces commandes, remise déduite"),
          discount: money.describe("Remise accordée, TTC"),
        }),
      )
      .describe("Utilisations et chiffre d'affaires par code promo"),
    methods: z.strictObject({
      mrr: z.string(),
      churn: z.string(),
      renewals: z.string(),
      funnel: z.string(),
      reminders: z.string(),
      promotions: z.string(),
      pauses: z.string(),
    }),
  })
  .describe("Les chiffres de /admin/analytique pour une période, comparés à la période précédente de même durée");
