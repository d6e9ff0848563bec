import { BUSY_CODE, BUSY_MESSAGE, BUSY_RETRY_AFTER_SECONDS } from "~/lib/busy";
import { ShopError } from "~/lib/shop-error";
import { ConnectionWaitError } from "./sqlite-async.server";

/**
 * Whether a failed query failed because the database is saturated, not because of the request:
 * - SQLite: another process held the file's write lock longer than the busy timeout
 *   (`SQLITE_BUSY…`, sqlite-async.server.ts), or a query of this process waited too long for the
 *   connection (ConnectionWaitError);
 * - PostgreSQL: a lock waited for longer than `lock_timeout` (55P03), or a transaction given up
 *   again and again (40001, 40P01) once its retries are spent (postgres.server.ts).
 * The transaction that failed was rolled back: nothing of it was written. drizzle wraps the
 * driver's error in its `cause`, which is followed.
 */
const POSTGRES_BUSY = new Set(["55P03", "40001", "40P01"]);

export function isDatabaseBusy(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof ConnectionWaitError) return true;
    const code = (e as { code?: unknown }).code;
    if (typeof code !== "string") continue;
    if (code.startsWith("SQLITE_BUSY") || POSTGRES_BUSY.has(code)) return true;
  }
  return false;
}

/** The refusal a saturated database gives a request: 503, code `busy`, the French sentence, Retry-After. */
export function busyRefusal(): ShopError {
  return new ShopError(503, BUSY_CODE, BUSY_MESSAGE, { retryAfterSeconds: BUSY_RETRY_AFTER_SECONDS });
}
