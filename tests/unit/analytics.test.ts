import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { cartStarts, invoices, renewalFailures, subscriptions } from "~/db/schema";
import { periodOf } from "~/services/analytics/period.server";
import { dashboardFigures } from "~/services/analytics/dashboard.server";
import { analyticsReport } from "~/services/analytics/report.server";
import { insertOrder } from "./admin-helpers";

/**
 * The analytics on a known data set (the same on SQLite and PostgreSQL): revenue net of
 * refunds, MRR, churn, renewals, the funnel, and Paris days at their boundaries.
 */

let number = 0;
async function invoice(
  orderId: number,
  kind: "invoice" | "credit_note",
  issuedAt: string,
  includingCents: number,
  excludingCents: number,
) {
  number += 1;
  await getDb()
    .insert(invoices)
    .values({
      kind,
      number: `${kind === "invoice" ? "F" : "A"}2026-${String(number).padStart(6, "0")}`,
      year: 2026,
      sequence: number,
      orderId,
      issuedAt,
      totalExcludingCents: excludingCents,
      totalVatCents: includingCents - excludingCents,
      totalIncludingCents: includingCents,
      document: {} as never,
    });
}

async function paidOrder(
  id: number,
  paidAt: string,
  cents: number,
  excluding: number,
  extra: Parameters<typeof insertOrder>[0] = {},
  variantName = "Pack 3 masques",
) {
  await insertOrder(
    {
      id,
      paymentStatus: "paid",
      paidAt,
      createdAt: paidAt,
      totalCents: cents,
      subtotalCents: cents,
      stripePaymentIntentId: `pi_${id}`,
      ...extra,
    },
    { unitPriceCents: cents, variantName },
  );
  await invoice(id, "invoice", paidAt, cents, excluding);
}

async function subscription(id: number, values: Partial<typeof subscriptions.$inferInsert>) {
  await getDb()
    .insert(subscriptions)
    .values({ id, amountCents: 2990, stripeSubscriptionId: `sub_analytics_${id}`, status: "active", ...values });
}

async function dataSet() {
  // November 2026 (Paris), compared with 2 to 31 October.
  await paidOrder(500_000_001, "2026-11-10T10:00:00.000Z", 2590, 2158); // one-off
  await subscription(3, { startedAt: "2026-11-15T09:00:00.000Z" });
  await paidOrder(
    500_000_002,
    "2026-11-15T09:00:00.000Z",
    2990,
    2492,
    { isSubscription: true, subscriptionId: 3 },
    "Abonnement 3 masques",
  );
  await paidOrder(500_000_003, "2026-10-20T10:00:00.000Z", 1990, 1658); // previous period
  await paidOrder(500_000_004, "2026-10-31T23:30:00.000Z", 1500, 1250); // 1 November, 00:30 in Paris: November
  await paidOrder(500_000_005, "2026-11-30T23:30:00.000Z", 1800, 1500); // 1 December, 00:30 in Paris: not November
  await invoice(500_000_001, "credit_note", "2026-11-20T10:00:00.000Z", 1000, 833); // a refund of the first order
  // Checkouts not paid: one whose payment started, one left at the delivery form.
  await insertOrder({ id: 500_000_006, createdAt: "2026-11-12T10:00:00.000Z", stripePaymentIntentId: "pi_started" });
  await insertOrder({ id: 500_000_007, createdAt: "2026-11-13T10:00:00.000Z" });

  await subscription(1, { startedAt: "2026-09-01T09:00:00.000Z" });
  await subscription(2, {
    startedAt: "2026-10-10T09:00:00.000Z",
    canceledAt: "2026-11-12T09:00:00.000Z",
    status: "canceled",
    cancelReason: "prix",
  });
  await subscription(4, { startedAt: "2026-09-05T09:00:00.000Z", canceledAt: "2026-10-15T09:00:00.000Z", status: "canceled" });
  await subscription(5, { status: "incomplete" }); // never paid: never counted
  // Renewals of subscription 1: one paid at once, one paid after a failure, one failed still unpaid.
  const renewal = { isSubscription: true, subscriptionId: 1 };
  await insertOrder({
    id: 500_000_010,
    ...renewal,
    renewalNumber: 1,
    stripeInvoiceId: "in_r1",
    paymentStatus: "paid",
    paidAt: "2026-11-05T09:00:00.000Z",
    createdAt: "2026-11-05T09:00:00.000Z",
  });
  await insertOrder({
    id: 500_000_011,
    ...renewal,
    renewalNumber: 2,
    stripeInvoiceId: "in_r2",
    paymentStatus: "paid",
    paidAt: "2026-11-22T09:00:00.000Z",
    createdAt: "2026-11-22T09:00:00.000Z",
  });
  await getDb()
    .insert(renewalFailures)
    .values([
      {
        stripeInvoiceId: "in_r2",
        subscriptionId: 1,
        failedAt: "2026-11-20T09:00:00.000Z",
        recoveredAt: "2026-11-22T09:00:00.000Z",
      },
      { stripeInvoiceId: "in_r3", subscriptionId: 1, failedAt: "2026-11-25T09:00:00.000Z" },
    ]);
  await getDb()
    .insert(cartStarts)
    .values([
      { day: "2026-10-31", count: 7 },
      { day: "2026-11-01", count: 10 },
      { day: "2026-11-30", count: 5 },
      { day: "2026-12-01", count: 3 },
    ]);
}

describe("analytics", () => {
  it("computes revenue net of refunds, subscriptions, renewals and the funnel over Paris days", async () => {
    await dataSet();
    const report = await analyticsReport("2026-11-01", "2026-11-30");

    expect(report.period).toMatchObject({
      from: "2026-11-01",
      to: "2026-11-30",
      days: 30,
      granularity: "day",
      previous: { from: "2026-10-02", to: "2026-10-31" },
    });
    // Invoiced 2590 + 2990 + 1500, refunded 1000.
    expect(report.revenue.netIncludingCents).toEqual({ current: 6080, previous: 1990, change: ((6080 - 1990) / 1990) * 100 });
    expect(report.revenue.netExcludingCents.current).toBe(2158 + 2492 + 1250 - 833);
    expect(report.revenue.refundedIncludingCents.current).toBe(1000);
    expect(report.revenue.orders).toMatchObject({ current: 3, previous: 1 });
    expect(report.revenue.averageOrderCents.current).toBe(Math.round(7080 / 3));
    expect(report.revenue.subscriptionNetCents.current).toBe(2990);
    expect(report.revenue.oneOffNetCents.current).toBe(6080 - 2990);

    // The series: 30 days; the order paid at 23:30 UTC on 31 October is on 1 November.
    expect(report.revenueSeries).toHaveLength(30);
    expect(report.revenueSeries[0]).toMatchObject({ from: "2026-11-01", netIncludingCents: 1500, orders: 1 });
    expect(report.revenueSeries[19]).toMatchObject({ from: "2026-11-20", netIncludingCents: -1000, orders: 0 });
    expect(report.revenueSeries.reduce((sum, d) => sum + d.netIncludingCents, 0)).toBe(6080);

    expect(report.packs.find((p) => p.label === "Abonnement 3 masques")).toEqual({
      label: "Abonnement 3 masques",
      quantity: 1,
      cents: 2990,
    });
    expect(report.packs.find((p) => p.label === "Pack 3 masques")?.cents).toBe(2590 + 1500);

    // Running at the end of November: subscriptions 1 and 3; at the end of October: 1 and 2.
    expect(report.subscriptions.active).toMatchObject({ current: 2, previous: 2, change: 0 });
    expect(report.subscriptions.mrrCents.current).toBe(Math.round(2 * 2990 * (13 / 12)));
    expect(report.subscriptions.started).toMatchObject({ current: 1, previous: 1 });
    expect(report.subscriptions.ended).toMatchObject({ current: 1, previous: 1 });
    // One ended of two running at the start, over 30 days.
    expect(report.subscriptions.churnPercent).toMatchObject({ current: 50, previous: 50 });
    // The dashboard's figures over the same 30 days (ending on the 30th) say the same.
    const dashboard = await dashboardFigures(new Date("2026-11-30T12:00:00Z"));
    expect(dashboard.churn.value).toMatchObject({ current: 50, previous: 50 });
    expect(dashboard.active.value).toMatchObject({ current: 2, previous: 2 });
    expect(dashboard.mrr.value.current).toBe(Math.round(2 * 2990 * (13 / 12)));
    // Due in November: in_r1 paid at once, in_r2 and in_r3 failed; in_r2 recovered.
    expect(report.subscriptions.renewalSuccessPercent.current).toBeCloseTo(100 / 3, 5);
    expect(report.subscriptions.renewalsFailed.current).toBe(2);
    expect(report.subscriptions.renewalsRecovered.current).toBe(1);
    expect(report.cancelReasons.find((r) => r.reason === "prix")?.count).toBe(1);
    expect(report.cancelReasons.find((r) => r.reason === "none")?.count).toBe(0);
    expect(report.subscriberSeries.at(-1)).toMatchObject({ active: 2, mrrCents: Math.round(2 * 2990 * (13 / 12)) });
    expect(report.subscriberSeries[10]).toMatchObject({ from: "2026-11-11", active: 2 }); // 1 and 2 (2 ends on the 12th)
    expect(report.subscriberSeries[11]).toMatchObject({ from: "2026-11-12", active: 1 });

    // 15 carts; 5 checkouts (renewals are not), 4 whose payment started, 3 paid.
    expect(report.funnel.map((s) => [s.key, s.current])).toEqual([
      ["carts", 15],
      ["checkouts", 5],
      ["paymentStarted", 4],
      ["paid", 3],
    ]);
    expect(report.funnel[0].previous).toBe(7);
    expect(report.funnel[3].fromPrevious).toBe(75);
  });

  it("cuts days at Paris midnight, summer time included, and draws long periods by week", () => {
    // 29 March 2026 (clocks go forward) lasts 23 hours; 25 October 2026 lasts 25.
    const spring = periodOf("2026-03-29", "2026-03-29");
    expect([spring.start, spring.end]).toEqual(["2026-03-28T23:00:00.000Z", "2026-03-29T22:00:00.000Z"]);
    const autumn = periodOf("2026-10-25", "2026-10-25");
    expect([autumn.start, autumn.end]).toEqual(["2026-10-24T22:00:00.000Z", "2026-10-25T23:00:00.000Z"]);

    const year = periodOf("2025-11-28", "2026-11-27");
    expect(year.granularity).toBe("week");
    expect(year.buckets[0]).toMatchObject({ from: "2025-11-28", to: "2025-11-30" }); // to the first Sunday
    expect(year.buckets[1]).toMatchObject({ from: "2025-12-01", to: "2025-12-07", label: "Semaine du 01/12/2025" });
    expect(year.buckets.at(-1)).toMatchObject({ to: "2026-11-27" });
    expect(year.previous).toMatchObject({ from: "2024-11-28", to: "2025-11-27" });
  });
});
