import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeStripeParams } from "../../stripe-emulator/encoding.js";
import { startStripeEmulator } from "../../stripe-emulator/server.js";

/**
 * Test clocks in the emulator, driven by the official SDK as with Stripe's test keys: a
 * customer created on a clock lives at the clock's time, and advancing the clock renews its
 * subscription every 4 weeks, retries failed renewals, then cancels the subscription.
 */

const SECRET = "whsec_test_clocks";
const DAY = 86_400;
const PERIOD = 28 * DAY;
/** Monday 4 January 2027, 09:00 UTC. */
const T0 = Date.UTC(2027, 0, 4, 9) / 1000;

let emulator: Awaited<ReturnType<typeof startStripeEmulator>>;
let stripe: Stripe;
const received: Array<{ payload: string; signature: string }> = [];

beforeAll(async () => {
  emulator = await startStripeEmulator({
    port: 0,
    webhookSecret: SECRET,
    // Long enough to see the clock `advancing`, as Stripe's take a few seconds.
    clockAdvanceDelayMs: 100,
    webhookUrl: async (delivery: { payload: string; signature: string }) => {
      received.push(delivery);
      return { status: 200 };
    },
    log: { info: () => {}, warn: () => {} },
  });
  stripe = new Stripe("sk_test_emulator", { host: "127.0.0.1", port: emulator.port, protocol: "http", maxNetworkRetries: 0 });
  await stripe.products.create({ id: "clock-product", name: "Pack de masques" });
});
afterAll(async () => {
  await emulator.close();
});

async function raw(path: string, init: { method?: string; key?: string; body?: string } = {}) {
  const response = await fetch(`${emulator.url}${path}`, {
    method: init.method ?? "GET",
    body: init.body,
    headers: {
      Authorization: `Bearer ${init.key ?? "sk_test_emulator"}`,
      ...(init.body ? { "Content-Type": "application/x-www-form-urlencoded" } : {}),
    },
  });
  return { status: response.status, body: await response.json() };
}

/** A card as the browser creates it (publishable key). */
async function newCard(number: string): Promise<string> {
  const { body } = await raw("/v1/payment_methods", {
    method: "POST",
    key: "pk_test_emulator",
    body: encodeStripeParams({
      type: "card",
      card: { number, exp_month: 12, exp_year: new Date().getFullYear() + 5, cvc: "123" },
    }),
  });
  return body.id;
}

/** A customer on a new clock, with `card` attached and made the default for invoices. */
async function customerOnClock(card: string) {
  const clock = await stripe.testHelpers.testClocks.create({ frozen_time: T0, name: "Abonnement 4 semaines" });
  const customer = await stripe.customers.create({ email: "clock@example.fr", test_clock: clock.id });
  const pm = await newCard(card);
  await stripe.paymentMethods.attach(pm, { customer: customer.id });
  await stripe.customers.update(customer.id, { invoice_settings: { default_payment_method: pm } });
  return { clock, customer, pm };
}

function subscribe(customer: string, pm: string, options: { trialDays?: number } = {}) {
  return stripe.subscriptions.create({
    customer,
    default_payment_method: pm,
    items: [
      {
        price_data: {
          currency: "eur",
          product: "clock-product",
          unit_amount: 2590,
          recurring: { interval: "week", interval_count: 4 },
        },
      },
    ],
    ...(options.trialDays ? { trial_period_days: options.trialDays } : {}),
    metadata: { orderId: "42" },
  });
}

/** Advances like a test with Stripe would: the call answers `advancing`, then wait for `ready`. */
async function advance(clockId: string, frozenTime: number) {
  const started = await stripe.testHelpers.testClocks.advance(clockId, { frozen_time: frozenTime });
  expect(started).toMatchObject({ status: "advancing", status_details: { advancing: { target_frozen_time: frozenTime } } });
  for (let i = 0; i < 200; i++) {
    const clock = await stripe.testHelpers.testClocks.retrieve(clockId);
    if (clock.status === "ready") {
      expect(clock.frozen_time).toBe(frozenTime);
      return clock;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`test clock ${clockId} still advancing`);
}

async function invoicesOf(subscription: string) {
  const list = await stripe.invoices.list({ subscription, limit: 100 });
  return list.data.slice().reverse(); // oldest first
}

/** The events about this subscription (and its invoices), oldest first. */
function eventsOf(subscription: string) {
  return emulator.events.filter((e) => {
    const object = e.data.object as { id?: string; parent?: { subscription_details?: { subscription?: string } } };
    return object.id === subscription || object.parent?.subscription_details?.subscription === subscription;
  });
}

function periodOf(sub: Stripe.Subscription) {
  const [item] = sub.items.data;
  return { start: item.current_period_start, end: item.current_period_end };
}

describe("test clocks", () => {
  it("are created, retrieved, listed and deleted through the SDK, with their customers", async () => {
    const clock = await stripe.testHelpers.testClocks.create({ frozen_time: T0, name: "Démo" });
    expect(clock).toMatchObject({
      object: "test_helpers.test_clock",
      frozen_time: T0,
      name: "Démo",
      status: "ready",
      livemode: false,
    });
    expect(clock.id).toMatch(/^clock_/);
    expect(clock.deletes_after).toBeGreaterThan(clock.created);
    expect(await stripe.testHelpers.testClocks.retrieve(clock.id)).toEqual(clock);
    const listed = await stripe.testHelpers.testClocks.list({ limit: 100 });
    expect(listed.data.map((c) => c.id)).toContain(clock.id);

    const customer = await stripe.customers.create({ email: "gone@example.fr", test_clock: clock.id });
    expect(customer).toMatchObject({ test_clock: clock.id, created: T0 });
    expect(
      emulator.events.find((e) => e.type === "customer.created" && (e.data.object as { id: string }).id === customer.id)?.created,
    ).toBe(T0);

    expect(await stripe.testHelpers.testClocks.del(clock.id)).toEqual({
      id: clock.id,
      object: "test_helpers.test_clock",
      deleted: true,
    });
    await expect(stripe.testHelpers.testClocks.retrieve(clock.id)).rejects.toMatchObject({
      type: "StripeInvalidRequestError",
      code: "resource_missing",
    });
    expect(await stripe.customers.retrieve(customer.id)).toMatchObject({ id: customer.id, deleted: true });
    const types = emulator.events.filter((e) => (e.data.object as { id: string }).id === clock.id).map((e) => e.type);
    expect(types).toEqual(["test_helpers.test_clock.created", "test_helpers.test_clock.deleted"]);
    await expect(stripe.customers.create({ test_clock: "clock_nope" })).rejects.toMatchObject({ code: "resource_missing" });
  });

  it("refuses to go back in time, or further than two periods at once, with Stripe's error shape", async () => {
    const { clock, customer, pm } = await customerOnClock("4242424242424242");
    for (const frozenTime of [T0 - DAY, T0]) {
      const answer = await raw(`/v1/test_helpers/test_clocks/${clock.id}/advance`, {
        method: "POST",
        body: `frozen_time=${frozenTime}`,
      });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toMatchObject({
        type: "invalid_request_error",
        param: "frozen_time",
        message: expect.any(String),
      });
    }
    await expect(stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: T0 - 1 })).rejects.toMatchObject({
      type: "StripeInvalidRequestError",
      param: "frozen_time",
    });
    // No subscription yet: two years at most.
    await expect(stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: T0 + 3 * 365 * DAY })).rejects.toMatchObject({
      param: "frozen_time",
    });
    // A 4-week subscription: two periods (56 days) at most.
    await subscribe(customer.id, pm);
    await expect(stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: T0 + 3 * PERIOD })).rejects.toMatchObject({
      param: "frozen_time",
    });
    // And not while it is advancing (held a while longer here, to leave no doubt).
    emulator.core.clockAdvanceDelayMs = 1500;
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: T0 + DAY });
    emulator.core.clockAdvanceDelayMs = 100;
    await expect(stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: T0 + 2 * DAY })).rejects.toMatchObject({
      type: "StripeInvalidRequestError",
    });
    await expect
      .poll(async () => (await stripe.testHelpers.testClocks.retrieve(clock.id)).status, { timeout: 5000 })
      .toBe("ready");
  });

  it("renews the subscription once per 4-week period, at the clock's time, charged to the default card", async () => {
    const { clock, customer, pm } = await customerOnClock("4242424242424242");
    const sub = await subscribe(customer.id, pm);
    expect(sub).toMatchObject({ status: "active", created: T0, start_date: T0, test_clock: clock.id });
    expect(periodOf(sub)).toEqual({ start: T0, end: T0 + PERIOD });
    const first = (await invoicesOf(sub.id))[0];
    expect(first).toMatchObject({ status: "paid", billing_reason: "subscription_create", created: T0, test_clock: clock.id });

    // A day before the end of the period: nothing happens.
    await advance(clock.id, T0 + PERIOD - DAY);
    expect(await invoicesOf(sub.id)).toHaveLength(1);

    const before = emulator.events.length;
    await advance(clock.id, T0 + PERIOD + 3600);
    const invoices = await invoicesOf(sub.id);
    expect(invoices).toHaveLength(2);
    const renewal = invoices[1];
    expect(renewal).toMatchObject({
      status: "paid",
      billing_reason: "subscription_cycle",
      total: 2590,
      amount_paid: 2590,
      created: T0 + PERIOD,
      attempt_count: 1,
    });
    expect(renewal).toMatchObject({ period_start: T0, period_end: T0 + PERIOD }); // looks back one period
    expect(renewal.lines.data[0].period).toEqual({ start: T0 + PERIOD, end: T0 + 2 * PERIOD });
    const pi = await stripe.paymentIntents.retrieve(
      (await stripe.invoices.retrieve(renewal.id, { expand: ["payments"] })).payments!.data[0].payment.payment_intent as string,
    );
    expect(pi).toMatchObject({ status: "succeeded", payment_method: pm, created: T0 + PERIOD });
    const renewed = await stripe.subscriptions.retrieve(sub.id);
    expect(renewed).toMatchObject({ status: "active", latest_invoice: renewal.id });
    expect(periodOf(renewed)).toEqual({ start: T0 + PERIOD, end: T0 + 2 * PERIOD });

    // The events, in order, each at the clock's time (the clock's own at the real time).
    const during = emulator.events.slice(before);
    const types = during.map((e) => e.type);
    expect(types[0]).toBe("test_helpers.test_clock.advancing");
    expect(types.at(-1)).toBe("test_helpers.test_clock.ready");
    const ofSub = eventsOf(sub.id).filter((e) => during.includes(e));
    expect(ofSub.map((e) => e.type)).toEqual([
      "invoice.created",
      "invoice.finalized",
      "customer.subscription.updated",
      "invoice.paid",
      "invoice.payment_succeeded",
      "customer.subscription.updated",
    ]);
    for (const event of ofSub) expect(event.created).toBe(T0 + PERIOD);
    expect(types.indexOf("payment_intent.succeeded")).toBeLessThan(types.indexOf("invoice.paid"));

    // Three more periods, in steps (two periods at most at a time): three more renewals.
    await advance(clock.id, T0 + 3 * PERIOD + 3600);
    await advance(clock.id, T0 + 4 * PERIOD + 3600);
    const all = await invoicesOf(sub.id);
    expect(all.map((i) => i.billing_reason)).toEqual(["subscription_create", ...Array(4).fill("subscription_cycle")]);
    expect(all.map((i) => i.created)).toEqual([T0, T0 + PERIOD, T0 + 2 * PERIOD, T0 + 3 * PERIOD, T0 + 4 * PERIOD]);
    expect(all.every((i) => i.status === "paid")).toBe(true);
    expect(periodOf(await stripe.subscriptions.retrieve(sub.id))).toEqual({ start: T0 + 4 * PERIOD, end: T0 + 5 * PERIOD });

    // The webhook endpoint got them, signed.
    await emulator.flushWebhooks();
    const delivered = received.map(({ payload, signature }) => stripe.webhooks.constructEvent(payload, signature, SECRET));
    const paidRenewals = delivered.filter(
      (e) => e.type === "invoice.paid" && (e.data.object as Stripe.Invoice).billing_reason === "subscription_cycle",
    );
    expect(paidRenewals.map((e) => (e.data.object as Stripe.Invoice).id)).toEqual(
      expect.arrayContaining(all.slice(1).map((i) => i.id)),
    );
    expect(
      delivered.some((e) => e.type === "test_helpers.test_clock.ready" && (e.data.object as { id: string }).id === clock.id),
    ).toBe(true);
  });

  it("ends the trial on the clock; a card whose charges fail makes it past_due, retried 3, 5 and 7 days later, then canceled", async () => {
    const { clock, customer, pm } = await customerOnClock("4000000000000341");
    const sub = await subscribe(customer.id, pm, { trialDays: 30 });
    const trialEnd = T0 + 30 * DAY;
    expect(sub).toMatchObject({ status: "trialing", trial_end: trialEnd });

    await advance(clock.id, trialEnd + 3600);
    const [, renewal] = await invoicesOf(sub.id);
    expect(renewal).toMatchObject({
      status: "open",
      billing_reason: "subscription_cycle",
      created: trialEnd,
      attempted: true,
      attempt_count: 1,
      next_payment_attempt: trialEnd + 3 * DAY,
      period_start: T0,
      period_end: trialEnd,
    });
    expect(renewal.lines.data[0].period).toEqual({ start: trialEnd, end: trialEnd + PERIOD });
    expect(await stripe.subscriptions.retrieve(sub.id)).toMatchObject({ status: "past_due" });
    const types = eventsOf(sub.id).map((e) => e.type);
    expect(types).toContain("customer.subscription.trial_will_end");
    expect(eventsOf(sub.id).find((e) => e.type === "customer.subscription.trial_will_end")?.created).toBe(trialEnd - 3 * DAY);
    const failed = eventsOf(sub.id).filter((e) => e.type === "invoice.payment_failed");
    expect(failed.map((e) => e.created)).toEqual([trialEnd]);
    const pastDue = eventsOf(sub.id).find(
      (e) => e.type === "customer.subscription.updated" && (e.data.object as Stripe.Subscription).status === "past_due",
    );
    expect(pastDue?.data.previous_attributes).toMatchObject({ status: "active" });

    // Retries at +3 days, then 5 and 7 days after the previous one: the last fails, the subscription ends.
    await advance(clock.id, trialEnd + 16 * DAY);
    const attempts = eventsOf(sub.id).filter((e) => e.type === "invoice.payment_failed");
    expect(attempts.map((e) => e.created)).toEqual([trialEnd, trialEnd + 3 * DAY, trialEnd + 8 * DAY, trialEnd + 15 * DAY]);
    expect(attempts.map((e) => (e.data.object as Stripe.Invoice).next_payment_attempt)).toEqual([
      trialEnd + 3 * DAY,
      trialEnd + 8 * DAY,
      trialEnd + 15 * DAY,
      null,
    ]);
    const ended = await stripe.subscriptions.retrieve(sub.id);
    expect(ended).toMatchObject({ status: "canceled", canceled_at: trialEnd + 15 * DAY, ended_at: trialEnd + 15 * DAY });
    expect(ended.cancellation_details?.reason).toBe("payment_failed");
    expect(await stripe.invoices.retrieve(renewal.id)).toMatchObject({
      status: "open",
      attempt_count: 4,
      next_payment_attempt: null,
    });
    const deleted = eventsOf(sub.id).filter((e) => e.type === "customer.subscription.deleted");
    expect(deleted).toHaveLength(1);
    expect(deleted[0].created).toBe(trialEnd + 15 * DAY);

    // Time goes on without it: no further invoice.
    await advance(clock.id, trialEnd + 2 * PERIOD);
    expect(await invoicesOf(sub.id)).toHaveLength(2);
    await emulator.flushWebhooks();
    const delivered = received.map((r) => JSON.parse(r.payload) as Stripe.Event);
    expect(
      delivered.some((e) => e.type === "customer.subscription.deleted" && (e.data.object as Stripe.Subscription).id === sub.id),
    ).toBe(true);
  });

  it("a failed renewal paid with another card in the browser makes the subscription active again", async () => {
    const { clock, customer, pm } = await customerOnClock("4000000000000341");
    const sub = await subscribe(customer.id, pm, { trialDays: 30 });
    await advance(clock.id, T0 + 30 * DAY + 3600);
    const [, renewal] = await invoicesOf(sub.id);
    expect(renewal.status).toBe("open");

    // As Stripe.js does: the invoice's PaymentIntent, confirmed with its client secret.
    const { confirmation_secret } = await stripe.invoices.retrieve(renewal.id, { expand: ["confirmation_secret"] });
    const secret = confirmation_secret!.client_secret;
    const piId = secret.split("_secret_")[0];
    const declined = await raw(`/v1/payment_intents/${piId}/confirm`, {
      method: "POST",
      key: "pk_test_emulator",
      body: encodeStripeParams({ client_secret: secret, payment_method: await newCard("4000000000000002") }),
    });
    expect(declined.status).toBe(402);
    expect(await stripe.invoices.retrieve(renewal.id)).toMatchObject({
      status: "open",
      attempt_count: 2,
      next_payment_attempt: T0 + 33 * DAY,
    });
    const good = await newCard("4242424242424242");
    const paid = await raw(`/v1/payment_intents/${piId}/confirm`, {
      method: "POST",
      key: "pk_test_emulator",
      body: encodeStripeParams({ client_secret: secret, payment_method: good }),
    });
    expect(paid.body).toMatchObject({ status: "succeeded" });
    expect(await stripe.invoices.retrieve(renewal.id)).toMatchObject({
      status: "paid",
      amount_paid: 2590,
      next_payment_attempt: null,
    });
    expect(await stripe.subscriptions.retrieve(sub.id)).toMatchObject({ status: "active" });
    const paidEvent = eventsOf(sub.id).find(
      (e) => e.type === "invoice.paid" && (e.data.object as Stripe.Invoice).id === renewal.id,
    );
    expect(paidEvent?.created).toBe(T0 + 30 * DAY + 3600);
    const active = eventsOf(sub.id)
      .filter((e) => e.type === "customer.subscription.updated")
      .at(-1);
    expect(active?.data).toMatchObject({ object: { status: "active" }, previous_attributes: { status: "past_due" } });

    // No retry is left: the next days pass quietly.
    await advance(clock.id, T0 + 50 * DAY);
    expect(eventsOf(sub.id).filter((e) => e.type === "invoice.payment_failed")).toHaveLength(2);
  });

  it("pays a failed renewal with POST /v1/invoices/:id/pay and the customer's new card", async () => {
    const { clock, customer, pm } = await customerOnClock("4000000000000341");
    const sub = await subscribe(customer.id, pm, { trialDays: 30 });
    await advance(clock.id, T0 + 30 * DAY + 3600);
    const [, renewal] = await invoicesOf(sub.id);

    // With the failing default card: a card error, the invoice stays open.
    await expect(stripe.invoices.pay(renewal.id)).rejects.toMatchObject({ type: "StripeCardError", code: "card_declined" });
    // A card that is not the customer's is refused.
    const stranger = await newCard("4242424242424242");
    await expect(stripe.invoices.pay(renewal.id, { payment_method: stranger })).rejects.toMatchObject({
      type: "StripeInvalidRequestError",
      param: "payment_method",
    });
    await stripe.paymentMethods.attach(stranger, { customer: customer.id });
    const paid = await stripe.invoices.pay(renewal.id, { payment_method: stranger });
    expect(paid).toMatchObject({ id: renewal.id, status: "paid", amount_paid: 2590, amount_remaining: 0 });
    expect(await stripe.subscriptions.retrieve(sub.id)).toMatchObject({ status: "active" });
    expect(
      eventsOf(sub.id)
        .filter((e) => e.type === "invoice.paid")
        .map((e) => (e.data.object as Stripe.Invoice).id),
    ).toContain(renewal.id);
    await expect(stripe.invoices.pay(renewal.id)).rejects.toMatchObject({ type: "StripeInvalidRequestError" });
  });

  it("ends a subscription canceled at period end when the clock passes the end of the period", async () => {
    const { clock, customer, pm } = await customerOnClock("4242424242424242");
    const sub = await subscribe(customer.id, pm);
    await stripe.subscriptions.update(sub.id, { cancel_at_period_end: true });
    await advance(clock.id, T0 + PERIOD + DAY);
    const ended = await stripe.subscriptions.retrieve(sub.id);
    expect(ended).toMatchObject({ status: "canceled", ended_at: T0 + PERIOD });
    expect(ended.cancellation_details?.reason).toBe("cancellation_requested");
    expect(await invoicesOf(sub.id)).toHaveLength(1);
  });

  it("expires a subscription whose first invoice is still unpaid 23 hours later", async () => {
    const { clock, customer } = await customerOnClock("4242424242424242");
    const sub = await stripe.subscriptions.create({
      customer: customer.id,
      items: [
        {
          price_data: {
            currency: "eur",
            product: "clock-product",
            unit_amount: 2590,
            recurring: { interval: "week", interval_count: 4 },
          },
        },
      ],
      payment_behavior: "default_incomplete",
    });
    expect(sub.status).toBe("incomplete");
    await advance(clock.id, T0 + 22 * 3600);
    expect((await stripe.subscriptions.retrieve(sub.id)).status).toBe("incomplete");
    await advance(clock.id, T0 + DAY);
    expect(await stripe.subscriptions.retrieve(sub.id)).toMatchObject({ status: "incomplete_expired", ended_at: T0 + 23 * 3600 });
    const [invoice] = await invoicesOf(sub.id);
    expect(invoice.status).toBe("void");
    expect(
      eventsOf(sub.id)
        .map((e) => e.type)
        .slice(-2),
    ).toEqual(["invoice.voided", "customer.subscription.deleted"]);
  });

  it("keeps the emulator's renew helper for subscriptions without a clock", async () => {
    const customer = await stripe.customers.create({ email: "noclock@example.fr" });
    const pm = await newCard("4242424242424242");
    await stripe.paymentMethods.attach(pm, { customer: customer.id });
    const sub = await subscribe(customer.id, pm);
    expect(sub.test_clock).toBeNull();
    const { status, body } = await raw(`/v1/test_helpers/emulator/subscriptions/${sub.id}/renew`, { method: "POST" });
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: "paid", billing_reason: "subscription_cycle", period_end: periodOf(sub).end });
  });
});
