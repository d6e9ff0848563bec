import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cardRequiresAuthentication } from "../../stripe-emulator/core.js";
import { encodeStripeParams } from "../../stripe-emulator/encoding.js";
import { startStripeEmulator } from "../../stripe-emulator/server.js";

/** 3-D Secure in the emulator, as Stripe's test mode runs its authentication test cards. */

describe("which payments the bank asks to authenticate", () => {
  it("asks for 3155 with the customer present, and not for a renewal once the card was set up", () => {
    expect(cardRequiresAuthentication("4000002500003155")).toBe(true);
    expect(cardRequiresAuthentication("4000002500003155", { offSession: true, setUpForOffSession: true })).toBe(false);
    expect(cardRequiresAuthentication("4000002500003155", { offSession: true, setUpForOffSession: false })).toBe(true);
  });

  it("asks for 3184 every time, renewals included, and for 3178", () => {
    expect(cardRequiresAuthentication("4000002760003184")).toBe(true);
    expect(cardRequiresAuthentication("4000002760003184", { offSession: true, setUpForOffSession: true })).toBe(true);
    expect(cardRequiresAuthentication("4000008260003178")).toBe(true);
  });

  it("never asks for the other test cards", () => {
    for (const number of ["4242424242424242", "4000000000000002", "4000000000000341"]) {
      expect(cardRequiresAuthentication(number)).toBe(false);
      expect(cardRequiresAuthentication(number, { offSession: true })).toBe(false);
    }
  });
});

let emulator: Awaited<ReturnType<typeof startStripeEmulator>>;
let stripe: Stripe;

beforeAll(async () => {
  emulator = await startStripeEmulator({ port: 0, webhookUrl: null, log: { info: () => {}, warn: () => {} } });
  stripe = new Stripe("sk_test_emulator", { host: "127.0.0.1", port: emulator.port, protocol: "http", maxNetworkRetries: 0 });
  await stripe.products.create({ id: "3ds-product", name: "Pack de masques" });
});
afterAll(async () => {
  await emulator.close();
});

/** A call made the way Stripe.js makes it (publishable key). */
async function browser(path: string, params: Record<string, unknown>) {
  const response = await fetch(`${emulator.url}${path}`, {
    method: "POST",
    body: encodeStripeParams(params),
    headers: { Authorization: "Bearer pk_test_emulator", "Content-Type": "application/x-www-form-urlencoded" },
  });
  return { status: response.status, body: await response.json() };
}

async function newCard(number: string): Promise<string> {
  const { body } = await browser("/v1/payment_methods", {
    type: "card",
    card: { number, exp_month: 12, exp_year: new Date().getFullYear() + 5, cvc: "123" },
  });
  return body.id;
}

function confirm(clientSecret: string, pm: string) {
  return browser(`/v1/payment_intents/${clientSecret.split("_secret_")[0]}/confirm`, {
    client_secret: clientSecret,
    payment_method: pm,
  });
}

function answer(clientSecret: string, result: "authorized" | "refused") {
  return browser(`/v1/emulator/payment_intents/${clientSecret.split("_secret_")[0]}/authenticate`, {
    client_secret: clientSecret,
    result,
  });
}

function typesSince(count: number) {
  return emulator.events.slice(count).map((e) => e.type);
}

describe("a payment made with the customer, with a 3-D Secure card", () => {
  it("waits in requires_action for the challenge (3155), then succeeds once authorized", async () => {
    const pi = await stripe.paymentIntents.create({ amount: 2590, currency: "eur" });
    const confirmed = await confirm(pi.client_secret!, await newCard("4000002500003155"));
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ status: "requires_action", next_action: { type: "use_stripe_sdk" } });
    expect((await stripe.paymentIntents.retrieve(pi.id)).status).toBe("requires_action");

    const before = emulator.events.length;
    const authorized = await answer(pi.client_secret!, "authorized");
    expect(authorized.body).toMatchObject({ status: "succeeded", next_action: null, amount_received: 2590 });
    expect(typesSince(before)).toEqual(["charge.succeeded", "payment_intent.succeeded"]);
  });

  it("refused: Stripe's payment_intent_authentication_failure, and another card pays", async () => {
    const pi = await stripe.paymentIntents.create({ amount: 2590, currency: "eur" });
    await confirm(pi.client_secret!, await newCard("4000002500003155"));
    const refused = await answer(pi.client_secret!, "refused");
    expect(refused.body).toMatchObject({
      status: "requires_payment_method",
      last_payment_error: { code: "payment_intent_authentication_failure" },
    });
    // No second answer to a challenge that is over.
    expect((await answer(pi.client_secret!, "authorized")).status).toBe(400);
    const paid = await confirm(pi.client_secret!, await newCard("4242424242424242"));
    expect(paid.body.status).toBe("succeeded");
  });

  it("3178: the challenge succeeds, then the card is declined for insufficient funds", async () => {
    const pi = await stripe.paymentIntents.create({ amount: 2590, currency: "eur" });
    expect((await confirm(pi.client_secret!, await newCard("4000008260003178"))).body.status).toBe("requires_action");
    const declined = await answer(pi.client_secret!, "authorized");
    expect(declined.status).toBe(402);
    expect(declined.body.error).toMatchObject({ type: "card_error", code: "card_declined", decline_code: "insufficient_funds" });
    expect((await stripe.paymentIntents.retrieve(pi.id)).status).toBe("requires_payment_method");
  });

  it("answers the challenge only with the PaymentIntent's client secret", async () => {
    const pi = await stripe.paymentIntents.create({ amount: 2590, currency: "eur" });
    await confirm(pi.client_secret!, await newCard("4000002500003155"));
    const wrong = await browser(`/v1/emulator/payment_intents/${pi.id}/authenticate`, {
      client_secret: "x",
      result: "authorized",
    });
    expect(wrong.status).toBe(404);
    expect((await stripe.paymentIntents.retrieve(pi.id)).status).toBe("requires_action");
  });

  it("off session, a card that asks for authentication fails with authentication_required", async () => {
    const customer = await stripe.customers.create({ email: "hors-session@example.fr" });
    const pm = await newCard("4000002760003184");
    await stripe.paymentMethods.attach(pm, { customer: customer.id });
    const error = await stripe.paymentIntents
      .create({ amount: 2590, currency: "eur", customer: customer.id, payment_method: pm, off_session: true, confirm: true })
      .catch((e: Stripe.errors.StripeError) => e);
    expect(error).toMatchObject({
      type: "StripeCardError",
      code: "authentication_required",
      decline_code: "authentication_required",
    });
  });
});

/** A subscription paid in the browser with `card` (challenge authorized), its card the default one. */
async function subscribeWith(card: string) {
  const customer = await stripe.customers.create({ email: "abonnee@example.fr" });
  const sub = await stripe.subscriptions.create({
    customer: customer.id,
    payment_behavior: "default_incomplete",
    items: [
      {
        price_data: {
          currency: "eur",
          product: "3ds-product",
          unit_amount: 2590,
          recurring: { interval: "week", interval_count: 4 },
        },
      },
    ],
    expand: ["latest_invoice.confirmation_secret"],
  });
  const secret = (sub.latest_invoice as Stripe.Invoice).confirmation_secret!.client_secret;
  const pm = await newCard(card);
  expect((await confirm(secret, pm)).body.status).toBe("requires_action");
  expect((await answer(secret, "authorized")).body.status).toBe("succeeded");
  await stripe.subscriptions.update(sub.id, { default_payment_method: pm });
  expect((await stripe.subscriptions.retrieve(sub.id)).status).toBe("active");
  return sub;
}

async function renew(subscriptionId: string): Promise<Stripe.Invoice> {
  const response = await fetch(`${emulator.url}/v1/test_helpers/emulator/subscriptions/${subscriptionId}/renew`, {
    method: "POST",
    headers: { Authorization: "Bearer sk_test_emulator" },
  });
  return (await response.json()) as Stripe.Invoice;
}

describe("renewals with a 3-D Secure card", () => {
  it("3155 set up by the first payment: the renewal is paid without the customer", async () => {
    const sub = await subscribeWith("4000002500003155");
    const renewal = await renew(sub.id);
    expect((await stripe.invoices.retrieve(renewal.id!)).status).toBe("paid");
  });

  it("3184: the renewal fails with authentication_required, asks for the customer, and is paid once they authenticate", async () => {
    const sub = await subscribeWith("4000002760003184");
    const before = emulator.events.length;
    const renewal = await renew(sub.id);
    const types = typesSince(before);
    expect(types).toContain("invoice.payment_action_required");
    expect(types).toContain("invoice.payment_failed");
    expect(types.indexOf("invoice.payment_action_required")).toBeLessThan(types.indexOf("invoice.payment_failed"));
    const open = await stripe.invoices.retrieve(renewal.id!, { expand: ["confirmation_secret", "payments"] });
    expect(open).toMatchObject({ status: "open", attempt_count: 1 });
    const piId = open.payments!.data[0].payment.payment_intent as string;
    expect(await stripe.paymentIntents.retrieve(piId)).toMatchObject({
      status: "requires_action",
      last_payment_error: { code: "authentication_required" },
    });
    expect((await stripe.subscriptions.retrieve(sub.id)).status).toBe("past_due");

    // On the pay page: the card again, with the customer this time.
    const secret = open.confirmation_secret!.client_secret;
    expect((await confirm(secret, await newCard("4000002760003184"))).body.status).toBe("requires_action");
    expect((await answer(secret, "authorized")).body.status).toBe("succeeded");
    expect((await stripe.invoices.retrieve(renewal.id!)).status).toBe("paid");
    expect((await stripe.subscriptions.retrieve(sub.id)).status).toBe("active");
  });
});
