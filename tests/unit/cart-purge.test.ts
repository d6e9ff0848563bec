import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { getDb } from "~/db/client.server";
import { cartLines, carts } from "~/db/schema";
import { purgeStaleCarts } from "~/services/cart-purge.server";
import { createSubscriptionScheduler, type SubscriptionScheduler } from "~/services/subscriptions/scheduler.server";
import { log } from "~/log.server";

/**
 * Stale carts deleted by the scheduler: the empty ones a day after their last change, every
 * other one 30 days after; the carts in use stay.
 */

const DAY = 86_400_000;
const NOW = new Date("2026-06-15T12:00:00.000Z");
const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();

async function cart(id: string, updatedMsAgo: number, lines: number) {
  const at = ago(updatedMsAgo);
  await getDb().insert(carts).values({ id, createdAt: at, updatedAt: at });
  for (let i = 0; i < lines; i++) await getDb().insert(cartLines).values({ cartId: id, productId: 1, quantity: 1 });
}

const remaining = async () => (await getDb().select({ id: carts.id }).from(carts)).map((c) => c.id).sort();

beforeEach(async () => {
  await getDb().delete(cartLines);
  await getDb().delete(carts);
});

const schedulers: SubscriptionScheduler[] = [];
afterEach(async () => {
  await Promise.all(schedulers.splice(0).map((s) => s.stop()));
  vi.restoreAllMocks();
});

describe("stale carts", () => {
  it("deletes empty carts after a day and abandoned ones after 30 days, with their lines", async () => {
    await cart("empty-fresh", DAY - 60_000, 0);
    await cart("empty-old", DAY + 60_000, 0);
    await cart("filled-recent", 29 * DAY, 1);
    await cart("filled-abandoned", 30 * DAY + 60_000, 2);
    expect(await purgeStaleCarts(NOW)).toBe(2);
    expect(await remaining()).toEqual(["empty-fresh", "filled-recent"]);
    const lines = await getDb().select({ cartId: cartLines.cartId }).from(cartLines);
    expect(lines.map((l) => l.cartId)).toEqual(["filled-recent"]);
    // Nothing left to delete: nothing happens.
    expect(await purgeStaleCarts(NOW)).toBe(0);
  });

  it("is done by the scheduler's tick at the time it is given, with one line in the log", async () => {
    await cart("empty-old", 2 * DAY, 0);
    await cart("filled-recent", DAY, 1);
    const info = vi.spyOn(log, "info");
    const scheduler = createSubscriptionScheduler({ holder: `test-${Math.random()}` });
    schedulers.push(scheduler);
    // A day earlier, the empty cart was not a day old yet.
    expect(await scheduler.tick(new Date(NOW.getTime() - DAY))).toEqual({ holding: true, queued: 0 });
    expect(await remaining()).toEqual(["empty-old", "filled-recent"]);
    expect(info).not.toHaveBeenCalled();
    await scheduler.tick(NOW);
    expect(await remaining()).toEqual(["filled-recent"]);
    expect(info).toHaveBeenCalledTimes(1);
    expect(info.mock.calls[0][0]).toMatch(/^Paniers supprimés : 1 \(/);
  });
});
