import type Database from "better-sqlite3";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { dialect } from "~/db/schema";
import { countAwaitingPayment, listAdminOrders, ordersToApi, pageAdminOrders } from "~/services/admin-orders.server";
import { DASHBOARD_ORDERS_COUNT_CAP, getDashboard } from "~/services/admin-dashboard.server";
import { shopHealth } from "~/services/health/shop-health.server";
import { countUnreadContactRequests, listContactRequestsPage } from "~/services/contacts.server";
import { getCustomerData } from "~/services/customers/records.server";
import { dashboardFigures } from "~/services/analytics/dashboard.server";
import { analyticsReport, defaultDays } from "~/services/analytics/report.server";
import { countEmailsByStatus, countFailedEmails, listEmails, pageEmails } from "~/services/email/mailbox.server";
import { hasBoughtTrialPack } from "~/services/packs.server";
import { listUsersPage, pageUsers } from "~/services/users.server";
import { seedScale } from "../../scripts/seed-scale/generate";

/**
 * At 100,000 orders a page must read the rows it shows, not the table. The data here is
 * seed:scale's at 20,000 orders (4,000 customers, 1,000 subscriptions...), analysed as the
 * shop analyses it: the planner's choices are those it makes at 100,000 (same indexes, same
 * proportions), and the suite stays quick. Each service's statements are caught as they are
 * prepared, and their plans read with EXPLAIN QUERY PLAN.
 */
const ORDERS = 20_000;

function sqliteOf(): Database.Database {
  const handle = globalThis.__shopDb;
  if (!handle?.sqlite) throw new Error("SQLite only");
  return handle.sqlite;
}

/** The statements `run` prepares, with their plans (parameters bound to null: the plan depends on the indexes, not the values). */
async function plansOf(run: () => Promise<unknown>) {
  const sqlite = sqliteOf();
  const prepare = sqlite.prepare;
  const seen: string[] = [];
  sqlite.prepare = ((source: string) => {
    if (/^\s*select/i.test(source)) seen.push(source);
    return prepare.call(sqlite, source);
  }) as Database.Database["prepare"];
  try {
    await run();
  } finally {
    sqlite.prepare = prepare;
  }
  return seen.map((source) => {
    const params = (source.match(/\?/g) ?? []).map(() => null);
    const plan = (prepare.call(sqlite, `EXPLAIN QUERY PLAN ${source}`).all(params) as { detail: string }[]).map((r) => r.detail);
    return { source, plan };
  });
}

/** A full read of a big table: `SCAN orders` without an index (an index walked in order, `SCAN … USING INDEX`, stops at the page). */
const BIG_TABLES = ["orders", "order_items", "invoices", "emails", "users", "subscriptions", "contact_requests"];
function fullScans(plan: string[]) {
  return plan.filter((line) => {
    const m = /^SCAN (\w+)(?: AS \w+)?(.*)$/.exec(line);
    return m && BIG_TABLES.includes(m[1]) && !/USING (COVERING )?INDEX/.test(m[2]);
  });
}

describe.skipIf(dialect !== "sqlite")("query plans with two years of data", () => {
  beforeAll(() => {
    const sqlite = sqliteOf();
    sqlite.transaction(() => seedScale(sqlite, ORDERS))();
    sqlite.exec("ANALYZE");
  }, 60_000);

  it("lists, searches and counts the orders from indexes, without sorting the table", async () => {
    const cases: [string, () => Promise<unknown>][] = [
      ["first page", () => listAdminOrders({})],
      ["page 200", () => listAdminOrders({ page: 200 })],
      ["awaiting payment", () => listAdminOrders({ view: "unpaid" })],
      ["search by email", () => listAdminOrders({ q: "camille.martin" })],
      ["search by domain", () => listAdminOrders({ q: "@exemple.fr" })],
      ["search by number", () => listAdminOrders({ q: "123456789" })],
      ["API page", async () => ordersToApi((await pageAdminOrders({}, { limit: 200 })).orders)],
      ["count awaiting payment", () => countAwaitingPayment()],
      ["dashboard", () => getDashboard()],
      ["shop health (on the dashboard)", () => shopHealth()],
    ];
    for (const [name, run] of cases) {
      const plans = await plansOf(run);
      expect(plans.length, name).toBeGreaterThan(0);
      for (const { source, plan } of plans) {
        const where = `${name}: ${source}\n${plan.join("\n")}`;
        expect(fullScans(plan), where).toEqual([]);
        if (/from "orders"/.test(source) && /order by/.test(source) && !/"orders"\."id" in/.test(source)) {
          // The list walks the orders by date: no sort of every order of the view (a search sorts its matches only;
          // the orders of the same instant are put in order of number among themselves, the « last term »).
          if (!/lower\(/.test(source)) expect(plan.join("\n"), where).not.toMatch(/TEMP B-TREE FOR ORDER BY/);
        }
      }
    }
  });

  it("reads the trial rule's email lookup from its index, inside the write transaction", async () => {
    const plans = await plansOf(() => getDb().transaction((tx) => hasBoughtTrialPack(tx, "Camille.Martin.5@exemple.fr")));
    const lookup = plans.find((p) => /lower\("orders"\."customer_email"\)/.test(p.source));
    expect(lookup?.plan.join("\n")).toMatch(/USING (COVERING )?INDEX orders_email_lower_idx/);
    expect(fullScans(lookup!.plan)).toEqual([]);
  });

  it("pages the users and the contact requests without reading the whole table", async () => {
    for (const run of [() => listUsersPage(40), () => pageUsers({ limit: 50 }), () => listContactRequestsPage(10)]) {
      for (const { source, plan } of await plansOf(run)) {
        if (/count\(\*\)/.test(source)) continue; // a count reads an index, the smallest there is
        const where = `${source}\n${plan.join("\n")}`;
        if (/order by "users"\."id" asc limit/.test(source)) {
          // By id: the table itself is the index (its rowid), walked in order and left at the page.
          expect(plan, where).toEqual(["SCAN users"]);
          continue;
        }
        expect(fullScans(plan), where).toEqual([]);
        expect(plan.join("\n"), where).not.toMatch(/TEMP B-TREE/);
      }
    }
  });

  it("finds a customer's records, the dashboard's figures and the menu's badges from indexes", async () => {
    const [customer] = sqliteOf()
      .prepare("select user_id from orders where user_id is not null order by created_at desc limit 1")
      .raw()
      .all() as [number][];
    const cases: [string, () => Promise<unknown>][] = [
      // The customer's page, its GDPR export and its API read the same records.
      ["customer records", () => getCustomerData(customer[0])],
      ["dashboard figures", () => dashboardFigures()],
      ["menu badges", async () => [await countFailedEmails(), await countUnreadContactRequests()]],
    ];
    for (const [name, run] of cases) {
      const plans = await plansOf(run);
      expect(plans.length, name).toBeGreaterThan(0);
      for (const { source, plan } of plans) {
        const where = `${name}: ${source}\n${plan.join("\n")}`;
        // Not even the subscriptions (5,000 at 100,000 orders), nor an index read whole for one status.
        expect(fullScans(plan), where).toEqual([]);
        expect(
          plan.filter((line) => /^SCAN (emails|contact_requests|subscriptions)\b/.test(line)),
          where,
        ).toEqual([]);
        if (/"subscriptions"\."started_at" </.test(source)) {
          // The running subscriptions at a date: the index holds the start, the end and the amount.
          expect(plan.join("\n"), where).toMatch(/COVERING INDEX subscriptions_started_idx/);
        }
      }
    }
  });

  it("reads the mailbox's counts from the counts kept per status, and its pages by date", async () => {
    const cases: [string, () => Promise<unknown>][] = [
      ["counts per status", () => countEmailsByStatus()],
      ["mailbox page", () => listEmails({})],
      ["mailbox tab", () => listEmails({ status: "sent" })],
      ["mailbox by kind", () => listEmails({ kind: "owner_daily_summary" })],
      ["API page", () => pageEmails({}, { limit: 200 })],
    ];
    for (const [name, run] of cases) {
      const plans = await plansOf(run);
      expect(plans.length, name).toBeGreaterThan(0);
      for (const { source, plan } of plans) {
        const where = `${name}: ${source}\n${plan.join("\n")}`;
        expect(fullScans(plan), where).toEqual([]);
        expect(plan.join("\n"), where).not.toMatch(/TEMP B-TREE/);
        // Only the page walks the emails, by date, and stops at the page: a count reads no email.
        if (!/limit/.test(source))
          expect(
            plan.filter((line) => /\bemails\b/.test(line)),
            where,
          ).toEqual([]);
      }
    }
  });

  it("reads the analytics of a period from its hours and index ranges, never a whole table or index", async () => {
    const { from, to } = defaultDays();
    const plans = await plansOf(() => analyticsReport(from, to));
    expect(plans.length).toBeGreaterThan(10);
    for (const { source, plan } of plans) {
      const where = `${source}\n${plan.join("\n")}`;
      // Not even an index walked whole (the carts recovered once read every order's reminder date).
      expect(
        plan.filter((line) => new RegExp(`^SCAN (${BIG_TABLES.join("|")})\\b`).test(line)),
        where,
      ).toEqual([]);
      // The revenue and the packs' sales come from the hourly totals, not from every document of the period.
      expect(source, where).not.toMatch(/from "invoices"|join "invoices"/);
    }
    expect(plans.some((p) => /from "revenue_hours"|join "revenue_hours"/.test(p.source))).toBe(true);
    expect(plans.some((p) => /from "pack_revenue_hours"/.test(p.source))).toBe(true);
  });

  it("stops the dashboard's order count past 10,000, where the card says « plus de 10 000 »", async () => {
    const paid =
      (sqliteOf()
        .prepare("select count(*) from orders where payment_status in ('paid', 'partially_refunded', 'refunded')")
        .pluck()
        .get() as number) ?? 0;
    expect(paid).toBeGreaterThan(DASHBOARD_ORDERS_COUNT_CAP);
    const plans = await plansOf(() => getDashboard());
    const count = plans.find((p) => /count\(\*\)/.test(p.source) && /from \(select 1 from "orders"/.test(p.source));
    expect(count?.source).toMatch(/limit \?\)/);
    expect((await getDashboard()).counts.orders).toBe(DASHBOARD_ORDERS_COUNT_CAP + 1);
  });
});
