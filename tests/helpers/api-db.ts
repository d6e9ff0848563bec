import { getTableName, is } from "drizzle-orm";
import { SQLiteTable } from "drizzle-orm/sqlite-core";
import { PgTable } from "drizzle-orm/pg-core";
import { getDb } from "~/db/client.server";
import * as schema from "~/db/schema";

/**
 * A snapshot of every table of the test database, to prove that a refused request changed nothing.
 * The rate-limit counters are left out: counting a refused attempt is their whole point.
 */
const IGNORED_TABLES = new Set(["rate_limits"]);

export async function snapshotDatabase(): Promise<string> {
  const db = getDb();
  const out: Record<string, string[]> = {};
  for (const table of Object.values(schema)) {
    if (!is(table, SQLiteTable) && !is(table, PgTable)) continue;
    const name = getTableName(table);
    if (IGNORED_TABLES.has(name)) continue;
    const rows = await db.select().from(table as typeof schema.products);
    out[name] = rows.map((row) => JSON.stringify(row)).sort();
  }
  return JSON.stringify(out);
}
