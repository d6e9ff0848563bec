import { randomBytes } from "node:crypto";
import os from "node:os";
import { and, eq, sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
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
  const db = getDb();
  const [current] = await db
    .select({ holder: leases.holder, expiresAt: leases.expiresAt })
    .from(leases)
    .where(eq(leases.name, name))
    .limit(1);
  if (current && current.holder !== holder && current.expiresAt > now) return false;
  const result = await db
    .insert(leases)
    .values({ name, holder, expiresAt: now + ttlMs })
    .onConflictDoUpdate({
      target: leases.name,
      set: { holder, expiresAt: now + ttlMs },
      setWhere: sql`${leases.holder} = ${holder} or ${leases.expiresAt} <= ${now}`,
    })
    .returning({ name: leases.name });
  return result.length === 1;
}

/** Gives the lease up (at shutdown), so another process need not wait for it to expire. */
export async function releaseLease(name: string, holder = PROCESS_HOLDER) {
  await getDb()
    .delete(leases)
    .where(and(eq(leases.name, name), eq(leases.holder, holder)));
}
