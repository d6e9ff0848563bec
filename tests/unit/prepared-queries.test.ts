import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { orders, siteSettings } from "~/db/schema";
import { findInvoice } from "~/services/invoices.server";
import { findOrder, findOrderItems } from "~/services/orders/find.server";
import { markOrderPaid } from "~/services/payments/payment-state.server";
import { getSettings } from "~/services/settings.server";
import { createTestOrder } from "./payments-fixtures";

/**
 * The order and the settings are read through queries prepared once per database handle: each
 * read still gives the row as it is now, and a transaction reads its own writes (its handle, not
 * the process's, which would wait for the transaction's end).
 */
describe("the prepared reads of an order and of the settings", () => {
  it("give each order its own row, and the row as it is now", async () => {
    const first = await createTestOrder({ email: "premiere@example.fr" });
    const second = await createTestOrder({ email: "seconde@example.fr" });
    expect((await findOrder(first))?.customerEmail).toBe("premiere@example.fr");
    expect((await findOrder(second))?.customerEmail).toBe("seconde@example.fr");
    expect(await findOrder(987_654_321)).toBeUndefined();
    await getDb().update(orders).set({ customerEmail: "changee@example.fr" }).where(eq(orders.id, first));
    expect((await findOrder(first))?.customerEmail).toBe("changee@example.fr");
    // Its lines and its invoice, each its own.
    expect((await findOrderItems(first)).map((item) => item.orderId)).toEqual([first]);
    expect(await findOrderItems(987_654_321)).toEqual([]);
    expect(await findInvoice(first, "invoice")).toBeUndefined();
    expect(await markOrderPaid(first, { paymentIntentId: "pi_test_prepared_1" })).toBe(true);
    expect(await markOrderPaid(second, { paymentIntentId: "pi_test_prepared_2" })).toBe(true);
    const [one, two] = [await findInvoice(first, "invoice"), await findInvoice(second, "invoice")];
    expect(one?.orderId).toBe(first);
    expect(two?.orderId).toBe(second);
    expect(two!.sequence).toBe(one!.sequence + 1);
    expect(await findInvoice(first, "credit_note")).toBeUndefined();
  });

  it("inside a transaction, see its writes at once, and nothing of them after a rollback", async () => {
    const id = await createTestOrder();
    const before = await getSettings();
    await expect(
      getDb().transaction(async (tx) => {
        await tx.update(orders).set({ paymentStatus: "paid" }).where(eq(orders.id, id));
        await tx.update(siteSettings).set({ siteName: "Atelier Lumière" }).where(eq(siteSettings.id, 1));
        expect((await findOrder(id, tx))?.paymentStatus).toBe("paid");
        expect((await getSettings(tx)).siteName).toBe("Atelier Lumière");
        throw new Error("annulée");
      }),
    ).rejects.toThrow("annulée");
    expect((await findOrder(id))?.paymentStatus).toBe("unpaid");
    expect((await getSettings()).siteName).toBe(before.siteName);
    // A second transaction (SQLite reuses the handle of the first) reads its own writes too.
    await getDb().transaction(async (tx) => {
      await tx.update(orders).set({ customerName: "Alex Durand" }).where(eq(orders.id, id));
      expect((await findOrder(id, tx))?.customerName).toBe("Alex Durand");
    });
    expect((await findOrder(id))?.customerName).toBe("Alex Durand");
  });
});
