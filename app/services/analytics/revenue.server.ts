import { and, gte, lt, sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { packRevenueHours, revenueHours } from "~/db/schema";
import type { Span } from "./period.server";
import { bySpan, inSpan, SPAN_INDEX, spansTable, total } from "./sql.server";

/**
 * What the shop sold, from its invoices and credit notes (the accounting's own record): an
 * invoice is issued when an order is paid, a credit note when a refund succeeds. Net revenue is
 * invoiced minus refunded, each counted on the day of its document, with VAT (TTC) and before
 * VAT (HT).
 */

export type RevenueFigures = {
  /** Invoiced, then refunded, then the difference; cents. */
  grossIncludingCents: number;
  refundedIncludingCents: number;
  netIncludingCents: number;
  netExcludingCents: number;
  /** Paid orders (one invoice each) and their average, before refunds. */
  orders: number;
  averageOrderCents: number;
  /** Net revenue (TTC) of one-off purchases and of subscriptions (first payments and renewals). */
  oneOffNetCents: number;
  subscriptionNetCents: number;
};

/**
 * The revenue of each span, in one query over the hourly totals (revenue_hours, kept by the
 * database as each document is issued): a span of Paris days is a range of whole UTC hours, so
 * the sums are those of the invoices and credit notes issued in it, read from 24 rows a day
 * whatever the number of orders.
 */
export async function revenueBySpan(spans: Span[]): Promise<RevenueFigures[]> {
  const h = revenueHours;
  const rows = await getDb()
    .select({
      i: SPAN_INDEX,
      invoiced: total(sql`${h.invoicedIncludingCents}`),
      invoicedExcluding: total(sql`${h.invoicedExcludingCents}`),
      credited: total(sql`${h.creditedIncludingCents}`),
      creditedExcluding: total(sql`${h.creditedExcludingCents}`),
      orders: total(sql`${h.invoices}`),
      subscriptionNet: total(sql`${h.subscriptionNetCents}`),
    })
    .from(spansTable(spans))
    .leftJoin(h, inSpan(h.startsAt, spans))
    .groupBy(SPAN_INDEX);
  const empty = { invoiced: 0, invoicedExcluding: 0, credited: 0, creditedExcluding: 0, orders: 0, subscriptionNet: 0 };
  return bySpan(rows, spans.length, empty).map((r) => {
    const net = r.invoiced - r.credited;
    return {
      grossIncludingCents: r.invoiced,
      refundedIncludingCents: r.credited,
      netIncludingCents: net,
      netExcludingCents: r.invoicedExcluding - r.creditedExcluding,
      orders: r.orders,
      averageOrderCents: r.orders > 0 ? Math.round(r.invoiced / r.orders) : 0,
      oneOffNetCents: net - r.subscriptionNet,
      subscriptionNetCents: r.subscriptionNet,
    };
  });
}

export type PackRevenue = { label: string; quantity: number; cents: number };

/**
 * What each pack brought in the span: its lines on the orders invoiced then (TTC, before refunds,
 * shipping apart), from the hourly totals (pack_revenue_hours, kept by the database as each
 * invoice is issued).
 */
export async function revenueByPack(period: Span): Promise<PackRevenue[]> {
  const p = packRevenueHours;
  const rows = await getDb()
    .select({ label: p.label, quantity: total(sql`${p.quantity}`), cents: total(sql`${p.cents}`) })
    .from(p)
    .where(and(gte(p.startsAt, period.start), lt(p.startsAt, period.end)))
    .groupBy(p.label);
  return rows.filter((r) => r.quantity > 0).sort((a, b) => b.cents - a.cents || a.label.localeCompare(b.label, "fr"));
}
