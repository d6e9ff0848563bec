import { and, eq, isNotNull, sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { orders, promotions } from "~/db/schema";
import type { Span } from "./period.server";
import { bySpan, countOf, inSpan, SPAN_INDEX, spansTable, total, unindexed } from "./sql.server";

/**
 * What brings sales back or in: the abandoned-checkout reminders (cart-reminders) and the
 * promotion codes, each by SQL aggregates over the orders' covering indexes.
 */

export const REMINDERS_METHOD =
  "Rappels envoyés pendant la période (seulement aux acheteurs qui l'ont demandé) ; paniers récupérés : commandes rappelées puis payées après le rappel, comptées à leur date de paiement, avec leur montant TTC.";

export type ReminderFigures = { sent: number; recovered: number; recoveredCents: number };

/** Reminders sent in each span, and the reminded orders paid after their reminder in each span, with what they brought (TTC). */
export async function remindersBySpan(spans: Span[]): Promise<ReminderFigures[]> {
  const db = getDb();
  const sent = await db
    .select({ i: SPAN_INDEX, sent: countOf(sql`${orders.reminderSentAt}`) })
    .from(spansTable(spans))
    .leftJoin(orders, inSpan(orders.reminderSentAt, spans))
    .groupBy(SPAN_INDEX);
  const recovered = await db
    .select({
      i: SPAN_INDEX,
      recovered: countOf(sql`${orders.paidAt}`),
      recoveredCents: total(sql`${orders.totalCents}`),
    })
    .from(spansTable(spans))
    .leftJoin(
      orders,
      // Read from orders_recovered_idx alone (partial: the reminded orders, by payment date): the
      // period's reminded payments, not every reminder ever sent nor every payment of the period.
      and(inSpan(orders.paidAt, spans), isNotNull(orders.reminderSentAt), sql`${orders.paidAt} >= ${orders.reminderSentAt}`),
    )
    .groupBy(SPAN_INDEX);
  const a = bySpan(sent, spans.length, { sent: 0 });
  const b = bySpan(recovered, spans.length, { recovered: 0, recoveredCents: 0 });
  return spans.map((_, i) => ({ ...a[i], ...b[i] }));
}

export type PromotionUse = { code: string; uses: number; revenueCents: number; discountCents: number };

export const PROMOTIONS_METHOD =
  "Commandes payées pendant la période avec un code promo (renouvellements compris) : nombre d'utilisations, chiffre d'affaires TTC encaissé et remise accordée, avant remboursements.";

/** Each code's paid orders in the span: how many, what they brought (TTC, after the discount) and the discount given. */
export async function promotionUses(period: Span): Promise<PromotionUse[]> {
  const rows = await getDb()
    .select({
      code: promotions.code,
      uses: countOf(sql`${orders.id}`),
      revenueCents: total(sql`${orders.totalCents}`),
      discountCents: total(sql`${orders.discountCents}`),
    })
    .from(orders)
    .innerJoin(promotions, eq(promotions.id, orders.promotionId))
    // Read from orders_promotion_paid_idx alone: the orders with a code, not every payment of the period.
    .where(
      and(
        isNotNull(orders.promotionId),
        sql`${unindexed(orders.paidAt)} >= ${period.start}`,
        sql`${unindexed(orders.paidAt)} < ${period.end}`,
      ),
    )
    .groupBy(promotions.code);
  return rows.sort((x, y) => y.revenueCents - x.revenueCents || x.code.localeCompare(y.code, "fr"));
}
