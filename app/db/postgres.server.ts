import path from "node:path";
import { getTableColumns, getTableName, is, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import { PgTable } from "drizzle-orm/pg-core";
import pg from "pg";
import { ConfigError } from "~/config.server";
import type { Db, DbOrTx } from "./client.server";
import { redactDatabaseUrl } from "./database-url";
import * as pgSchema from "./schema.pg";
import { seed } from "./seed.server";
import { withTransactionRules } from "./transactions.server";
import { log } from "~/log.server";

/**
 * The shop on PostgreSQL, through drizzle's node-postgres driver (`pg`): the driver drizzle
 * documents first for PostgreSQL, with a pool of connections per process and the SQLSTATE code
 * of every error, which the retry of serialization failures below reads.
 *
 * - Migrations (drizzle-pg/) and the seed run at opening, under an advisory lock: several
 *   servers starting together apply them once, one after the other.
 * - Transactions run side by side, at PostgreSQL's default isolation (READ COMMITTED), on the
 *   pool's connections of every server: there is no lock for everything. What a rule must see
 *   alone is serialised by the rule itself, with a row lock, a lock per purpose or a unique index
 *   (db/locks.server.ts; the list in docs/architecture.md). A lock is waited for at most
 *   LOCK_WAIT_MS (as SQLite's busy_timeout), then the statement fails (SQLSTATE 55P03) rather than
 *   keep its request waiting.
 * - Should PostgreSQL give up a transaction (SQLSTATE 40001, or 40P01 for a deadlock between two
 *   of them), it is run again from the start, up to 10 times, after a short random wait; one that
 *   hit a unique index another transaction filled meanwhile (23505) is run again up to 3 times,
 *   and its next attempt sees that row. Its after-commit effects only run for the attempt that
 *   committed (transactions.server.ts).
 */

/** The advisory lock's key for migrations and seed ("shop" in ASCII). */
const SETUP_LOCK = 0x73686f70;
/** How long a statement waits for a lock, in milliseconds. */
const LOCK_WAIT_MS = 5_000;
/** The attempts of a transaction given up by PostgreSQL, and of one that hit a unique index. */
const MAX_ATTEMPTS = 10;
const MAX_UNIQUE_ATTEMPTS = 3;
const RETRIED = new Set(["40001", "40P01"]);
const UNIQUE_VIOLATION = "23505";

export type PostgresHandle = { db: Db; pool: pg.Pool; close(): Promise<void> };

export type PostgresOptions = { adminUsername: string; adminPassword: string; poolSize?: number };

/** The SQLSTATE of a failed query (drizzle wraps the driver's error in its `cause`). */
function sqlState(error: unknown): string | undefined {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

export function isSerializationFailure(error: unknown): boolean {
  const code = sqlState(error);
  return code !== undefined && RETRIED.has(code);
}

/** Whether a failed attempt is run again, after a short random wait. */
export async function retryConflict(error: unknown, attempt: number): Promise<boolean> {
  const code = sqlState(error);
  const limit = code === UNIQUE_VIOLATION ? MAX_UNIQUE_ATTEMPTS : code && RETRIED.has(code) ? MAX_ATTEMPTS : 0;
  if (attempt >= limit) return false;
  // A short random wait, growing with the attempts, so that the two do not meet again at once.
  await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * 2 ** Math.min(attempt, 6)));
  return true;
}

/** Opens a pool on `url`, applies the migrations and the seed (once among the servers starting). */
export async function openPostgres(url: string, options: PostgresOptions): Promise<PostgresHandle> {
  const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 10, lock_timeout: LOCK_WAIT_MS });
  // A connection lost while idle (the server restarted) is dropped by the pool; the next query opens another.
  pool.on("error", (error) => log.error({ err: error }, "PostgreSQL : connexion inactive perdue"));
  try {
    await prepare(pool, url, options);
  } catch (error) {
    await pool.end();
    throw error;
  }
  const db = withTransactionRules(drizzle(pool, { schema: pgSchema }), { retry: retryConflict });
  return { db: db as unknown as Db, pool, close: () => pool.end() };
}

async function prepare(pool: pg.Pool, url: string, options: PostgresOptions) {
  const client = await pool.connect().catch((error: Error) => {
    // Unreachable, unknown database, refused credentials: what the person starting the shop must fix.
    throw new ConfigError(`Connexion à PostgreSQL impossible (${redactDatabaseUrl(url)}) : ${error.message}`);
  });
  try {
    // Another server's migrations may take longer than a lock's usual wait.
    await client.query("SET lock_timeout = 0");
    await client.query("SELECT pg_advisory_lock($1)", [SETUP_LOCK]);
    try {
      const setup = drizzle(client, { schema: pgSchema });
      await migrate(setup, { migrationsFolder: path.resolve(process.cwd(), "drizzle-pg") });
      await setup.transaction(async (tx) => {
        await seed(tx as unknown as DbOrTx, options);
        await followExplicitIds(tx);
      });
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [SETUP_LOCK]);
      await client.query("RESET lock_timeout");
    }
  } finally {
    client.release();
  }
}

/**
 * The seed writes some rows with their ids (product 1, packs 1 to 3): a sequence behind the
 * largest id of its column is moved to it, so the next row written without an id gets a new one.
 * A sequence ahead (rows deleted since) is left as it is: an id is never given twice.
 */
async function followExplicitIds(tx: { execute(query: ReturnType<typeof sql>): Promise<unknown> }) {
  for (const table of Object.values(pgSchema)) {
    if (!is(table, PgTable)) continue;
    const name = getTableName(table);
    for (const column of Object.values(getTableColumns(table))) {
      if (!column.generatedIdentity) continue;
      const sequence = sql`pg_get_serial_sequence(${`"${name}"`}, ${column.name})`;
      await tx.execute(
        sql`SELECT setval(${sequence}, top) FROM (SELECT max(${sql.identifier(column.name)}) AS top FROM ${sql.identifier(name)}) AS largest
            WHERE top IS NOT NULL AND top > coalesce(pg_sequence_last_value(${sequence}::regclass), 0)`,
      );
    }
  }
}
