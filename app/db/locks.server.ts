import { sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "./client.server";
import { dialect } from "./schema";

/**
 * What a transaction that reads then writes takes so that another one, on any server, cannot
 * read the same thing meanwhile. On SQLite nothing is needed: BEGIN IMMEDIATE gives the file's
 * write lock to one transaction at a time (sqlite-async.server.ts). On PostgreSQL transactions
 * run side by side (READ COMMITTED), and each rule serialises only what it needs, until its
 * transaction commits or rolls back:
 * - `lockFor`: a lock per purpose and key (the trial rule per email, a subscription…), for a
 *   rule that checks rows that do not exist yet;
 * - `lockRows`: the rows read then written (SELECT … FOR UPDATE);
 * - a write that checks and changes in one statement (`UPDATE … WHERE status = 'unpaid'`,
 *   `stock = stock - n`, the invoice counter's upsert) locks its row by itself, and a unique
 *   index refuses what must exist once (`INSERT … ON CONFLICT DO NOTHING`).
 * The list of the shop's transactions and what each takes is in docs/architecture.md.
 */

/** The purposes of `lockFor`: one name per rule, so that two rules never wait for each other. */
export type LockPurpose = "trial-email" | "cart" | "user" | "admin-user" | "subscription";

type PgExecutor = { execute(query: SQL): Promise<unknown> };

const onPostgres = dialect === "postgresql";

/** Waits for the lock of `purpose` and `key` (a text or a number), held until the transaction ends. */
export async function lockFor(tx: DbOrTx, purpose: LockPurpose, key: string | number) {
  if (!onPostgres) return;
  await (tx as unknown as PgExecutor).execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`${purpose}:${key}`}, 0))`);
}

/** Locks the rows of `table` that `where` selects (SELECT … FOR UPDATE), until the transaction ends. */
export async function lockRows(tx: DbOrTx, table: object, where: SQL | undefined) {
  if (!onPostgres || !where) return;
  await (tx as unknown as PgExecutor).execute(sql`SELECT 1 FROM ${table} WHERE ${where} FOR UPDATE`);
}
