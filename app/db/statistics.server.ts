import { sql, type SQL } from "drizzle-orm";
import { keepStatistics } from "./client.server";

type PgExecutor = { execute(query: SQL): Promise<unknown> };

/**
 * The planner's statistics, refreshed by the scheduler once a day (subscriptions/scheduler.server.ts)
 * and after a bulk load (seed:scale, db:copy-to-postgres): PostgreSQL runs ANALYZE on every table;
 * SQLite runs PRAGMA optimize, which analyses the tables whose statistics are stale.
 */
export async function refreshStatistics() {
  const handle = globalThis.__shopDb;
  if (!handle) throw new Error("The database is not open yet.");
  if (handle.dialect === "postgresql") await (handle.db as unknown as PgExecutor).execute(sql`ANALYZE`);
  else if (handle.sqlite) keepStatistics(handle.sqlite);
}
