import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb, openDatabase, type DbHandle } from "~/db/client.server";
import { dialect } from "~/db/schema";
import { rateLimits } from "~/db/schema";
import {
  createBackoff,
  createRateLimiter,
  databaseRateLimitStore,
  formatWait,
  sweepRateLimits,
} from "~/services/rate-limit.server";

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const WINDOW = 10 * MINUTE;
/** A window start: the fixed windows are aligned on multiples of their length. */
const T0 = 2_000_000 * WINDOW;

const rows = async () => await getDb().select().from(rateLimits);

beforeEach(async () => {
  await getDb().delete(rateLimits);
});

describe("createRateLimiter (sliding-window counter in the database)", () => {
  it("refuses a key once max hits are in the window; other keys are counted apart", async () => {
    const limiter = createRateLimiter({ name: "test-a", windowMs: WINDOW, max: 3 });
    await limiter.hit("x", T0);
    await limiter.hit("x", T0 + MINUTE);
    expect(await limiter.isLimited("x", T0 + MINUTE)).toBe(false);
    expect(await limiter.retryAfterSeconds("x", T0 + MINUTE)).toBe(0);
    await limiter.hit("x", T0 + 2 * MINUTE);
    expect(await limiter.isLimited("x", T0 + 2 * MINUTE)).toBe(true);
    expect(await limiter.isLimited("y", T0 + 2 * MINUTE)).toBe(false);
    // Three hits in the current window: free again once they weigh 2 (max - 1) in the next window, a third of it later.
    expect(await limiter.retryAfterSeconds("x", T0 + 2 * MINUTE)).toBe(8 * 60 + 200 + 1);
    expect(await limiter.isLimited("x", T0 + WINDOW + 200 * SECOND - 1)).toBe(true);
    expect(await limiter.isLimited("x", T0 + WINDOW + 200 * SECOND)).toBe(false);
  });

  it("weighs the previous window's hits by the share of it still inside the sliding window", async () => {
    const limiter = createRateLimiter({ name: "test-b", windowMs: WINDOW, max: 4 });
    for (let i = 0; i < 4; i++) await limiter.hit("x", T0 + 9 * MINUTE);
    await limiter.hit("x", T0 + WINDOW);
    // One more hit is allowed once 4 × (1 - elapsed/10 min) + 1 ≤ 3 (max - 1): after 5 minutes of the new window.
    expect(await limiter.isLimited("x", T0 + WINDOW)).toBe(true);
    expect(await limiter.retryAfterSeconds("x", T0 + WINDOW)).toBe(300);
    expect(await limiter.isLimited("x", T0 + WINDOW + 300 * SECOND - 1)).toBe(true);
    expect(await limiter.isLimited("x", T0 + WINDOW + 300 * SECOND)).toBe(false);
    // Two windows later nothing is left.
    expect(await limiter.isLimited("x", T0 + 2 * WINDOW + 1)).toBe(false);
  });

  it("does not discount hits on either side of a window boundary: 5 + 5 hits a second apart refuse the 11th", async () => {
    const limiter = createRateLimiter({ name: "test-edge", windowMs: WINDOW, max: 10 });
    for (let i = 0; i < 5; i++) await limiter.hit("x", T0 + WINDOW - SECOND);
    for (let i = 0; i < 5; i++) await limiter.hit("x", T0 + WINDOW + SECOND);
    expect(await limiter.isLimited("x", T0 + WINDOW + SECOND)).toBe(true);
  });

  it("keeps two rows per key at most: a write deletes the key's rows that no longer count", async () => {
    const limiter = createRateLimiter({ name: "test-c", windowMs: WINDOW, max: 100 });
    for (let w = 0; w < 5; w++) {
      await limiter.hit("x", T0 + w * WINDOW);
      await limiter.hit("x", T0 + w * WINDOW + MINUTE);
    }
    expect((await rows()).map((r) => [r.key, r.windowStart, r.count])).toEqual([
      ["test-c:x", T0 + 3 * WINDOW, 2],
      ["test-c:x", T0 + 4 * WINDOW, 2],
    ]);
  });

  it("the sweep deletes every expired row, whatever its key", async () => {
    const limiter = createRateLimiter({ name: "test-d", windowMs: WINDOW, max: 100 });
    for (let i = 0; i < 5; i++) await limiter.hit(`address-${i}`, T0);
    await limiter.hit("recent", T0 + 2 * WINDOW);
    expect(await rows()).toHaveLength(6);
    expect(await sweepRateLimits(T0 + 2 * WINDOW)).toBe(5);
    expect((await rows()).map((r) => r.key)).toEqual(["test-d:recent"]);
  });

  it("reset forgets one key, clear forgets the limiter's keys and no other limiter's", async () => {
    const a = createRateLimiter({ name: "test-e", windowMs: WINDOW, max: 1 });
    const b = createRateLimiter({ name: "test-e-bis", windowMs: WINDOW, max: 1 });
    await a.hit("x", T0);
    await a.hit("y", T0);
    await b.hit("x", T0);
    await a.reset("x");
    expect(await a.isLimited("x", T0)).toBe(false);
    expect(await a.isLimited("y", T0)).toBe(true);
    await a.clear();
    expect(await a.isLimited("y", T0)).toBe(false);
    expect(await b.isLimited("x", T0)).toBe(true);
  });

  it("counts every hit in one row per window (one upsert each)", async () => {
    const limiter = createRateLimiter({ name: "test-f", windowMs: WINDOW, max: 1000 });
    for (let i = 0; i < 250; i++) await limiter.hit("x", T0 + i);
    expect(await rows()).toEqual([
      { key: "test-f:x", windowStart: T0, count: 250, lastHitAt: T0 + 249, expiresAt: T0 + 2 * WINDOW },
    ]);
  });

  it("reserve checks and counts in one step: of 30 reservations at once with max 10, exactly 10 are granted", async () => {
    const limiter = createRateLimiter({ name: "test-reserve", windowMs: WINDOW, max: 10 });
    const results = await Promise.all(Array.from({ length: 30 }, () => limiter.reserve("x", T0 + MINUTE)));
    const granted = results.filter((r) => r.ok);
    expect(granted).toHaveLength(10);
    for (const refused of results.filter((r) => !r.ok)) expect(refused.retryAfterSeconds).toBeGreaterThan(0);
    // The refused ones are not counted: the window holds the 10 granted.
    expect((await rows()).map((r) => r.count)).toEqual([10]);
    expect(await limiter.isLimited("x", T0 + MINUTE)).toBe(true);
    // A refund gives the place back, once.
    await granted[0]!.refund();
    expect((await limiter.reserve("x", T0 + MINUTE)).ok).toBe(true);
    expect((await limiter.reserve("x", T0 + MINUTE)).ok).toBe(false);
  });

  it("reserve weighs the previous window like isLimited", async () => {
    const limiter = createRateLimiter({ name: "test-reserve-b", windowMs: WINDOW, max: 4 });
    for (let i = 0; i < 4; i++) await limiter.hit("x", T0 + 9 * MINUTE);
    // 4 × (1 - 1/10) = 3.6: a fifth hit would be past 4, until 4 × (1 - t/10) ≤ 3 at t = 2.5 minutes.
    const refused = await limiter.reserve("x", T0 + WINDOW + MINUTE);
    expect(refused).toEqual({ ok: false, retryAfterSeconds: 90 });
    expect((await limiter.reserve("x", T0 + WINDOW + 5 * MINUTE)).ok).toBe(true);
  });

  it("refuses a name that could overlap another limiter's keys", () => {
    expect(() => createRateLimiter({ name: "login:address", windowMs: WINDOW, max: 1 })).toThrow();
  });
});

describe.skipIf(dialect !== "sqlite")("two server processes on the same SQLite file", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "shop-rate-limit-"));
  const file = path.join(dir, "shared.db");
  const options = { adminUsername: "admin", adminPassword: "motdepasse-test-1" };
  let first: DbHandle;
  let second: DbHandle;
  beforeAll(async () => {
    first = await openDatabase(file, options);
    second = await openDatabase(file, options);
  });
  afterAll(async () => {
    await first.close();
    await second.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("share one counter: hits made by either count for both", async () => {
    const inFirst = createRateLimiter({
      name: "shared",
      windowMs: WINDOW,
      max: 5,
      store: databaseRateLimitStore(() => first.db),
    });
    const inSecond = createRateLimiter({
      name: "shared",
      windowMs: WINDOW,
      max: 5,
      store: databaseRateLimitStore(() => second.db),
    });
    for (let i = 0; i < 4; i++) await (i % 2 ? inFirst : inSecond).hit("203.0.113.9", T0 + i);
    expect(await inFirst.isLimited("203.0.113.9", T0 + 10)).toBe(false);
    await inSecond.hit("203.0.113.9", T0 + 10);
    expect(await inFirst.isLimited("203.0.113.9", T0 + 11)).toBe(true);
    expect(await inSecond.isLimited("203.0.113.9", T0 + 11)).toBe(true);
    expect(first.sqlite!.prepare("select count from rate_limits where key = 'shared:203.0.113.9'").get()).toEqual({ count: 5 });
    await inFirst.reset("203.0.113.9");
    expect(await inSecond.isLimited("203.0.113.9", T0 + 12)).toBe(false);
  });
});

describe("createBackoff", () => {
  it("lets the first failures through, then makes each next attempt wait 2, 4, 8... seconds, 60 at most", async () => {
    const backoff = createBackoff({ name: "test-backoff", windowMs: 15 * MINUTE, free: 3, baseSeconds: 2, maxSeconds: 60 });
    let now = 1_000_000 * 15 * MINUTE;
    const waits: number[] = [];
    for (let failure = 1; failure <= 9; failure++) {
      await backoff.hit("admin", now);
      waits.push(await backoff.retryAfterSeconds("admin", now));
      now += waits[waits.length - 1] * SECOND;
      expect(await backoff.isLimited("admin", now)).toBe(false);
    }
    expect(waits).toEqual([0, 0, 2, 4, 8, 16, 32, 60, 60]);
    expect(await backoff.isLimited("admin", now - 1)).toBe(true);
    await backoff.reset("admin");
    expect(await backoff.retryAfterSeconds("admin", now - 1)).toBe(0);
  });

  it("forgets failures older than its window", async () => {
    const backoff = createBackoff({ name: "test-backoff-b", windowMs: 15 * MINUTE, free: 3, baseSeconds: 2, maxSeconds: 60 });
    const start = 1_000_000 * 15 * MINUTE;
    for (let i = 0; i < 10; i++) await backoff.hit("admin", start);
    const later = start + 31 * MINUTE;
    await backoff.hit("admin", later);
    expect(await backoff.retryAfterSeconds("admin", later)).toBe(0);
  });
});

describe("formatWait", () => {
  it.each([
    [0, "1 seconde"],
    [1, "1 seconde"],
    [32, "32 secondes"],
    [59, "59 secondes"],
    [60, "1 minute"],
    [89, "1 minute"],
    [90, "2 minutes"],
    [601, "10 minutes"],
    [900, "15 minutes"],
  ])("%s s -> %s", (seconds, text) => {
    expect(formatWait(seconds)).toBe(text);
  });
});
