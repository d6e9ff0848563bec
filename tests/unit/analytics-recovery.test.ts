import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { promotions, subscriptionEvents, subscriptions } from "~/db/schema";
import { analyticsToApi } from "~/services/analytics/api-view.server";
import { tableCsv } from "~/services/analytics/csv.server";
import { chartTables } from "~/services/analytics/page.server";
import { analyticsReport } from "~/services/analytics/report.server";
import { insertOrder } from "./admin-helpers";

/**
 * The analytics' reminders, promotion codes and pauses on a known data set (the same on SQLite
 * and PostgreSQL), each compared with the previous period: November 2026 against October.
 */

let next = 910_000_000;
const order = (values: Parameters<typeof insertOrder>[0]) => insertOrder({ id: ++next, ...values });

describe("the reminders, the promotion codes and the pauses", () => {
  it("count the reminders sent, the carts recovered after them and their revenue, each code's uses, and the pauses", async () => {
    // Reminders: 4 sent in November (one on the 30th at 23:30 in Paris, still November), 1 in October.
    await order({ reminderConsent: true, createdAt: "2026-11-02T06:00:00.000Z", reminderSentAt: "2026-11-02T10:00:00.000Z" });
    // Reminded, then paid after the reminder: recovered (3 100 + 2 590).
    await order({
      reminderConsent: true,
      createdAt: "2026-11-10T06:00:00.000Z",
      reminderSentAt: "2026-11-10T10:00:00.000Z",
      paymentStatus: "paid",
      paidAt: "2026-11-10T12:00:00.000Z",
      totalCents: 3100,
    });
    await order({
      reminderConsent: true,
      createdAt: "2026-11-30T18:00:00.000Z",
      reminderSentAt: "2026-11-30T22:30:00.000Z",
      paymentStatus: "paid",
      paidAt: "2026-11-30T22:45:00.000Z",
      totalCents: 2590,
    });
    // Reminded in October, paid in November: recovered in November (the payment's day).
    await order({
      reminderConsent: true,
      createdAt: "2026-10-31T06:00:00.000Z",
      reminderSentAt: "2026-10-31T10:00:00.000Z",
      paymentStatus: "paid",
      paidAt: "2026-11-01T09:00:00.000Z",
      totalCents: 1990,
    });
    // Paid before the reminder could matter (never reminded) and paid on December 1st in Paris: not counted.
    await order({ paymentStatus: "paid", paidAt: "2026-11-05T10:00:00.000Z", totalCents: 9999 });
    await order({
      reminderConsent: true,
      reminderSentAt: "2026-11-29T10:00:00.000Z",
      paymentStatus: "paid",
      paidAt: "2026-11-30T23:30:00.000Z",
      totalCents: 5000,
    });

    // Codes: BIENVENUE twice in November (one a renewal), ETE once in October.
    const [welcome, summer] = await getDb()
      .insert(promotions)
      .values([
        { code: "BIENVENUE", kind: "percent", value: 10, appliesTo: "one_off" },
        { code: "ETE", kind: "percent", value: 20, appliesTo: "one_off" },
      ])
      .returning();
    const coded = (promotionId: number, paidAt: string, totalCents: number, discountCents: number) =>
      order({ paymentStatus: "paid", paidAt, promotionId, promotionCode: "x", totalCents, discountCents });
    await coded(welcome.id, "2026-11-03T10:00:00.000Z", 2331, 259);
    await coded(welcome.id, "2026-11-20T10:00:00.000Z", 2331, 259);
    await coded(summer.id, "2026-10-20T10:00:00.000Z", 2072, 518);
    // Unpaid with a code: not a use.
    await order({ promotionId: summer.id, promotionCode: "ETE", totalCents: 2072, discountCents: 518 });

    // Pauses: one subscription paused twice in November (counted once), another in October; one paused now.
    const [paused, other] = await getDb()
      .insert(subscriptions)
      .values(
        [1, 2].map((n) => ({
          customerEmail: `pause${n}@example.fr`,
          productId: 1,
          quantity: 1,
          amountCents: 2590,
          stripeSubscriptionId: `sub_pause_${n}`,
          status: "active" as const,
          startedAt: "2026-09-01T10:00:00.000Z",
        })),
      )
      .returning();
    await getDb()
      .update(subscriptions)
      .set({ pauseKind: "pause", pauseResumesAt: "2099-01-01T00:00:00.000Z" })
      .where(eq(subscriptions.id, paused.id));
    const event = (subscriptionId: number, at: string, action = "pause") => ({
      subscriptionId,
      action,
      actor: "customer" as const,
      label: "Pause",
      at,
    });
    await getDb()
      .insert(subscriptionEvents)
      .values([
        event(paused.id, "2026-11-04T10:00:00.000Z"),
        event(paused.id, "2026-11-25T10:00:00.000Z"),
        event(paused.id, "2026-11-26T10:00:00.000Z", "resume"),
        event(other.id, "2026-10-04T10:00:00.000Z"),
      ]);

    const report = await analyticsReport("2026-11-01", "2026-11-30");
    expect(report.reminders).toEqual({
      sent: { current: 4, previous: 1, change: 300 },
      recovered: { current: 3, previous: 0, change: null },
      recoveredCents: { current: 3100 + 2590 + 1990, previous: 0, change: null },
    });
    expect(report.promotions).toEqual([{ code: "BIENVENUE", uses: 2, revenueCents: 4662, discountCents: 518 }]);
    expect(report.subscriptions.paused).toEqual({ current: 1, previous: 1, change: 0 });
    expect(report.subscriptions.pausedNow.current).toBe(1);

    // The API's euros and the CSV's French cells.
    const api = analyticsToApi(report);
    expect(api.reminders.recoveredRevenue.current).toBe("76.80");
    expect(api.promotions).toEqual([{ code: "BIENVENUE", uses: 2, revenue: "46.62", discount: "5.18" }]);
    expect(tableCsv(chartTables(report)["codes-promo"].csv)).toBe(
      '\uFEFF"Code";"Utilisations";"Chiffre d\'affaires TTC (€)";"Remise accordée (€)"\r\n"BIENVENUE";2;46,62;5,18\r\n',
    );
  });
});
