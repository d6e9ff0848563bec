import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";

const MIGRATIONS = path.resolve(process.cwd(), "drizzle");

/** A fresh in-memory database with the migrations before `name` applied, as drizzle would. */
function databaseBefore(name: string) {
  const sqlite = new Database(":memory:");
  sqlite.pragma("foreign_keys = ON");
  const files = readdirSync(MIGRATIONS)
    .filter((f) => f.endsWith(".sql"))
    .sort();
  for (const file of files) {
    if (file === name) break;
    runMigration(sqlite, file);
  }
  return sqlite;
}

function runMigration(sqlite: Database.Database, file: string) {
  for (const statement of readFileSync(path.join(MIGRATIONS, file), "utf8").split("--> statement-breakpoint")) {
    if (statement.trim()) sqlite.exec(statement);
  }
}

describe("the subscriptions migration", () => {
  it("moves today's subscription orders into subscriptions, and links each order to its subscription", () => {
    const sqlite = databaseBefore("0007_subscriptions.sql");
    const order = sqlite.prepare(
      `INSERT INTO orders (id, status, payment_status, subtotal_cents, total_cents, customer_email, customer_name, shipping_address,
         shipping_postal_code, shipping_city, shipping_country, is_subscription, stripe_customer_id, stripe_subscription_id, paid_at,
         subscription_canceled_at, created_at, updated_at)
       VALUES (?, 'pending', ?, 2590, 2590, 'camille.martin@example.fr', 'Camille Martin', '12 rue des Lilas', '75011', 'Paris', 'France',
         ?, 'cus_1', ?, ?, ?, '2026-10-01T10:00:00.000Z', '2026-10-01T10:00:00.000Z')`,
    );
    order.run(111111111, "paid", 1, "sub_active", "2026-10-01T10:05:00.000Z", null);
    order.run(222222222, "paid", 1, "sub_canceled", "2026-10-02T10:05:00.000Z", "2026-10-20T08:00:00.000Z");
    order.run(333333333, "unpaid", 1, "sub_incomplete", null, null);
    order.run(444444444, "paid", 0, null, "2026-10-03T10:05:00.000Z", null); // a one-off purchase
    sqlite
      .prepare(
        `INSERT INTO order_items (order_id, product_id, pack_id, quantity, unit_price_cents, product_name, variant_name, created_at, updated_at)
         VALUES (?, NULL, 2, 1, 2590, 'Masque Hydrogel au Collagène', '6 masques + 2 offerts', 'x', 'x')`,
      )
      .run(111111111);

    runMigration(sqlite, "0007_subscriptions.sql");

    const rows = sqlite.prepare("SELECT * FROM subscriptions ORDER BY first_order_id").all() as Array<Record<string, unknown>>;
    expect(rows.map((r) => [r.first_order_id, r.stripe_subscription_id, r.status])).toEqual([
      [111111111, "sub_active", "active"],
      [222222222, "sub_canceled", "canceled"],
      [333333333, "sub_incomplete", "incomplete"],
    ]);
    expect(rows[0]).toMatchObject({
      customer_email: "camille.martin@example.fr",
      customer_name: "Camille Martin",
      pack_id: 2,
      quantity: 1,
      variant_name: "6 masques + 2 offerts",
      amount_cents: 2590,
      stripe_customer_id: "cus_1",
      started_at: "2026-10-01T10:05:00.000Z",
      current_period_end: "2026-10-31T10:05:00.000Z",
      renewal_count: 0,
      canceled_at: null,
      shipping_name: "Camille Martin",
      shipping_address: "12 rue des Lilas",
      shipping_postal_code: "75011",
      shipping_city: "Paris",
      shipping_country: "France",
      unpaid_invoice_id: null,
    });
    expect(rows[1]).toMatchObject({ canceled_at: "2026-10-20T08:00:00.000Z", current_period_end: null });

    const links = sqlite.prepare("SELECT o.id, s.stripe_subscription_id AS sub FROM orders o LEFT JOIN subscriptions s ON s.id = o.subscription_id ORDER BY o.id").all();
    expect(links).toEqual([
      { id: 111111111, sub: "sub_active" },
      { id: 222222222, sub: "sub_canceled" },
      { id: 333333333, sub: "sub_incomplete" },
      { id: 444444444, sub: null },
    ]);
    sqlite.close();
  });
});
