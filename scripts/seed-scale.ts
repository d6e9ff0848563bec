import { parseArgs } from "node:util";
import { DEMO_ADMIN_PASSWORD } from "~/config.server";
import { keepStatistics, openSqlite } from "~/db/client.server";
import { parseDatabaseUrl } from "~/db/database-url";
import { SeedRefusal, seedScale } from "./seed-scale/generate";

/**
 * Fills a demo database with two years of a shop that works, to measure the pages on it:
 *
 *   SHOP_MODE=demo npm run seed:scale -- --orders 100000 [--file data/grande.db]
 *
 * For N orders (100,000 by default): N/5 customers, N/20 subscriptions with their renewal
 * orders, N/20 contact requests, one confirmation email per paid order and one
 * acknowledgement per contact request, about 1 % of refunds and 0.5 % of withdrawals. Paid
 * orders have their item, their invoice (numbers per year without a gap, counters updated)
 * and their email; about 12 % of the checkouts stay unpaid or failed. Everything is written
 * in one transaction, through prepared statements. The analytics' hourly totals
 * (revenue_hours, pack_revenue_hours) are filled by the database's own triggers as the invoices
 * and their lines are written.
 *
 * Refused outside demo mode, on PostgreSQL (fill a SQLite file, then `npm run
 * db:copy-to-postgres`, which runs ANALYZE), and on a database that already holds orders.
 */

function options() {
  const { values } = parseArgs({ options: { orders: { type: "string", default: "100000" }, file: { type: "string" } } });
  const count = Number(values.orders);
  if (!Number.isInteger(count) || count < 1 || count > 2_000_000) {
    throw new SeedRefusal("--orders attend un nombre entier de commandes entre 1 et 2 000 000.");
  }
  if (process.env.SHOP_MODE !== "demo") {
    throw new SeedRefusal("seed:scale ne remplit qu'une base de démonstration : lancez-le avec SHOP_MODE=demo.");
  }
  const target = parseDatabaseUrl(values.file ?? (process.env.DATABASE_URL || "./data/shop.db"));
  if (target.dialect !== "sqlite") {
    throw new SeedRefusal(
      "seed:scale remplit un fichier SQLite ; copiez-le ensuite vers PostgreSQL avec npm run db:copy-to-postgres.",
    );
  }
  return { count, file: target.path };
}

async function main() {
  const { count, file } = options();
  const started = Date.now();
  const { sqlite } = await openSqlite(file, {
    adminUsername: process.env.ADMIN_USERNAME || "admin",
    adminPassword: process.env.ADMIN_PASSWORD || DEMO_ADMIN_PASSWORD,
  });
  try {
    const stats = sqlite.transaction(() => seedScale(sqlite, count))();
    sqlite.exec("ANALYZE");
    keepStatistics(sqlite);
    console.log(`${file} : ${JSON.stringify(stats)} en ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    sqlite.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof SeedRefusal ? error.message : error);
  process.exitCode = 1;
});
