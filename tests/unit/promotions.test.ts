import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { orders, promotions, refunds, subscriptions } from "~/db/schema";
import { discountFor, PROMOTION_REFUSALS } from "~/lib/promotions";
import { createOrderFromApi } from "~/services/orders/create.server";
import { findInvoice } from "~/services/invoices.server";
import { markOrderPaid } from "~/services/payments/payment-state.server";
import { startOneOffPayment } from "~/services/payments/one-off.server";
import { createOrderSubscription } from "~/services/payments/subscription.server";
import { confirmFreeOrder } from "~/services/payments/free-order.server";
import { PROMOTION_REFUSED_REFUND_REASON } from "~/services/promotions/redeem.server";
import { getStripe } from "~/services/stripe.server";
import { setUpTestEmulator } from "./emulator-fixtures";
import { browserPay, CARDS } from "./payments-fixtures";
import { subscriptionDriver } from "./subscription-fixtures";

/**
 * Promotion codes on both engines: the refusals and their French reasons, the discount on the
 * order and on its invoice (VAT on the discounted amount), the free order, the code's limit held
 * when two shoppers pay at once, and a subscription's code for two renewals at Stripe.
 */

const { emulator, withWebhooks } = setUpTestEmulator();
const { renew } = subscriptionDriver(emulator);

let seq = 0;
async function promotion(values: Partial<typeof promotions.$inferInsert> = {}) {
  const [row] = await getDb()
    .insert(promotions)
    .values({ code: `TEST${++seq}${Date.now() % 100000}`, kind: "percent", value: 10, appliesTo: "one_off", ...values })
    .returning();
  return row;
}

function orderBody(email: string, promotionCode?: string) {
  return {
    customerEmail: email,
    customerName: "Camille Martin",
    shippingAddress: "12 rue des Lilas",
    shippingPostalCode: "75011",
    shippingCity: "Paris",
    items: [{ productId: 1, packId: 2, quantity: 1 }],
    ...(promotionCode ? { promotionCode } : {}),
  };
}

async function paidOneOff(email: string, code: string) {
  const order = await createOrderFromApi(orderBody(email, code));
  await markOrderPaid(order.id, { paymentIntentId: `pi_test_${order.id}` });
  return order;
}

describe("promotion codes", () => {
  it("take their discount off the order; the invoice shows it as its own line and computes VAT on what is paid", async () => {
    const promo = await promotion({ kind: "percent", value: 10 });
    const order = await createOrderFromApi(orderBody("remise@example.fr", promo.code.toLowerCase()));
    expect(order).toMatchObject({ subtotal: "25.90", discount: "2.59", total: "23.31", promotionCode: promo.code });
    // The pay button's amount: the PaymentIntent is for the discounted total.
    const start = await startOneOffPayment(order.id, { token: order.token });
    expect(start).toMatchObject({ paid: false, amountCents: 2331 });
    await markOrderPaid(order.id, { paymentIntentId: start.paid ? "" : start.paymentIntentId });
    const invoice = (await findInvoice(order.id, "invoice"))!;
    expect(invoice.document.lines.map((l) => [l.label, l.includingCents])).toEqual([
      ["Masque Hydrogel au Collagène", 2590],
      [`Remise (code ${promo.code})`, -259],
    ]);
    // 23,31 € TTC = 19,43 € HT + 3,88 € TVA, the VAT of the discounted amount.
    expect(invoice.document.totals).toEqual({ includingCents: 2331, excludingCents: 1943, vatCents: 388 });
    const [row] = await getDb().select().from(promotions).where(eq(promotions.id, promo.id));
    expect(row.uses).toBe(1);
  });

  it("are refused with their French reason, never ignored", async () => {
    const expired = await promotion({ endsAt: new Date(Date.now() - 60_000).toISOString() });
    await expect(createOrderFromApi(orderBody("a@example.fr", expired.code))).rejects.toMatchObject({
      status: 422,
      message: PROMOTION_REFUSALS.expired,
    });
    expect(PROMOTION_REFUSALS.expired).toBe("Ce code a expiré");
    await expect(createOrderFromApi(orderBody("a@example.fr", "INCONNU42"))).rejects.toMatchObject({
      message: "Ce code promo n'existe pas.",
    });
    const future = await promotion({ startsAt: new Date(Date.now() + 86_400_000).toISOString() });
    await expect(createOrderFromApi(orderBody("a@example.fr", future.code))).rejects.toMatchObject({
      message: "Ce code n'est pas encore valable.",
    });

    const once = await promotion({ oncePerEmail: true });
    await paidOneOff("deux.fois@example.fr", once.code);
    await expect(createOrderFromApi(orderBody("Deux.Fois@example.fr", once.code))).rejects.toMatchObject({
      message: "Ce code a déjà été utilisé avec cette adresse email",
    });
    // Another email may use it.
    await expect(createOrderFromApi(orderBody("autre@example.fr", once.code))).resolves.toMatchObject({ discount: "2.59" });

    const first = await promotion({ firstOrderOnly: true });
    await expect(createOrderFromApi(orderBody("deux.fois@example.fr", first.code))).rejects.toMatchObject({
      message: "Ce code est réservé à une première commande.",
    });

    const limited = await promotion({ maxUses: 1 });
    await paidOneOff("un@example.fr", limited.code);
    await expect(createOrderFromApi(orderBody("deux@example.fr", limited.code))).rejects.toMatchObject({
      message: "Ce code a atteint son nombre maximal d'utilisations.",
    });

    const off = await promotion({ active: false });
    await expect(createOrderFromApi(orderBody("a@example.fr", off.code))).rejects.toMatchObject({
      message: "Ce code n'est plus valable.",
    });
  });

  it("never bring a total below 0,50 €, except a 100 % code on a one-off purchase, which makes a free order with a 0,00 € invoice", async () => {
    expect(discountFor({ kind: "amount", value: 5000, appliesTo: "one_off" }, 2590)).toBe(2540);
    expect(discountFor({ kind: "percent", value: 100, appliesTo: "first_payment" }, 2590)).toBe(2540);
    expect(discountFor({ kind: "amount", value: 500, appliesTo: "one_off" }, 99)).toBe(49);
    expect(discountFor({ kind: "percent", value: 100, appliesTo: "one_off" }, 2590)).toBe(2590);

    const free = await promotion({ kind: "percent", value: 100 });
    const order = await createOrderFromApi(orderBody("offert@example.fr", free.code));
    expect(order).toMatchObject({ total: "0.00", discount: "25.90" });
    // No card: a payment is refused, the free confirmation marks it paid.
    await expect(startOneOffPayment(order.id, { token: order.token })).rejects.toMatchObject({ status: 409 });
    await expect(confirmFreeOrder(order.id, { token: order.token })).resolves.toEqual({ orderId: order.id, paid: true });
    const invoice = (await findInvoice(order.id, "invoice"))!;
    expect(invoice.document.totals).toEqual({ includingCents: 0, excludingCents: 0, vatCents: 0 });
    expect(invoice.document.lines.at(-1)).toMatchObject({ label: `Remise (code ${free.code})`, includingCents: -2590 });
  });

  it("past its limit in a race, a code is honoured once: the other payment is refunded in full", async () => {
    const limited = await promotion({ maxUses: 1 });
    // Both shoppers passed every check before either paid.
    const a = await createOrderFromApi(orderBody("course.a@example.fr", limited.code));
    const b = await createOrderFromApi(orderBody("course.b@example.fr", limited.code));
    const results = await Promise.all([
      markOrderPaid(a.id, { paymentIntentId: `pi_race_${a.id}` }),
      markOrderPaid(b.id, { paymentIntentId: `pi_race_${b.id}` }),
    ]);
    expect(results).toEqual([true, true]);
    const [row] = await getDb().select().from(promotions).where(eq(promotions.id, limited.id));
    expect(row.uses).toBe(1);
    const refunded = await getDb().select().from(refunds).where(eq(refunds.reason, PROMOTION_REFUSED_REFUND_REASON));
    const losers = refunded.filter((r) => r.orderId === a.id || r.orderId === b.id);
    expect(losers).toHaveLength(1);
    expect(losers[0]).toMatchObject({ status: "pending", amountCents: 2331 });
  });

  it("on a subscription, a fixed code for two cycles lowers the first payment and two renewals at Stripe, not the third", async () => {
    const promo = await promotion({ kind: "amount", value: 500, appliesTo: "every_payment", cycles: 2 });
    const order = await createOrderFromApi(orderBody("abonnee@example.fr", promo.code));
    expect(order.total).toBe("20.90");
    // A one-off payment of a subscription's code is refused with the reason.
    await expect(startOneOffPayment(order.id, { token: order.token })).rejects.toMatchObject({
      message: PROMOTION_REFUSALS.subscriptionOnly,
    });
    const started = await createOrderSubscription(order.id, {}, { token: order.token });
    expect(started.setupFee).toBe("20.90");
    await withWebhooks(() => browserPay(started.clientSecret, CARDS.success));
    const [record] = await getDb()
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.stripeSubscriptionId, started.subscriptionId));
    expect(record.status).toBe("active");

    const stripe = await getStripe();
    const amounts: number[] = [];
    for (let n = 1; n <= 3; n++) {
      const invoice = await renew(started.subscriptionId);
      amounts.push(invoice.amount_paid || invoice.total);
      if (n === 2) {
        // The shop removes the discount after the last discounted renewal (after its transaction).
        for (let i = 0; i < 100 && (await stripe.subscriptions.retrieve(started.subscriptionId)).discounts.length; i++) {
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
    }
    expect(amounts).toEqual([2090, 2090, 2590]);
    const renewals = await getDb().select().from(orders).where(eq(orders.subscriptionId, record.id));
    const byNumber = renewals.filter((o) => o.renewalNumber).sort((x, y) => x.renewalNumber! - y.renewalNumber!);
    expect(byNumber.map((o) => [o.renewalNumber, o.totalCents, o.discountCents, o.promotionCode])).toEqual([
      [1, 2090, 500, promo.code],
      [2, 2090, 500, promo.code],
      [3, 2590, 0, null],
    ]);
    const second = (await findInvoice(byNumber[1].id, "invoice"))!;
    expect(second.document.lines.map((l) => l.includingCents)).toEqual([2590, -500]);
  });
});
