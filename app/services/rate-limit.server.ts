import { and, eq, gt, gte, lte, sql } from "drizzle-orm";
import { getDb, type Db } from "~/db/client.server";
import { rateLimits } from "~/db/schema";
import { countRateLimitRefusal } from "~/services/observability/metrics.server";

/**
 * Rate limits whose counters live in the database (table `rate_limits`), so that every
 * server process on the same database shares them.
 *
 * Algorithm: sliding-window counter, the approximation of a sliding window made of two fixed
 * windows. Each key has one row per fixed window of `windowMs` (its start aligned on
 * multiples of `windowMs`); the hits of the last `windowMs` are estimated as
 *
 *   previous window's count × (share of the previous window still inside the sliding one)
 *   + current window's count
 *
 * which assumes the previous window's hits were spread evenly. A key is refused once the
 * estimate is over `max - 1`, i.e. once the next hit could be past `max` (so that hits just
 * before and after a window boundary are not discounted). At most two rows per key, whatever `max`.
 *
 * Writes are single atomic upserts (`INSERT ... ON CONFLICT DO UPDATE SET count = count + 1`),
 * so concurrent processes never lose a hit. Checking then counting (`isLimited`, then `hit`) is
 * two statements: a few concurrent requests may all pass the check at the limit (at most one
 * per request in flight), which most limits tolerate. `reserve` checks and counts in one step
 * instead: the upsert returns the window's new count, so each concurrent request knows its
 * place, and a request past the limit takes its hit back.
 *
 * Purge: a write deletes the key's rows that no longer count; every SWEEP_EVERY-th write of a
 * process also deletes every expired row (an indexed range delete). No timers.
 *
 * Every function awaits the database.
 *
 * Why not rate-limiter-flexible (its SQLite store bypasses this process's connection lock, its
 * windows are fixed, it has no delay counted from the last failure): docs/architecture.md,
 * « Écrit à la main ou bibliothèque ».
 */

export type WindowRow = { windowStart: number; count: number; lastHitAt: number };

export type RateLimitStore = {
  /** The key's rows whose window starts at or after `from`. */
  windows(key: string, from: number): Promise<WindowRow[]>;
  /** Counts one hit at `at` in the key's window starting at `windowStart`, which counts until `expiresAt`; returns the window's new count. */
  increment(key: string, windowStart: number, at: number, expiresAt: number): Promise<number>;
  /** Takes one hit back from the key's window starting at `windowStart` (never below 0). */
  decrement(key: string, windowStart: number): Promise<void>;
  /** Forgets one key. */
  delete(key: string): Promise<void>;
  /** Forgets every key that starts with `prefix` (tests). */
  deletePrefix(prefix: string): Promise<void>;
};

/** Every this many writes, a process deletes all expired rows. */
const SWEEP_EVERY = 200;
let writesSinceSweep = 0;

/** The store's queries, prepared once per database handle (building a query costs more than running it). */
function prepareQueries(db: Db) {
  const key = sql.placeholder("key");
  return {
    windows: db
      .select({ windowStart: rateLimits.windowStart, count: rateLimits.count, lastHitAt: rateLimits.lastHitAt })
      .from(rateLimits)
      .where(and(eq(rateLimits.key, key), gte(rateLimits.windowStart, sql.placeholder("from"))))
      .prepare(),
    upsert: db
      .insert(rateLimits)
      .values({
        key,
        windowStart: sql.placeholder("windowStart"),
        count: 1,
        lastHitAt: sql.placeholder("at"),
        expiresAt: sql.placeholder("expiresAt"),
      })
      .onConflictDoUpdate({
        target: [rateLimits.key, rateLimits.windowStart],
        set: {
          count: sql`${rateLimits.count} + 1`,
          lastHitAt: sql`case when excluded.last_hit_at > ${rateLimits.lastHitAt} then excluded.last_hit_at else ${rateLimits.lastHitAt} end`,
        },
      })
      .returning({ count: rateLimits.count })
      .prepare(),
    decrement: db
      .update(rateLimits)
      .set({ count: sql`${rateLimits.count} - 1` })
      .where(and(eq(rateLimits.key, key), eq(rateLimits.windowStart, sql.placeholder("windowStart")), gt(rateLimits.count, 0)))
      .prepare(),
    purgeKey: db
      .delete(rateLimits)
      .where(and(eq(rateLimits.key, key), lte(rateLimits.expiresAt, sql.placeholder("now"))))
      .prepare(),
    deleteKey: db.delete(rateLimits).where(eq(rateLimits.key, key)).prepare(),
  };
}

const prepared = new WeakMap<Db, ReturnType<typeof prepareQueries>>();

function queries(db: Db) {
  let found = prepared.get(db);
  if (!found) {
    found = prepareQueries(db);
    prepared.set(db, found);
  }
  return found;
}

/** The store on the shop's database (`getDb()`, read at each call), or on the handle `db` returns. */
export function databaseRateLimitStore(db: () => Db = getDb): RateLimitStore {
  return {
    windows: async (key, from) => await queries(db()).windows.execute({ key, from }),
    async increment(key, windowStart, at, expiresAt) {
      const handle = db();
      const q = queries(handle);
      const [row] = await q.upsert.execute({ key, windowStart, at, expiresAt });
      await q.purgeKey.execute({ key, now: at });
      if (++writesSinceSweep >= SWEEP_EVERY) {
        writesSinceSweep = 0;
        await sweepRateLimits(at, handle);
      }
      return row?.count ?? 1;
    },
    decrement: async (key, windowStart) => void (await queries(db()).decrement.execute({ key, windowStart })),
    delete: async (key) => void (await queries(db()).deleteKey.execute({ key })),
    deletePrefix: async (prefix) =>
      void (await db()
        .delete(rateLimits)
        .where(sql`substr(${rateLimits.key}, 1, ${prefix.length}) = ${prefix}`)),
  };
}

/** Deletes every row that no longer counts; returns how many. */
export async function sweepRateLimits(now = Date.now(), db: Db = getDb()): Promise<number> {
  const deleted = await db.delete(rateLimits).where(lte(rateLimits.expiresAt, now)).returning({ key: rateLimits.key });
  return deleted.length;
}

// ---------------------------------------------------------------------------------------------
// Limiter: at most `max` hits per sliding window.

export type RateLimiter = {
  /** The limiter's name (its keys' prefix), the label of its refusals in the metrics. */
  name: string;
  /** True when the key has used up its attempts for now. */
  isLimited(key: string, now?: number): Promise<boolean>;
  /** Counts one attempt for the key. */
  hit(key: string, now?: number): Promise<void>;
  /**
   * Checks and counts in one step: counts one attempt when the key has one left (`ok`, and
   * `refund` takes it back, after a success for instance), else counts nothing and says when
   * to try again. Of concurrent reservations at the limit, never more than the allowance pass.
   */
  reserve(key: string, now?: number): Promise<Reservation>;
  /** Forgets the key's attempts (after a success, for instance). */
  reset(key: string): Promise<void>;
  /** Seconds until the key is allowed again; 0 when it is allowed now. */
  retryAfterSeconds(key: string, now?: number): Promise<number>;
  /** Forgets every key of this limiter (tests). */
  clear(): Promise<void>;
};

export type Reservation = { ok: true; refund: () => Promise<void> } | { ok: false; retryAfterSeconds: number };

type Counts = { previous: number; current: number; elapsed: number; lastHitAt: number | null };

const NAME = /^[a-z][a-z0-9-]*$/;

/** The key's counts in the current and previous fixed windows. */
async function readCounts(store: RateLimitStore, key: string, windowMs: number, now: number): Promise<Counts> {
  const currentStart = Math.floor(now / windowMs) * windowMs;
  const rows = await store.windows(key, currentStart - windowMs);
  let previous = 0;
  let current = 0;
  let lastHitAt: number | null = null;
  for (const row of rows) {
    if (row.windowStart === currentStart) current += row.count;
    else if (row.windowStart === currentStart - windowMs) previous += row.count;
    else continue; // a later window: only with a clock that went back
    lastHitAt = Math.max(lastHitAt ?? row.lastHitAt, row.lastHitAt);
  }
  return { previous, current, elapsed: now - currentStart, lastHitAt };
}

/** The sliding-window estimate of the hits in the last `windowMs`. */
function estimate({ previous, current, elapsed }: Counts, windowMs: number): number {
  return (previous * (windowMs - elapsed)) / windowMs + current;
}

const EPSILON = 1e-9;

/** Milliseconds until one more hit is allowed (the estimate at most `max - 1`, no new hits); 0 when it is now. */
function waitMs(counts: Counts, windowMs: number, max: number): number {
  const { previous, current, elapsed } = counts;
  const allowed = max - 1;
  if (estimate(counts, windowMs) <= allowed + EPSILON) return 0;
  if (current > allowed) {
    // Not before the next window, where this window's count fades out in turn:
    // current × (windowMs - t) / windowMs ≤ allowed once t ≥ windowMs × (1 - allowed / current).
    return windowMs - elapsed + Math.ceil(windowMs * (1 - allowed / current));
  }
  // previous × (windowMs - t) / windowMs + current ≤ allowed once t ≥ windowMs - windowMs × (allowed - current) / previous.
  return Math.max(1, Math.ceil(windowMs - (windowMs * (allowed - current)) / previous) - elapsed);
}

/** The store's key for a limiter's key: one namespace per limiter. */
function storeKeyer(name: string) {
  if (!NAME.test(name)) throw new Error(`rate limit name ${JSON.stringify(name)}: lower-case letters, digits and dashes`);
  return (key: string) => `${name}:${key}`;
}

export function createRateLimiter({
  name,
  windowMs,
  max,
  store = databaseRateLimitStore(),
}: {
  /** Unique per limiter (it prefixes the keys in the table). */
  name: string;
  windowMs: number;
  /** Hits allowed in the window; the next attempt is refused. */
  max: number;
  store?: RateLimitStore;
}): RateLimiter {
  const storeKey = storeKeyer(name);
  const wait = async (key: string, now: number) => waitMs(await readCounts(store, storeKey(key), windowMs, now), windowMs, max);
  return {
    name,
    isLimited: async (key, now = Date.now()) => (await wait(key, now)) > 0,
    async hit(key, now = Date.now()) {
      const start = Math.floor(now / windowMs) * windowMs;
      await store.increment(storeKey(key), start, now, start + 2 * windowMs);
    },
    async reserve(key, now = Date.now()) {
      const start = Math.floor(now / windowMs) * windowMs;
      // The upsert's count is this hit's place in its window, whatever the other requests do.
      const current = await store.increment(storeKey(key), start, now, start + 2 * windowMs);
      const { previous, elapsed } = await readCounts(store, storeKey(key), windowMs, now);
      const refund = () => store.decrement(storeKey(key), start);
      if (estimate({ previous, current, elapsed, lastHitAt: null }, windowMs) <= max + EPSILON) return { ok: true, refund };
      await refund();
      countRateLimitRefusal(name);
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((await wait(key, now)) / 1000)) };
    },
    reset: async (key) => await store.delete(storeKey(key)),
    retryAfterSeconds: async (key, now = Date.now()) => Math.ceil((await wait(key, now)) / 1000),
    clear: async () => await store.deletePrefix(storeKey("")),
  };
}

// ---------------------------------------------------------------------------------------------
// Backoff: a growing delay after repeated failures, never a lock.

/**
 * The first `free` failures of a key (in the sliding window) cost nothing; after the n-th
 * failure (n ≥ free) the next attempt must wait min(baseSeconds × 2^(n - free), maxSeconds)
 * from that failure. Attempts refused during the wait are not failures: whoever comes after
 * the wait gets a real answer.
 */
export function createBackoff({
  name,
  windowMs,
  free,
  baseSeconds,
  maxSeconds,
  store = databaseRateLimitStore(),
}: {
  name: string;
  windowMs: number;
  free: number;
  baseSeconds: number;
  maxSeconds: number;
  store?: RateLimitStore;
}): RateLimiter {
  const limiter = createRateLimiter({ name, windowMs, max: Number.MAX_SAFE_INTEGER, store });
  const storeKey = storeKeyer(name);
  const wait = async (key: string, now: number) => {
    const counts = await readCounts(store, storeKey(key), windowMs, now);
    const failures = Math.ceil(estimate(counts, windowMs) - 1e-9);
    if (failures < free || counts.lastHitAt === null) return 0;
    const delayMs = Math.min(baseSeconds * 2 ** (failures - free), maxSeconds) * 1000;
    return Math.max(0, counts.lastHitAt + delayMs - now);
  };
  return {
    ...limiter,
    isLimited: async (key, now = Date.now()) => (await wait(key, now)) > 0,
    retryAfterSeconds: async (key, now = Date.now()) => Math.ceil((await wait(key, now)) / 1000),
  };
}

/** '45 secondes', '1 minute', '15 minutes': the wait, for the French messages (from 60 s on, in rounded minutes; Retry-After has the seconds). */
export function formatWait(retryAfterSeconds: number): string {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  if (seconds < 60) return `${seconds} ${seconds > 1 ? "secondes" : "seconde"}`;
  const minutes = Math.round(seconds / 60);
  return `${minutes} ${minutes > 1 ? "minutes" : "minute"}`;
}
