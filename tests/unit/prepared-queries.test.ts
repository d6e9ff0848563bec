import { asc, eq } from "drizzle-orm";
import type Stripe from "stripe";
import { afterEach, describe, expect, it, vi } from "vitest";
import { getDb } from "~/db/client.server";
import { cartLines, carts, cartStarts, emails, orders, products, siteSettings, stripeEvents } from "~/db/schema";
import { deliverySchema } from "~/schemas/delivery";
import { addToCart } from "~/services/cart.server";
import { submitDelivery } from "~/services/checkout.server";
import { findInvoice } from "~/services/invoices.server";
import { acquireLease, releaseLease } from "~/services/leases.server";
import { findOrder, findOrderItems } from "~/services/orders/find.server";
import { markOrderPaid, recordPaymentIntent } from "~/services/payments/payment-state.server";
import { handleStripeEvent } from "~/services/payments/webhook.server";
import { getSettings } from "~/services/settings.server";
import { createTestOrder, productStock } from "./payments-fixtures";

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

/**
 * The writes of every payment (the order paid, the stock, the invoice, the emails, the event's
 * id, the payment start's lease) are prepared once per handle too: each run writes its own
 * values and its own time, never those of the run that prepared it.
 */
describe("the prepared writes of a payment", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("write each payment's own values and time, with every rule kept", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const stockBefore = await productStock();
    const times = ["2031-03-02T09:15:00.000Z", "2031-03-04T17:40:00.000Z"];
    const paid: number[] = [];
    for (const [i, time] of times.entries()) {
      vi.setSystemTime(new Date(time));
      const id = await createTestOrder({ email: `ecriture-${i}@example.fr`, quantity: 2 });
      await recordPaymentIntent(id, `pi_prepared_write_${i}`);
      expect((await findOrder(id))?.updatedAt).toBe(time);
      expect(await markOrderPaid(id, { paymentIntentId: `pi_prepared_write_${i}` })).toBe(true);
      // Paid once: a second payment of the same order changes nothing.
      expect(await markOrderPaid(id, { paymentIntentId: `pi_prepared_write_${i}_bis` })).toBe(false);
      paid.push(id);
    }
    expect(await productStock()).toBe(stockBefore - 4);
    for (const [i, id] of paid.entries()) {
      const time = times[i];
      const order = (await findOrder(id))!;
      expect(order).toMatchObject({
        paymentStatus: "paid",
        paidAt: time,
        updatedAt: time,
        stockDecrementedAt: time,
        stripePaymentIntentId: `pi_prepared_write_${i}`,
        isSubscription: false,
      });
      const invoice = (await findInvoice(id, "invoice"))!;
      expect(invoice.issuedAt).toBe(time);
      expect(invoice.document.buyer.email).toBe(`ecriture-${i}@example.fr`);
      expect(invoice.document.lines[0]).toMatchObject({ quantity: 2, includingCents: 5180 });
      expect(invoice.totalIncludingCents).toBe(5180);
      const queued = await getDb().select().from(emails).where(eq(emails.orderId, id)).orderBy(asc(emails.id));
      expect(queued.map((email) => [email.kind, email.toAddress, email.createdAt, email.nextAttemptAt])).toEqual([
        ["order_confirmation", `ecriture-${i}@example.fr`, time, time],
        ["shop_new_order", (await getSettings()).siteEmail, time, time],
      ]);
      expect(queued[0].payload).toEqual({});
    }
    const [first, second] = await Promise.all(paid.map((id) => findInvoice(id, "invoice")));
    expect(second!.sequence).toBe(first!.sequence + 1);
    const [product] = await getDb().select({ updatedAt: products.updatedAt }).from(products).where(eq(products.id, 1));
    expect(product.updatedAt).toBe(times[1]);
  });

  it("record each Stripe event with its own time, once, and lend a lease to one holder at a time", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    for (const [i, time] of ["2031-05-01T08:00:00.000Z", "2031-05-09T21:30:00.000Z"].entries()) {
      vi.setSystemTime(new Date(time));
      const id = await createTestOrder();
      const event = {
        id: `evt_prepared_${i}_${id}`,
        object: "event",
        type: "payment_intent.succeeded",
        data: {
          object: {
            id: `pi_evt_${id}`,
            object: "payment_intent",
            status: "succeeded",
            amount: 2590,
            amount_received: 2590,
            currency: "eur",
            metadata: { orderId: String(id) },
          },
        },
      } as unknown as Stripe.Event;
      expect(await handleStripeEvent(event)).toEqual({ outcome: "order_paid" });
      expect(await handleStripeEvent(event)).toEqual({ outcome: "duplicate" });
      const [row] = await getDb().select().from(stripeEvents).where(eq(stripeEvents.id, event.id));
      expect(row).toEqual({ id: event.id, type: "payment_intent.succeeded", receivedAt: time });
    }
    const now = Date.now();
    expect(await acquireLease("essai-prepare", 60_000, "processus-a", now)).toBe(true);
    expect(await acquireLease("essai-prepare", 60_000, "processus-b", now + 1_000)).toBe(false);
    expect(await acquireLease("essai-prepare", 60_000, "processus-b", now + 61_000)).toBe(true);
    await releaseLease("essai-prepare", "processus-a");
    expect(await acquireLease("essai-prepare", 60_000, "processus-a", now + 62_000)).toBe(false);
    await releaseLease("essai-prepare", "processus-b");
    expect(await acquireLease("essai-prepare", 60_000, "processus-a", now + 63_000)).toBe(true);
  });

  it("put each pack in its own cart at its own time, and count each day's new carts", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const times = ["2031-06-01T10:00:00.000Z", "2031-06-03T15:30:00.000Z"];
    const startsBefore = await getDb().select().from(cartStarts);
    const orderIds: number[] = [];
    for (const [i, time] of times.entries()) {
      vi.setSystemTime(new Date(time));
      const cartId = `panier-prepare-${i}-${Date.now()}`;
      await addToCart(cartId, { productId: 1, packId: 2 });
      // The same cart again: still one line, the cart touched, not counted twice.
      await addToCart(cartId, { productId: 1, packId: 3 });
      const [cart] = await getDb().select().from(carts).where(eq(carts.id, cartId));
      expect([cart.createdAt, cart.updatedAt]).toEqual([time, time]);
      const lines = await getDb().select().from(cartLines).where(eq(cartLines.cartId, cartId));
      expect(lines.map((line) => [line.packId, line.quantity, line.createdAt])).toEqual([[3, 1, time]]);
      const contact = deliverySchema.parse({
        firstName: "Camille",
        lastName: "Martin",
        email: `panier-${i}@example.fr`,
        address: "8 rue des Fleurs",
        postalCode: "69003",
        city: "Lyon",
      });
      const { orderId, created } = await submitDelivery(cartId, contact);
      expect(created).toBe(true);
      // Sent twice: the same order.
      expect(await submitDelivery(cartId, contact)).toEqual({ orderId, created: false });
      const [remembered] = await getDb().select().from(carts).where(eq(carts.id, cartId));
      expect(remembered.checkoutOrderId).toBe(orderId);
      expect(remembered.updatedAt).toBe(time);
      expect((await findOrderItems(orderId)).map((item) => item.packId)).toEqual([3]);
      orderIds.push(orderId);
    }
    expect(new Set(orderIds).size).toBe(2);
    const starts = await getDb().select().from(cartStarts);
    const countOf = (rows: { day: string; count: number }[], day: string) => rows.find((row) => row.day === day)?.count ?? 0;
    for (const day of ["2031-06-01", "2031-06-03"]) expect(countOf(starts, day)).toBe(countOf(startsBefore, day) + 1);
  });
});
