import { getTableName, is } from "drizzle-orm";
import { SQLiteTable } from "drizzle-orm/sqlite-core";
import { PgTable } from "drizzle-orm/pg-core";
import { getDb } from "~/db/client.server";
import * as schema from "~/db/schema";

/**
 * A snapshot of every table of the test database, to prove that a refused request changed nothing.
 * The rate-limit counters are left out: counting a refused attempt is their whole point. So is an
 * admin session's `last_seen_at`, which any signed-in request refreshes once a minute, refused or not
 * (a file that runs past a minute would otherwise see it move).
 */
const IGNORED_TABLES = new Set(["rate_limits"]);
const IGNORED_COLUMNS: Record<string, string[]> = { admin_sessions: ["lastSeenAt"] };

export async function snapshotDatabase(): Promise<string> {
  const db = getDb();
  const out: Record<string, string[]> = {};
  for (const table of Object.values(schema)) {
    if (!is(table, SQLiteTable) && !is(table, PgTable)) continue;
    const name = getTableName(table);
    if (IGNORED_TABLES.has(name)) continue;
    const rows = await db.select().from(table as typeof schema.products);
    const ignored = IGNORED_COLUMNS[name] ?? [];
    out[name] = rows
      .map((row) => JSON.stringify(Object.fromEntries(Object.entries(row).filter(([key]) => !ignored.includes(key)))))
      .sort();
  }
  return JSON.stringify(out);
}

/** The tables whose rows differ between two snapshots: what a failure names. */
export function changedTables(before: string, after: string): string[] {
  const a = JSON.parse(before) as Record<string, string[]>;
  const b = JSON.parse(after) as Record<string, string[]>;
  return Object.keys({ ...a, ...b }).filter((name) => JSON.stringify(a[name]) !== JSON.stringify(b[name]));
}
