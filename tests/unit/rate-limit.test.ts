import { describe, expect, it } from "vitest";
import { createRateLimiter, memoryRateLimitStore, waitInMinutes } from "~/services/rate-limit.server";

const MINUTE = 60_000;

describe("createRateLimiter", () => {
  it("refuses a key after max hits in the window, until the oldest hit leaves it", () => {
    const limiter = createRateLimiter({ windowMs: 15 * MINUTE, max: 3 });
    const t0 = 1_000_000;
    limiter.hit("a", t0);
    limiter.hit("a", t0 + MINUTE);
    expect(limiter.isLimited("a", t0 + MINUTE)).toBe(false);
    expect(limiter.retryAfterSeconds("a", t0 + MINUTE)).toBe(0);
    limiter.hit("a", t0 + 2 * MINUTE);
    expect(limiter.isLimited("a", t0 + 2 * MINUTE)).toBe(true);
    // Free again when the first hit is 15 minutes old.
    expect(limiter.retryAfterSeconds("a", t0 + 2 * MINUTE)).toBe(13 * 60);
    expect(limiter.isLimited("a", t0 + 15 * MINUTE - 1)).toBe(true);
    expect(limiter.isLimited("a", t0 + 15 * MINUTE)).toBe(false);
    // Other keys are counted apart.
    expect(limiter.isLimited("b", t0 + 2 * MINUTE)).toBe(false);
  });

  it("rounds the wait up to whole seconds", () => {
    const limiter = createRateLimiter({ windowMs: 10_000, max: 1 });
    limiter.hit("k", 0);
    expect(limiter.retryAfterSeconds("k", 500)).toBe(10);
    expect(limiter.retryAfterSeconds("k", 9_001)).toBe(1);
    expect(limiter.retryAfterSeconds("k", 10_000)).toBe(0);
  });

  it("reset forgets one key, clear forgets them all", () => {
    const limiter = createRateLimiter({ windowMs: MINUTE, max: 1 });
    limiter.hit("a", 0);
    limiter.hit("b", 0);
    limiter.reset("a");
    expect(limiter.isLimited("a", 1)).toBe(false);
    expect(limiter.isLimited("b", 1)).toBe(true);
    limiter.clear();
    expect(limiter.isLimited("b", 1)).toBe(false);
  });

  it("keeps a bounded number of keys in memory, forgetting expired ones first, then the oldest", () => {
    const store = memoryRateLimitStore(3);
    const limiter = createRateLimiter({ windowMs: MINUTE, max: 1, store });
    limiter.hit("old", 0);
    limiter.hit("a", 2 * MINUTE);
    limiter.hit("b", 2 * MINUTE);
    // Full: the expired key goes first.
    limiter.hit("c", 2 * MINUTE);
    expect(store.hitsAfter("a", 0)).toEqual([2 * MINUTE]);
    expect(store.hitsAfter("old", -MINUTE)).toEqual([]);
    // Full of live keys: the oldest one is forgotten.
    limiter.hit("d", 2 * MINUTE);
    expect(limiter.isLimited("a", 2 * MINUTE)).toBe(false);
    expect(limiter.isLimited("d", 2 * MINUTE)).toBe(true);
  });
});

describe("waitInMinutes", () => {
  it.each([
    [0, "1 minute"],
    [59, "1 minute"],
    [61, "2 minutes"],
    [900, "15 minutes"],
  ])("%s s -> %s", (seconds, text) => {
    expect(waitInMinutes(seconds)).toBe(text);
  });
});
