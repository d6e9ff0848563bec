import { and, eq, gte, lt, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { invoices, orderItems, orders, refunds, subscriptions } from "~/db/schema";
import { periodOf, span, type Span } from "~/services/analytics/period.server";
import { revenueByPack, revenueBySpan, type RevenueFigures } from "~/services/analytics/revenue.server";
import { bySpan, countOf, inSpan, SPAN_INDEX, spansTable, total } from "~/services/analytics/sql.server";
import { issueInvoiceIn, issueRefundCreditNoteIn } from "~/services/invoices.server";
import { insertOrder } from "./admin-helpers";

/**
 * The analytics read the revenue from hourly totals the database keeps as each invoice is
 * issued (revenue_hours, pack_revenue_hours). They must say exactly what the invoices and credit
 * notes say, computed from the documents themselves: after refunds, renewals, an order linked to
 * its subscription after its invoice, a line added to an invoiced order, and around Paris
 * midnights (a day of 25 hours included).
 */

const isInvoice = sql`${invoices.kind} = 'invoice'`;
const isCredit = sql`${invoices.kind} = 'credit_note'`;
const fromSubscription = sql`(${orders.subscriptionId} is not null or ${orders.isSubscription})`;

/** The revenue of each span computed from the documents, as the analytics did before the hourly totals. */
async function revenueFromDocuments(spans: Span[]): Promise<RevenueFigures[]> {
  const rows = await getDb()
    .select({
      i: SPAN_INDEX,
      invoiced: total(sql`case when ${isInvoice} then ${invoices.totalIncludingCents} end`),
      invoicedExcluding: total(sql`case when ${isInvoice} then ${invoices.totalExcludingCents} end`),
      credited: total(sql`case when ${isCredit} then ${invoices.totalIncludingCents} end`),
      creditedExcluding: total(sql`case when ${isCredit} then ${invoices.totalExcludingCents} end`),
      orders: countOf(sql`case when ${isInvoice} then 1 end`),
      subscriptionNet: total(
        sql`case when ${fromSubscription} then (case when ${isInvoice} then ${invoices.totalIncludingCents} else -${invoices.totalIncludingCents} end) end`,
      ),
    })
    .from(spansTable(spans))
    .leftJoin(invoices, inSpan(invoices.issuedAt, spans))
    .leftJoin(orders, eq(orders.id, invoices.orderId))
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

/** Each pack's lines on the orders invoiced in the span, computed from the documents. */
async function packsFromDocuments(period: Span) {
  const label = sql<string>`coalesce(${orderItems.variantName}, ${orderItems.productName}, 'Sans nom')`;
  const rows = await getDb()
    .select({
      label,
      quantity: total(sql`case when ${isInvoice} then ${orderItems.quantity} end`),
      cents: total(sql`case when ${isInvoice} then ${orderItems.quantity} * ${orderItems.unitPriceCents} end`),
    })
    .from(invoices)
    .innerJoin(orderItems, eq(orderItems.orderId, invoices.orderId))
    .where(and(gte(invoices.issuedAt, period.start), lt(invoices.issuedAt, period.end)))
    .groupBy(label);
  return rows.filter((r) => r.quantity > 0).sort((a, b) => b.cents - a.cents || a.label.localeCompare(b.label, "fr"));
}

/** A paid order and its invoice, issued by the shop's own service at `paidAt`. */
async function paid(
  id: number,
  paidAt: string,
  cents: number,
  extra: Parameters<typeof insertOrder>[0] = {},
  pack = "Pack 3 masques",
) {
  await insertOrder(
    { id, paymentStatus: "paid", paidAt, createdAt: paidAt, totalCents: cents, subtotalCents: cents, ...extra },
    { unitPriceCents: cents, variantName: pack },
  );
  await getDb().transaction(async (tx) => {
    await issueInvoiceIn(tx, id, new Date(paidAt));
  });
}

let refundNumber = 0;
async function refund(orderId: number, at: string, cents: number) {
  refundNumber += 1;
  const [row] = await getDb()
    .insert(refunds)
    .values({
      orderId,
      amountCents: cents,
      reason: "Colis abîmé",
      status: "succeeded",
      actorName: "Stripe",
      idempotencyKey: `hourly-${refundNumber}`,
      stripeRefundId: `re_hourly_${refundNumber}`,
    })
    .returning();
  await getDb().transaction(async (tx) => {
    await issueRefundCreditNoteIn(tx, row, new Date(at));
  });
}

describe("analytics' hourly totals", () => {
  it("say exactly what the invoices and credit notes say, after refunds, renewals and around Paris midnights", async () => {
    // Paris midnight of 1 November 2026 is 23:00 UTC on 31 October; 25 October 2026 has 25 hours.
    await paid(600_000_001, "2026-10-31T22:59:59.999Z", 2590); // 31 October, 23:59:59 in Paris
    await paid(600_000_002, "2026-10-31T23:00:00.000Z", 1990); // 1 November, 00:00 in Paris
    await paid(600_000_003, "2026-10-25T00:30:00.000Z", 1500); // 25 October, 02:30 (summer time) in Paris
    await paid(600_000_004, "2026-10-25T23:30:00.000Z", 1800); // 26 October, 00:30 in Paris
    // Two orders in the same hour, one of two lines.
    await paid(600_000_005, "2026-11-03T10:05:00.000Z", 2990, {}, "Pack 6 masques");
    await paid(600_000_006, "2026-11-03T10:55:00.000Z", 2590);
    await getDb()
      .insert(orderItems)
      .values({ orderId: 600_000_006, productId: 1, quantity: 2, unitPriceCents: 500, productName: "Sérum", variantName: null });

    // A subscription: its first order invoiced before the order is linked to it, then a renewal.
    await paid(600_000_010, "2026-11-05T09:00:00.000Z", 2990, {}, "Abonnement 3 masques");
    await getDb().insert(subscriptions).values({
      id: 60,
      amountCents: 2990,
      stripeSubscriptionId: "sub_hourly",
      status: "active",
      startedAt: "2026-11-05T09:00:00.000Z",
    });
    await getDb().update(orders).set({ subscriptionId: 60 }).where(eq(orders.id, 600_000_010));
    await paid(
      600_000_011,
      "2026-12-03T09:00:00.000Z",
      2990,
      { subscriptionId: 60, isSubscription: true, renewalNumber: 1, stripeInvoiceId: "in_hourly_1" },
      "Abonnement 3 masques",
    );

    // Refunds: part of an order the next day, the whole of another across the midnight, one of the renewal.
    await refund(600_000_005, "2026-11-04T08:00:00.000Z", 1000);
    await refund(600_000_002, "2026-10-31T23:00:00.000Z", 1990);
    await refund(600_000_011, "2026-12-04T09:00:00.000Z", 2990);
    // A checkout never paid: its lines change freely and count nowhere.
    await insertOrder({ id: 600_000_020, createdAt: "2026-11-03T10:30:00.000Z" });
    await getDb().delete(orderItems).where(eq(orderItems.orderId, 600_000_020));

    const autumn = periodOf("2026-10-20", "2026-12-10");
    const spans = [span("2026-10-01", "2026-12-31"), autumn.previous, ...autumn.buckets];
    const hourly = await revenueBySpan(spans);
    expect(hourly).toEqual(await revenueFromDocuments(spans));

    // What the owner sees, checked by hand: 31 October, 1 November, 25 and 26 October.
    const day = (d: string) => hourly[2 + autumn.buckets.findIndex((b) => b.from === d)];
    expect(day("2026-10-31")).toMatchObject({ netIncludingCents: 2590, orders: 1 });
    expect(day("2026-11-01")).toMatchObject({ netIncludingCents: 0, orders: 1, refundedIncludingCents: 1990 });
    expect(day("2026-10-25")).toMatchObject({ netIncludingCents: 1500, orders: 1 });
    expect(day("2026-10-26")).toMatchObject({ netIncludingCents: 1800, orders: 1 });
    expect(day("2026-11-05")).toMatchObject({ subscriptionNetCents: 2990, oneOffNetCents: 0 });
    expect(day("2026-12-04")).toMatchObject({ subscriptionNetCents: -2990 });
    expect(hourly[0]).toMatchObject({
      orders: 8,
      grossIncludingCents: 2590 + 1990 + 1500 + 1800 + 2990 + 2590 + 2990 + 2990,
      refundedIncludingCents: 1000 + 1990 + 2990,
      subscriptionNetCents: 2990,
    });

    for (const period of [span("2026-10-01", "2026-12-31"), span("2026-11-01", "2026-11-30"), span("2026-10-31", "2026-10-31")]) {
      expect(await revenueByPack(period)).toEqual(await packsFromDocuments(period));
    }
    expect(await revenueByPack(span("2026-11-01", "2026-11-30"))).toEqual([
      { label: "Pack 3 masques", quantity: 2, cents: 1990 + 2590 },
      { label: "Abonnement 3 masques", quantity: 1, cents: 2990 },
      { label: "Pack 6 masques", quantity: 1, cents: 2990 },
      { label: "Sérum", quantity: 2, cents: 1000 },
    ]);
  });
});
