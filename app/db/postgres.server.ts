import path from "node:path";
import { getTableColumns, getTableName, is, sql } from "drizzle-orm";
import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
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
 * - Transactions run one at a time, as on SQLite (whose BEGIN IMMEDIATE takes the file's write
 *   lock): each begins by taking one transaction-level advisory lock, shared by every server, and
 *   holds it until its commit or rollback. A service that reads then writes in a transaction is
 *   therefore safe on both engines, and PostgreSQL never has to give up one of two transactions
 *   that read and write the same rows (SERIALIZABLE isolation did, for most concurrent orders:
 *   its predicate locks on small tables cover the whole table). Statements outside transactions
 *   run at once, on the pool's other connections. Should PostgreSQL still give up a transaction
 *   (SQLSTATE 40001, or 40P01 for a deadlock with a statement outside one), it is run again from
 *   the start, up to 10 times; its after-commit effects only run for the attempt that committed
 *   (transactions.server.ts).
 */

/** The advisory lock's key for migrations and seed ("shop" in ASCII). */
const SETUP_LOCK = 0x73686f70;
/** The advisory lock every transaction takes first ("shpw"), and how long it is waited for. */
const WRITE_LOCK = 0x73687077;
const LOCK_WAIT = "5s";
const MAX_ATTEMPTS = 10;
const RETRIED = new Set(["40001", "40P01"]);

export type PostgresHandle = { db: Db; pool: pg.Pool; close(): Promise<void> };

export type PostgresOptions = { adminUsername: string; adminPassword: string; poolSize?: number };

export function isSerializationFailure(error: unknown): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && RETRIED.has(code)) return true;
  }
  return false;
}

async function retrySerializationFailure(error: unknown, attempt: number): Promise<boolean> {
  if (attempt >= MAX_ATTEMPTS || !isSerializationFailure(error)) return false;
  // A short random wait, growing with the attempts, so that the two do not meet again at once.
  await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * 2 ** Math.min(attempt, 6)));
  return true;
}

/** Opens a pool on `url`, applies the migrations and the seed (once among the servers starting). */
export async function openPostgres(url: string, options: PostgresOptions): Promise<PostgresHandle> {
  const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 10 });
  // A connection lost while idle (the server restarted) is dropped by the pool; the next query opens another.
  pool.on("error", (error) => log.error({ err: error }, "PostgreSQL : connexion inactive perdue"));
  try {
    await prepare(pool, url, options);
  } catch (error) {
    await pool.end();
    throw error;
  }
  const db = withTransactionRules(oneTransactionAtATime(drizzle(pool, { schema: pgSchema })), {
    retry: retrySerializationFailure,
  });
  return { db: db as unknown as Db, pool, close: () => pool.end() };
}

/**
 * Each transaction of `db` first waits for the write lock, which its commit or rollback
 * releases; at most LOCK_WAIT (as SQLite's busy_timeout), then it fails (SQLSTATE 55P03) rather
 * than keep its request waiting. One round trip: the wait's limit and the lock in one statement.
 */
function oneTransactionAtATime<D extends NodePgDatabase<typeof pgSchema>>(db: D): D {
  const begin = db.transaction.bind(db);
  db.transaction = ((run, config) =>
    begin(async (tx) => {
      await tx.execute(sql.raw(`SELECT set_config('lock_timeout', '${LOCK_WAIT}', true), pg_advisory_xact_lock(${WRITE_LOCK})`));
      return run(tx);
    }, config)) as D["transaction"];
  return db;
}

async function prepare(pool: pg.Pool, url: string, options: PostgresOptions) {
  const client = await pool.connect().catch((error: Error) => {
    // Unreachable, unknown database, refused credentials: what the person starting the shop must fix.
    throw new ConfigError(`Connexion à PostgreSQL impossible (${redactDatabaseUrl(url)}) : ${error.message}`);
  });
  try {
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
