import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { leases } from "~/db/schema";
import { acquireLease } from "~/services/leases.server";
import { orderLockName, withOrderLock } from "~/services/payments/order-lock.server";

/** The payment start lock lives in the database: what one process holds, every other sees. */

async function lockRow(orderId: number) {
  return (
    await getDb()
      .select()
      .from(leases)
      .where(eq(leases.name, orderLockName(orderId)))
      .limit(1)
  )[0];
}

describe("the payment start lock", () => {
  it("refuses a second start of the same order with 409 resource_already_exists, not another order's", async () => {
    let release!: () => void;
    const first = withOrderLock(41, () => new Promise<string>((resolve) => (release = () => resolve("premier"))));
    await expect(withOrderLock(41, async () => "second")).rejects.toMatchObject({ status: 409, code: "resource_already_exists" });
    await expect(withOrderLock(42, async () => "autre commande")).resolves.toBe("autre commande");
    release();
    await expect(first).resolves.toBe("premier");
    // Given back at the end: the row is gone and the next start goes through.
    expect(await lockRow(41)).toBeUndefined();
    await expect(withOrderLock(41, async () => "ensuite")).resolves.toBe("ensuite");
  });

  it("is given back when the start fails", async () => {
    await expect(withOrderLock(43, () => Promise.reject(new Error("Stripe indisponible")))).rejects.toThrow(
      "Stripe indisponible",
    );
    expect(await lockRow(43)).toBeUndefined();
  });

  it("held by another process, refuses; once that process died and the lock expired, it is taken over", async () => {
    // Another process took the lock a moment ago.
    expect(await acquireLease(orderLockName(44), 60_000, "autre-hote:1234:abcd")).toBe(true);
    await expect(withOrderLock(44, async () => "refusé")).rejects.toMatchObject({ status: 409 });
    // It died: nobody renews or releases; its lock expires.
    await getDb()
      .update(leases)
      .set({ expiresAt: Date.now() - 1 })
      .where(eq(leases.name, orderLockName(44)));
    await expect(withOrderLock(44, async () => "repris")).resolves.toBe("repris");
    expect(await lockRow(44)).toBeUndefined();
  });
});
