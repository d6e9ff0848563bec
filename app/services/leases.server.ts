import { randomBytes } from "node:crypto";
import os from "node:os";
import { and, eq, sql } from "drizzle-orm";
import { getDb, type DbOrTx } from "~/db/client.server";
import { param, prepared } from "~/db/prepared.server";
import { leases } from "~/db/schema";

/** This process, as a lease holder. */
export const PROCESS_HOLDER = `${os.hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;

/**
 * Takes or renews the lease `name` for `ttlMs`: true when this holder has it now (it was
 * free, expired, or already this holder's). One atomic statement, so two processes asking at
 * once never both get it. A lease another holder has for a while yet is seen with a read first:
 * the processes that wait for it (each wakes at every email queued) take no write lock, which
 * every other write of the shop would wait for on SQLite.
 */
export async function acquireLease(name: string, ttlMs: number, holder = PROCESS_HOLDER, now = Date.now()): Promise<boolean> {
  const { current, take } = leaseQueries(getDb());
  const [held] = await current.execute({ name });
  if (held && held.holder !== holder && held.expiresAt > now) return false;
  const result = await take.execute({ name, holder, now, expiresAt: now + ttlMs });
  return result.length === 1;
}

/** Gives the lease up (at shutdown), so another process need not wait for it to expire. */
export async function releaseLease(name: string, holder = PROCESS_HOLDER) {
  await leaseQueries(getDb()).release.execute({ name, holder });
}

/**
 * A lease's three queries, prepared once per database handle (db/prepared.server.ts): every
 * payment start takes and gives back its order's lease (order-lock.server.ts).
 */
const leaseQueries = (db: DbOrTx) =>
  prepared(db, "leases", () => ({
    current: db
      .select({ holder: leases.holder, expiresAt: leases.expiresAt })
      .from(leases)
      .where(eq(leases.name, sql.placeholder("name")))
      .limit(1)
      .prepare(),
    take: db
      .insert(leases)
      .values({ name: sql.placeholder("name"), holder: sql.placeholder("holder"), expiresAt: sql.placeholder("expiresAt") })
      .onConflictDoUpdate({
        target: leases.name,
        set: { holder: param<string>("holder"), expiresAt: param<number>("expiresAt") },
        setWhere: sql`${leases.holder} = ${sql.placeholder("holder")} or ${leases.expiresAt} <= ${sql.placeholder("now")}`,
      })
      .returning({ name: leases.name })
      .prepare(),
    release: db
      .delete(leases)
      .where(and(eq(leases.name, sql.placeholder("name")), eq(leases.holder, sql.placeholder("holder"))))
      .prepare(),
  }));
