import { and, eq, gte, lt, sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { invoices, orderItems, orders } from "~/db/schema";
import type { Span } from "./period.server";
import { bySpan, countOf, inSpan, SPAN_INDEX, spansTable, total } from "./sql.server";

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

const isInvoice = sql`${invoices.kind} = 'invoice'`;
const isCredit = sql`${invoices.kind} = 'credit_note'`;
const fromSubscription = sql`(${orders.subscriptionId} is not null or ${orders.isSubscription})`;

/** The revenue of each span, in one query; without `split`, one-off and subscription revenue are not told apart (the charts' series). */
export async function revenueBySpan(spans: Span[], split = true): Promise<RevenueFigures[]> {
  const query = getDb()
    .select({
      i: SPAN_INDEX,
      invoiced: total(sql`case when ${isInvoice} then ${invoices.totalIncludingCents} end`),
      invoicedExcluding: total(sql`case when ${isInvoice} then ${invoices.totalExcludingCents} end`),
      credited: total(sql`case when ${isCredit} then ${invoices.totalIncludingCents} end`),
      creditedExcluding: total(sql`case when ${isCredit} then ${invoices.totalExcludingCents} end`),
      orders: countOf(sql`case when ${isInvoice} then 1 end`),
      subscriptionNet: split
        ? total(
            sql`case when ${fromSubscription} then (case when ${isInvoice} then ${invoices.totalIncludingCents} else -${invoices.totalIncludingCents} end) end`,
          )
        : sql<number>`0`.mapWith(Number),
    })
    .from(spansTable(spans))
    .leftJoin(invoices, inSpan(invoices.issuedAt))
    .$dynamic();
  // The split between one-off and subscription reads each document's order: only when asked.
  const rows = await (split ? query.leftJoin(orders, eq(orders.id, invoices.orderId)) : query).groupBy(SPAN_INDEX);
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

/** What each pack brought in the span: its lines on the orders invoiced then (TTC, before refunds, shipping apart). */
export async function revenueByPack(period: Span): Promise<PackRevenue[]> {
  const label = sql<string>`coalesce(${orderItems.variantName}, ${orderItems.productName}, 'Sans nom')`;
  const rows = await getDb()
    .select({
      label,
      quantity: total(sql`case when ${isInvoice} then ${orderItems.quantity} end`),
      cents: total(sql`case when ${isInvoice} then ${orderItems.quantity} * ${orderItems.unitPriceCents} end`),
    })
    .from(invoices)
    .innerJoin(orderItems, eq(orderItems.orderId, invoices.orderId))
    // The kind is tested in the sums, not here: the date's index must lead (a kind matches half the documents).
    .where(and(gte(invoices.issuedAt, period.start), lt(invoices.issuedAt, period.end)))
    .groupBy(label);
  return rows.filter((r) => r.quantity > 0).sort((a, b) => b.cents - a.cents || a.label.localeCompare(b.label, "fr"));
}
