import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeStripeParams } from "../../stripe-emulator/encoding.js";
import { startStripeEmulator } from "../../stripe-emulator/server.js";

/**
 * Coupons on subscriptions in the emulator, through the official SDK as the shop uses them: a
 * promotion code's discount is a coupon (`once`, or `repeating` for months) on the subscription,
 * taken off its invoices while it lasts, and removed by the shop after the last discounted cycle.
 */

const DAY = 86_400;
/** Monday 4 January 2027, 09:00 UTC. */
const T0 = Date.UTC(2027, 0, 4, 9) / 1000;

let emulator: Awaited<ReturnType<typeof startStripeEmulator>>;
let stripe: Stripe;

beforeAll(async () => {
  emulator = await startStripeEmulator({
    port: 0,
    webhookSecret: "whsec_coupons",
    clockAdvanceDelayMs: 0,
    webhookUrl: async () => ({ status: 200 }),
    log: { info: () => {}, warn: () => {} },
  });
  stripe = new Stripe("sk_test_emulator", { host: "127.0.0.1", port: emulator.port, protocol: "http", maxNetworkRetries: 0 });
  await stripe.products.create({ id: "coupon-product", name: "Pack de masques" });
});
afterAll(async () => {
  await emulator.close();
});

async function card(): Promise<string> {
  const response = await fetch(`${emulator.url}/v1/payment_methods`, {
    method: "POST",
    headers: { Authorization: "Bearer pk_test_emulator", "Content-Type": "application/x-www-form-urlencoded" },
    body: encodeStripeParams({ type: "card", card: { number: "4242424242424242", exp_month: 12, exp_year: 2035, cvc: "123" } }),
  });
  return ((await response.json()) as { id: string }).id;
}

async function subscribeWith(coupon: string) {
  const clock = await stripe.testHelpers.testClocks.create({ frozen_time: T0 });
  const customer = await stripe.customers.create({ email: "coupon@example.fr", test_clock: clock.id });
  const pm = await card();
  await stripe.paymentMethods.attach(pm, { customer: customer.id });
  await stripe.customers.update(customer.id, { invoice_settings: { default_payment_method: pm } });
  const price = { currency: "eur", product: "coupon-product", unit_amount: 4990 };
  const sub = await stripe.subscriptions.create({
    customer: customer.id,
    default_payment_method: pm,
    items: [{ price_data: { ...price, recurring: { interval: "week", interval_count: 4 } } }],
    add_invoice_items: [{ price_data: price }],
    trial_period_days: 30,
    discounts: [{ coupon }],
  });
  return { clock, sub };
}

async function advanceTo(clockId: string, time: number) {
  await stripe.testHelpers.testClocks.advance(clockId, { frozen_time: time });
  for (let i = 0; i < 200; i++) {
    if ((await stripe.testHelpers.testClocks.retrieve(clockId)).status === "ready") return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error("clock still advancing");
}

async function paidAmounts(subscription: string) {
  const list = await stripe.invoices.list({ subscription, limit: 100 });
  return list.data
    .slice()
    .reverse()
    .map((i) => ({
      total: i.total,
      subtotal: i.subtotal,
      discount: (i.total_discount_amounts ?? []).reduce((s, d) => s + d.amount, 0),
    }));
}

describe("coupons on subscriptions", () => {
  it("a repeating amount coupon lowers each invoice while it lasts, until the shop removes it", async () => {
    const coupon = await stripe.coupons.create({
      amount_off: 500,
      currency: "eur",
      duration: "repeating",
      duration_in_months: 3,
    });
    expect(coupon).toMatchObject({ object: "coupon", amount_off: 500, duration: "repeating", duration_in_months: 3 });
    const { clock, sub } = await subscribeWith(coupon.id);
    expect(sub.discounts).toHaveLength(1);
    // The first invoice: the pack, less the coupon.
    expect(await paidAmounts(sub.id)).toEqual([{ total: 4490, subtotal: 4990, discount: 500 }]);
    await advanceTo(clock.id, T0 + 31 * DAY); // renewal 1 (day 30)
    await advanceTo(clock.id, T0 + 59 * DAY); // renewal 2 (day 58)
    await stripe.subscriptions.deleteDiscount(sub.id);
    expect((await stripe.subscriptions.retrieve(sub.id)).discounts).toEqual([]);
    await advanceTo(clock.id, T0 + 87 * DAY); // renewal 3 (day 86): full price
    expect((await paidAmounts(sub.id)).map((i) => i.total)).toEqual([4490, 4490, 4490, 4990]);
  });

  it("a once coupon lowers the first invoice only; a repeating one ends with its months", async () => {
    const once = await stripe.coupons.create({ amount_off: 1000, currency: "eur", duration: "once" });
    const first = await subscribeWith(once.id);
    await advanceTo(first.clock.id, T0 + 31 * DAY);
    expect((await paidAmounts(first.sub.id)).map((i) => i.total)).toEqual([3990, 4990]);

    const month = await stripe.coupons.create({ percent_off: 10, duration: "repeating", duration_in_months: 1 });
    const second = await subscribeWith(month.id);
    // Renewal 1 on 3 February, within the month (until 4 February); renewal 2 on 3 March, after it.
    await advanceTo(second.clock.id, T0 + 31 * DAY);
    await advanceTo(second.clock.id, T0 + 59 * DAY);
    expect((await paidAmounts(second.sub.id)).map((i) => i.total)).toEqual([4491, 4491, 4990]);
  });

  it("refuses a coupon without an amount or a percentage, and an unknown coupon", async () => {
    await expect(stripe.coupons.create({ duration: "once" })).rejects.toMatchObject({ statusCode: 400 });
    await expect(stripe.coupons.create({ amount_off: 100, duration: "once" })).rejects.toMatchObject({ param: "currency" });
    const clock = await stripe.testHelpers.testClocks.create({ frozen_time: T0 });
    const customer = await stripe.customers.create({ test_clock: clock.id });
    await expect(
      stripe.subscriptions.create({
        customer: customer.id,
        items: [
          { price_data: { currency: "eur", product: "coupon-product", unit_amount: 100, recurring: { interval: "week" } } },
        ],
        discounts: [{ coupon: "nope" }],
      }),
    ).rejects.toMatchObject({ statusCode: 404 });
  });
});
