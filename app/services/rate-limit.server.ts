/**
 * Sliding-window rate limits: each limiter counts hits (failed attempts, usually) per key and
 * refuses a key once it has `max` hits in the last `windowMs` milliseconds.
 *
 * The hits are kept by a `RateLimitStore`. The default one is in memory (one server process;
 * a restart only gives a fresh window); another store (the database) can replace it without
 * changing the callers.
 */

export type RateLimitStore = {
  /** The key's hits later than `after` (ms timestamps, oldest first); older ones may be forgotten. */
  hitsAfter(key: string, after: number): number[];
  /** Records one hit at `at` (ms timestamp); hits not later than `expiredUpTo` may be forgotten. */
  add(key: string, at: number, expiredUpTo: number): void;
  delete(key: string): void;
  clear(): void;
};

export type RateLimiter = {
  /** True when the key has used up its attempts for now. */
  isLimited(key: string, now?: number): boolean;
  /** Counts one attempt for the key. */
  hit(key: string, now?: number): void;
  /** Forgets the key's attempts (after a success, for instance). */
  reset(key: string): void;
  /** Seconds until the key is allowed again; 0 when it is allowed now. */
  retryAfterSeconds(key: string, now?: number): number;
  /** Forgets every key (for tests). */
  clear(): void;
};

const DEFAULT_MAX_KEYS = 10_000;

/** Hits per key in a Map; past `maxKeys` keys, expired ones are dropped, then the oldest keys. */
export function memoryRateLimitStore(maxKeys = DEFAULT_MAX_KEYS): RateLimitStore {
  const hits = new Map<string, number[]>();

  function recent(key: string, after: number): number[] {
    const list = (hits.get(key) ?? []).filter((t) => t > after);
    if (list.length === 0) hits.delete(key);
    else hits.set(key, list);
    return list;
  }

  function makeRoom(after: number) {
    if (hits.size < maxKeys) return;
    for (const key of [...hits.keys()]) recent(key, after);
    // Still too many: forget the oldest keys (a Map keeps insertion order).
    for (const key of hits.keys()) {
      if (hits.size < maxKeys) break;
      hits.delete(key);
    }
  }

  return {
    hitsAfter: (key, after) => [...recent(key, after)],
    add(key, at, expiredUpTo) {
      makeRoom(expiredUpTo);
      const list = recent(key, expiredUpTo);
      list.push(at);
      hits.set(key, list);
    },
    delete: (key) => void hits.delete(key),
    clear: () => hits.clear(),
  };
}

export function createRateLimiter({
  windowMs,
  max,
  store = memoryRateLimitStore(),
}: {
  windowMs: number;
  /** Hits allowed in the window; the next attempt is refused. */
  max: number;
  store?: RateLimitStore;
}): RateLimiter {
  const waitMs = (key: string, now: number) => {
    const list = store.hitsAfter(key, now - windowMs);
    // Allowed again when enough hits have left the window.
    return list.length >= max ? list[list.length - max] + windowMs - now : 0;
  };
  return {
    isLimited: (key, now = Date.now()) => waitMs(key, now) > 0,
    hit: (key, now = Date.now()) => store.add(key, now, now - windowMs),
    reset: (key) => store.delete(key),
    retryAfterSeconds: (key, now = Date.now()) => Math.max(0, Math.ceil(waitMs(key, now) / 1000)),
    clear: () => store.clear(),
  };
}

/** '1 minute', '15 minutes': the wait, rounded up to whole minutes, for the French messages. */
export function waitInMinutes(retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `${minutes} ${minutes > 1 ? "minutes" : "minute"}`;
}
