import { asResponses } from "../helpers/route-response";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { subscriptions, withdrawalRequests } from "~/db/schema";
import { loader as dashboardLoaderRoute } from "~/routes/admin.dashboard";
import { getRequest, routeArgs } from "../helpers/requests";
import { adminCookie, insertOrder } from "./admin-helpers";

const dashboardLoader = asResponses(dashboardLoaderRoute);

/** The dashboard's subscription figures: who subscribes now, and what the next 4 weeks bring. */

let stripeId = 0;
async function subscription(overrides: Partial<typeof subscriptions.$inferInsert>) {
  const firstOrderId = await insertOrder({ isSubscription: true, paymentStatus: "paid" });
  await getDb()
    .insert(subscriptions)
    .values({
      amountCents: 2590,
      stripeSubscriptionId: `sub_dashboard_${++stripeId}`,
      status: "active",
      firstOrderId,
      ...overrides,
    });
}

describe("dashboard: subscriptions", () => {
  it("counts active and past-due subscriptions, and sums the renewals to come", async () => {
    const cookie = await adminCookie();
    const before = await (await dashboardLoader(routeArgs(getRequest("/admin/dashboard", { Cookie: cookie })))).json();
    expect(before.subscriptions).toEqual({ active: 0, pastDue: 0, recurringCents: 0 });

    await subscription({ amountCents: 2590 });
    await subscription({ amountCents: 3290 });
    await subscription({ amountCents: 2590, quantity: 2 }); // amountCents is the whole renewal
    await subscription({ amountCents: 3290, cancelAtPeriodEnd: true }); // running, but ends at its period's end
    await subscription({ amountCents: 2590, status: "past_due", unpaidInvoiceId: "in_unpaid" }); // running, not renewing until paid
    await subscription({ amountCents: 2590, status: "canceled" });
    await subscription({ amountCents: 2590, status: "incomplete" });

    const data = await (await dashboardLoader(routeArgs(getRequest("/admin/dashboard", { Cookie: cookie })))).json();
    expect(data.subscriptions).toEqual({ active: 5, pastDue: 1, recurringCents: 2590 + 3290 + 2590 });
  });
});

describe("dashboard: withdrawals to process", () => {
  it("lists the 20 oldest and says how many there are in all", async () => {
    const requested: number[] = [];
    for (let i = 0; i < 23; i++) {
      const orderId = await insertOrder({ paymentStatus: "paid", customerEmail: `retractation-${i}@example.fr` });
      await getDb()
        .insert(withdrawalRequests)
        .values({
          orderId,
          requestedAt: new Date(Date.UTC(2026, 0, 1 + i)).toISOString(),
          email: `retractation-${i}@example.fr`,
        });
      requested.push(orderId);
    }
    const response = await dashboardLoader(routeArgs(getRequest("/admin/dashboard", { Cookie: await adminCookie() })));
    const body = (await response.json()) as {
      withdrawals: { orderId: number }[];
      withdrawalsTotal: number;
      orders: { id: number; withdrawn: boolean }[];
    };
    expect(body.withdrawalsTotal).toBe(23);
    expect(body.withdrawals.map((w) => w.orderId)).toEqual(requested.slice(0, 20));
    // The latest orders say which were withdrawn: their one state in the list (« Rétractation enregistrée »).
    const latest = body.orders.find((o) => o.id === requested.at(-1));
    expect(latest).toMatchObject({ withdrawn: true });
  });
});
