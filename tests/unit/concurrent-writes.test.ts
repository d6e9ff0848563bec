import { and, desc, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { dialect, emails, invoices, orders, packs, refunds } from "~/db/schema";
import { action as startAction } from "~/routes/api.payments.start";
import { confirmOrderPayment } from "~/services/payments/confirm.server";
import { TRIAL_DUPLICATE_REFUND_REASON } from "~/services/payments/payment-state.server";
import {
  browserPay,
  CARDS,
  createTestOrder,
  getOrder,
  ownerRequest,
  productStock,
  routeArgs,
  startTestEmulator,
  stopTestEmulator,
} from "./payments-fixtures";

/**
 * Writes at once (this file runs on SQLite and on PostgreSQL). On PostgreSQL the payments of
 * different orders run side by side; on SQLite one at a time (the file's write lock). On both,
 * what a rule reads then writes stays right: invoice numbers with no gap and no duplicate, the
 * stock decreased once per order, the trial pack once per email.
 */

beforeAll(async () => {
  await startTestEmulator();
});
afterAll(async () => {
  await stopTestEmulator();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An order started and paid at Stripe by its buyer's browser, not yet confirmed by the shop. */
async function paidAtStripe(options: Parameters<typeof createTestOrder>[0] = {}) {
  const orderId = await createTestOrder(options);
  const response = await startAction(routeArgs(ownerRequest("/api/payments/start", { orderId })));
  expect(response.status).toBe(200);
  const started = (await response.json()) as { clientSecret: string; paymentIntentId: string };
  await browserPay(started.clientSecret, CARDS.success);
  return orderId;
}

describe(`writes at once on ${dialect}`, () => {
  it(
    dialect === "postgresql"
      ? "two transactions on two orders run side by side: the second writes while the first is still open"
      : "two transactions on two orders run one after the other: the second writes once the first has committed",
    async () => {
      const [a, b] = [await createTestOrder(), await createTestOrder()];
      const steps: string[] = [];
      let secondWrote = false;
      const first = getDb().transaction(async (tx) => {
        await tx.update(orders).set({ updatedAt: new Date().toISOString() }).where(eq(orders.id, a));
        steps.push("first wrote");
        // Open for up to a second, or until the second transaction has written.
        for (let i = 0; i < 100 && !secondWrote; i++) await sleep(10);
        steps.push("first commits");
      });
      await sleep(30);
      const second = getDb().transaction(async (tx) => {
        await tx.update(orders).set({ updatedAt: new Date().toISOString() }).where(eq(orders.id, b));
        secondWrote = true;
        steps.push("second wrote");
      });
      await Promise.all([first, second]);
      expect(steps).toEqual(
        dialect === "postgresql"
          ? ["first wrote", "second wrote", "first commits"]
          : ["first wrote", "first commits", "second wrote"],
      );
    },
  );

  it("20 payments confirmed at once: each order paid once, invoice numbers consecutive and unique, the stock down once per order, one confirmation each", async () => {
    const stockBefore = await productStock(1);
    const ids: number[] = [];
    for (let i = 0; i < 20; i++) ids.push(await paidAtStripe({ quantity: 2, email: `ensemble.${i}@example.fr` }));
    const [lastBefore] = await getDb()
      .select({ sequence: invoices.sequence })
      .from(invoices)
      .where(eq(invoices.kind, "invoice"))
      .orderBy(desc(invoices.sequence))
      .limit(1);

    const answers = await Promise.all(ids.map((id) => confirmOrderPayment(id)));
    expect(answers).toEqual(ids.map(() => ({ paid: true })));
    // Confirmed again (the shopper's page reloads): nothing more.
    expect(await Promise.all(ids.slice(0, 5).map((id) => confirmOrderPayment(id)))).toEqual(
      ids.slice(0, 5).map(() => ({ paid: true })),
    );

    const paid = await getDb().select({ status: orders.paymentStatus }).from(orders).where(inArray(orders.id, ids));
    expect(paid.map((o) => o.status)).toEqual(ids.map(() => "paid"));
    const issued = await getDb()
      .select({ orderId: invoices.orderId, sequence: invoices.sequence, number: invoices.number })
      .from(invoices)
      .where(and(eq(invoices.kind, "invoice"), inArray(invoices.orderId, ids)));
    expect(issued).toHaveLength(20);
    expect(new Set(issued.map((i) => i.orderId)).size).toBe(20);
    expect(new Set(issued.map((i) => i.number)).size).toBe(20);
    // No gap: the 20 numbers follow each other, after the last one issued before.
    const sequences = issued.map((i) => i.sequence).sort((x, y) => x - y);
    const start = (lastBefore?.sequence ?? 0) + 1;
    expect(sequences[0]).toBeGreaterThanOrEqual(start);
    expect(sequences).toEqual(Array.from({ length: 20 }, (_, i) => sequences[0] + i));
    expect(await productStock(1)).toBe(stockBefore - 40);
    const confirmations = await getDb()
      .select({ orderId: emails.orderId })
      .from(emails)
      .where(and(eq(emails.kind, "order_confirmation"), inArray(emails.orderId, ids)));
    expect(confirmations.map((e) => e.orderId).sort()).toEqual([...ids].sort());
  }, 60_000);

  it("the trial pack paid twice at once with one email: one order keeps it, the other is refunded in full", async () => {
    const [pack] = await getDb().select().from(packs).where(eq(packs.trial, true)).limit(1);
    const email = `essai.ensemble.${Date.now()}@example.fr`;
    const ids = [
      await paidAtStripe({ packId: pack!.id, unitPriceCents: pack!.priceCents, email }),
      await paidAtStripe({ packId: pack!.id, unitPriceCents: pack!.priceCents, email: email.toUpperCase() }),
    ];
    expect(await Promise.all(ids.map((id) => confirmOrderPayment(id)))).toEqual([{ paid: true }, { paid: true }]);
    await expect
      .poll(async () => (await Promise.all(ids.map(async (id) => (await getOrder(id)).paymentStatus))).sort())
      .toEqual(["paid", "refunded"]);
    const rows = await getDb().select().from(refunds).where(inArray(refunds.orderId, ids));
    expect(rows).toEqual([expect.objectContaining({ status: "succeeded", reason: TRIAL_DUPLICATE_REFUND_REASON })]);
  }, 30_000);
});
