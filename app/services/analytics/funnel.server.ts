import { and, gte, isNull, lte, sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { cartStarts, orders } from "~/db/schema";
import type { Span } from "./period.server";
import { bySpan, countOf, inSpan, SPAN_INDEX, spansTable } from "./sql.server";

/**
 * The purchase funnel, from what the shop records anyway, with no cookie or tracker: the carts
 * started each day (cart_starts, a count that names no one), then the checkouts made in the
 * period (orders created by the delivery form or the API; renewals are not checkouts), those
 * whose payment was started, and those paid.
 */

export const FUNNEL_STEPS = [
  { key: "carts", label: "Paniers créés" },
  { key: "checkouts", label: "Formulaire de livraison envoyé" },
  { key: "paymentStarted", label: "Paiement commencé" },
  { key: "paid", label: "Commande payée" },
] as const;

export type FunnelKey = (typeof FUNNEL_STEPS)[number]["key"];
export type FunnelFigures = Record<FunnelKey, number>;

export const FUNNEL_METHOD =
  "Étapes comptées par la boutique elle-même, sans cookie ni traceur : paniers créés chaque jour, puis commandes créées pendant la période (hors renouvellements), celles dont le paiement a commencé et celles payées.";

export async function funnelBySpan(spans: Span[]): Promise<FunnelFigures[]> {
  const db = getDb();
  const started = sql`(${orders.stripePaymentIntentId} is not null or ${orders.stripeSubscriptionId} is not null or ${orders.paidAt} is not null)`;
  const rows = await db
    .select({
      i: SPAN_INDEX,
      checkouts: countOf(sql`${orders.id}`),
      paymentStarted: countOf(sql`case when ${started} then 1 end`),
      paid: countOf(sql`${orders.paidAt}`),
    })
    .from(spansTable(spans))
    .leftJoin(orders, and(inSpan(orders.createdAt, spans), isNull(orders.renewalNumber)))
    .groupBy(SPAN_INDEX);
  const checkouts = bySpan(rows, spans.length, { checkouts: 0, paymentStarted: 0, paid: 0 });
  const carts: number[] = [];
  for (const s of spans) {
    const [row] = await db
      .select({ n: sql<number>`coalesce(sum(${cartStarts.count}), 0)`.mapWith(Number) })
      .from(cartStarts)
      .where(and(gte(cartStarts.day, s.from), lte(cartStarts.day, s.to)));
    carts.push(row?.n ?? 0);
  }
  return spans.map((_, i) => ({ carts: carts[i], ...checkouts[i] }));
}
