import { spawn } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeStripeParams, parseStripeParams } from "../../stripe-emulator/encoding.js";
import { startStripeEmulator } from "../../stripe-emulator/server.js";
import { HANDLED_WEBHOOK_EVENTS } from "~/services/payments/webhook.server";

/** The emulator alone, driven by the official SDK like the app does. */

const SECRET = "whsec_test_emulator";
let emulator: Awaited<ReturnType<typeof startStripeEmulator>>;
let stripe: Stripe;
const received: Array<{ payload: string; signature: string }> = [];

beforeAll(async () => {
  emulator = await startStripeEmulator({
    port: 0,
    webhookSecret: SECRET,
    webhookUrl: async (delivery: { payload: string; signature: string }) => {
      received.push(delivery);
      return { status: 200 };
    },
    log: { info: () => {}, warn: () => {} },
  });
  stripe = new Stripe("sk_test_emulator", { host: "127.0.0.1", port: emulator.port, protocol: "http", maxNetworkRetries: 0 });
});
afterAll(async () => {
  await emulator.close();
});

async function raw(
  path: string,
  init: { method?: string; key?: string | null; body?: string; headers?: Record<string, string> } = {},
) {
  const key = init.key === undefined ? "sk_test_emulator" : init.key;
  const response = await fetch(`${emulator.url}${path}`, {
    method: init.method ?? "GET",
    body: init.body,
    headers: {
      ...(key ? { Authorization: `Bearer ${key}` } : {}),
      ...(init.body ? { "Content-Type": "application/x-www-form-urlencoded" } : {}),
      ...init.headers,
    },
  });
  return { status: response.status, body: await response.json() };
}

function newCard(number: string) {
  return raw("/v1/payment_methods", {
    method: "POST",
    key: "pk_test_emulator",
    body: encodeStripeParams({
      type: "card",
      card: { number, exp_month: 12, exp_year: new Date().getFullYear() + 2, cvc: "123" },
    }),
  });
}

describe("form encoding", () => {
  it("parses Stripe's bracket notation into objects and arrays", () => {
    const parsed = parseStripeParams(
      "items[0][price_data][recurring][interval]=week&items[0][price_data][recurring][interval_count]=4&items[0][quantity]=1" +
        "&expand[]=latest_invoice&expand[]=customer&metadata[orderId]=123&a[__proto__][x]=1",
    );
    expect(parsed).toEqual({
      items: [{ price_data: { recurring: { interval: "week", interval_count: "4" } }, quantity: "1" }],
      expand: ["latest_invoice", "customer"],
      metadata: { orderId: "123" },
      a: {},
    });
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    expect(parseStripeParams(encodeStripeParams({ a: { b: [{ c: "d" }, { c: "e" }] } }))).toEqual({
      a: { b: [{ c: "d" }, { c: "e" }] },
    });
  });
});

describe("Stripe-shaped API", () => {
  it("answers Stripe's error JSON for auth, missing objects, bad parameters and unknown URLs", async () => {
    expect(await raw("/v1/customers", { key: null, method: "POST", body: "email=a" })).toMatchObject({
      status: 401,
      body: { error: { type: "invalid_request_error" } },
    });
    expect(await raw("/v1/customers", { key: "sk_live_wrong", method: "POST", body: "email=a" })).toMatchObject({ status: 401 });
    // The publishable key cannot do what needs the secret key.
    expect((await raw("/v1/customers", { key: "pk_test_emulator", method: "POST", body: "email=a" })).status).toBe(401);
    expect(await raw("/v1/payment_intents/pi_missing")).toMatchObject({
      status: 404,
      body: {
        error: { type: "invalid_request_error", code: "resource_missing", message: "No such payment_intent: 'pi_missing'" },
      },
    });
    expect(await raw("/v1/payment_intents", { method: "POST", body: "currency=eur" })).toMatchObject({
      status: 400,
      body: { error: { code: "parameter_missing", param: "amount" } },
    });
    expect((await raw("/v1/charges/list/everything")).status).toBe(404);
    await expect(stripe.paymentIntents.retrieve("pi_nope")).rejects.toMatchObject({
      type: "StripeInvalidRequestError",
      code: "resource_missing",
    });
  });

  it("keeps its own helpers (/__emulator/*) behind the secret key", async () => {
    for (const path of ["/__emulator/health", "/__emulator/events"]) {
      for (const key of [null, "pk_test_emulator", "sk_test_emulator_wrong"]) {
        expect(await raw(path, { key }), `${path} with ${key}`).toMatchObject({
          status: 401,
          body: { error: { type: "invalid_request_error" } },
        });
      }
      expect((await raw(path)).status, path).toBe(200);
    }
    expect((await raw("/__emulator/events")).body).toEqual({ data: expect.any(Array) });
  });

  it("replays a request with the same Idempotency-Key and refuses other parameters under it", async () => {
    const a = await stripe.customers.create({ email: "a@example.fr" }, { idempotencyKey: "cust-1" });
    const b = await stripe.customers.create({ email: "a@example.fr" }, { idempotencyKey: "cust-1" });
    expect(b.id).toBe(a.id);
    await expect(stripe.customers.create({ email: "b@example.fr" }, { idempotencyKey: "cust-1" })).rejects.toMatchObject({
      type: "StripeIdempotencyError",
    });
  });

  it("follows the test cards on confirm, and a failed intent can be paid with another card", async () => {
    const pi = await stripe.paymentIntents.create({ amount: 2590, currency: "eur", allowed_payment_method_types: ["card"] });
    const expected: Record<string, { code: string; decline_code: string }> = {
      "4000000000000002": { code: "card_declined", decline_code: "generic_decline" },
      "4000000000000127": { code: "incorrect_cvc", decline_code: "incorrect_cvc" },
      "4000000000000036": { code: "incorrect_zip", decline_code: "incorrect_zip" },
    };
    for (const [number, error] of Object.entries(expected)) {
      const pm = (await newCard(number)).body;
      const result = await raw(`/v1/payment_intents/${pi.id}/confirm`, {
        method: "POST",
        key: "pk_test_emulator",
        body: encodeStripeParams({ client_secret: pi.client_secret, payment_method: pm.id }),
      });
      expect(result.status).toBe(402);
      expect(result.body.error).toMatchObject({
        type: "card_error",
        ...error,
        payment_intent: { id: pi.id, status: "requires_payment_method" },
      });
      expect(typeof result.body.error.message).toBe("string");
    }
    const good = (await newCard("4242424242424242")).body;
    const ok = await stripe.paymentIntents.confirm(pi.id, { payment_method: good.id });
    expect(ok).toMatchObject({ status: "succeeded", amount_received: 2590 });
    await expect(stripe.paymentIntents.confirm(pi.id, { payment_method: good.id })).rejects.toMatchObject({
      code: "payment_intent_unexpected_state",
    });
  });

  it("refuses an invalid card number and a past expiry when creating the payment method", async () => {
    expect((await newCard("4242424242424241")).body.error).toMatchObject({ type: "card_error", code: "incorrect_number" });
    const expired = await raw("/v1/payment_methods", {
      method: "POST",
      key: "pk_test_emulator",
      body: encodeStripeParams({ type: "card", card: { number: "4242424242424242", exp_month: 1, exp_year: 2020, cvc: "123" } }),
    });
    expect(expired.body.error).toMatchObject({ type: "card_error", code: "invalid_expiry_year" });
  });

  it("creates subscriptions with inline prices, a first invoice and its confirmation secret when expanded", async () => {
    await stripe.products.create({ id: "emulator-test-product", name: "Masque" });
    const customer = await stripe.customers.create({ email: "c@example.fr" });
    const sub = await stripe.subscriptions.create({
      customer: customer.id,
      items: [
        {
          price_data: {
            currency: "eur",
            product: "emulator-test-product",
            unit_amount: 3290,
            recurring: { interval: "week", interval_count: 4 },
          },
        },
      ],
      add_invoice_items: [{ price_data: { currency: "eur", product: "emulator-test-product", unit_amount: 3290 } }],
      trial_period_days: 30,
      payment_behavior: "default_incomplete",
      expand: ["latest_invoice.confirmation_secret"],
    });
    const invoice = sub.latest_invoice as Stripe.Invoice;
    expect(sub.status).toBe("incomplete");
    expect(invoice).toMatchObject({ total: 3290, status: "open", confirmation_secret: { type: "payment_intent" } });
    // Not expanded: an id, and no confirmation secret on the invoice.
    const plain = await stripe.subscriptions.retrieve(sub.id);
    expect(typeof plain.latest_invoice).toBe("string");
    expect((await stripe.invoices.retrieve(invoice.id)).confirmation_secret).toBeUndefined();
  });

  it("delivers every event with a Stripe-Signature the official SDK accepts", async () => {
    await stripe.customers.create({ email: "signed@example.fr" });
    await emulator.flushWebhooks();
    expect(received.length).toBeGreaterThan(0);
    for (const { payload, signature } of received) {
      const event = stripe.webhooks.constructEvent(payload, signature, SECRET);
      expect(event.object).toBe("event");
      expect(() => stripe.webhooks.constructEvent(payload, signature, "whsec_other")).toThrow();
    }
    const types = received.map((r) => JSON.parse(r.payload).type);
    expect(types).toContain("customer.created");
    expect(types).toContain("payment_intent.succeeded");
    expect(types).toContain("payment_intent.payment_failed");
  });

  it("retries a webhook the endpoint did not accept", async () => {
    const statuses = [500, 200];
    const seen: string[] = [];
    const retrying = await startStripeEmulator({
      port: 0,
      webhookSecret: SECRET,
      retryDelaysMs: [10, 10],
      webhookUrl: async ({ event }: { event: Record<string, unknown> }) => {
        seen.push(String(event.id));
        return { status: statuses.shift() ?? 200 };
      },
      log: { info: () => {}, warn: () => {} },
    });
    try {
      const client = new Stripe("sk_test_emulator", { host: "127.0.0.1", port: retrying.port, protocol: "http" });
      await client.customers.create({ email: "retry@example.fr" });
      await retrying.flushWebhooks();
      expect(seen).toHaveLength(2);
      expect(seen[0]).toBe(seen[1]);
    } finally {
      await retrying.close();
    }
  });
});

describe("webhook deliveries at once", () => {
  it("delivers one at a time by default, and up to webhookConcurrency at once, as Stripe does; flushWebhooks waits for all", async () => {
    for (const [concurrency, expected] of [
      [undefined, 1],
      [4, 4],
    ] as const) {
      let inFlight = 0;
      let most = 0;
      let delivered = 0;
      const emulator = await startStripeEmulator({
        port: 0,
        webhookSecret: SECRET,
        ...(concurrency ? { webhookConcurrency: concurrency } : {}),
        webhookUrl: async () => {
          inFlight++;
          most = Math.max(most, inFlight);
          await new Promise((resolve) => setTimeout(resolve, 20));
          inFlight--;
          delivered++;
          return { status: 200 };
        },
        log: { info: () => {}, warn: () => {} },
      });
      try {
        const client = new Stripe("sk_test_emulator", { host: "127.0.0.1", port: emulator.port, protocol: "http" });
        for (let i = 0; i < 8; i++) await client.customers.create({ email: `lot${i}@example.fr` });
        await emulator.flushWebhooks();
        expect(delivered).toBe(8);
        expect(inFlight).toBe(0);
        expect(most).toBe(expected);
      } finally {
        await emulator.close();
      }
    }
  });
});

describe("the endpoint's enabled events", () => {
  it("delivers only the events the endpoint is subscribed to, and still creates and lists every event", async () => {
    const delivered: Array<{ type: string; id: string }> = [];
    const subscribed = await startStripeEmulator({
      port: 0,
      webhookSecret: SECRET,
      enabledEvents: HANDLED_WEBHOOK_EVENTS,
      webhookUrl: async ({ payload, signature }: { payload: string; signature: string }) => {
        const event = stripe.webhooks.constructEvent(payload, signature, SECRET);
        delivered.push({ type: event.type, id: event.id });
        return { status: 200 };
      },
      log: { info: () => {}, warn: () => {} },
    });
    try {
      const client = new Stripe("sk_test_emulator", { host: "127.0.0.1", port: subscribed.port, protocol: "http" });
      const intent = await client.paymentIntents.create({ amount: 2590, currency: "eur", metadata: { orderId: "7" } });
      const card = await client.paymentMethods.create({
        type: "card",
        card: { number: "4242424242424242", exp_month: 12, exp_year: new Date().getFullYear() + 2, cvc: "123" },
      } as Stripe.PaymentMethodCreateParams);
      await client.paymentIntents.confirm(intent.id, { payment_method: card.id });
      await subscribed.flushWebhooks();

      const listed = (await client.events.list({ limit: 100 })).data;
      const listedTypes = listed.map((event) => event.type);
      expect(listedTypes).toEqual(
        expect.arrayContaining(["payment_intent.created", "charge.succeeded", "payment_intent.succeeded"]),
      );
      expect(delivered.map((event) => event.type)).toEqual(["payment_intent.succeeded"]);
      expect(delivered[0].id).toBe(listed.find((event) => event.type === "payment_intent.succeeded")?.id);
      // No endpoint waits for an event nobody is subscribed to.
      expect(listed.find((event) => event.type === "charge.succeeded")?.pending_webhooks).toBe(0);
      expect(listed.find((event) => event.type === "payment_intent.succeeded")?.pending_webhooks).toBe(0);
    } finally {
      await subscribed.close();
    }
  });

  it("run alone, takes the enabled events from STRIPE_WEBHOOK_EVENTS", async () => {
    const received: string[] = [];
    const endpoint = http.createServer((request, response) => {
      let body = "";
      request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
      request.on("end", () => {
        received.push(String(JSON.parse(body).type));
        response.writeHead(200, { "Content-Type": "application/json" }).end("{}");
      });
    });
    await new Promise<void>((resolve) => endpoint.listen(0, "127.0.0.1", resolve));
    const endpointPort = (endpoint.address() as AddressInfo).port;
    const port = await new Promise<number>((resolve) => {
      const probe = http.createServer().listen(0, "127.0.0.1", () => {
        const free = (probe.address() as AddressInfo).port;
        probe.close(() => resolve(free));
      });
    });
    const child = spawn(process.execPath, ["stripe-emulator/server.js"], {
      env: {
        ...process.env,
        STRIPE_EMULATOR_PORT: String(port),
        PUBLIC_URL: `http://127.0.0.1:${endpointPort}`,
        STRIPE_EMULATOR_SECRET_KEY: "sk_test_alone",
        STRIPE_WEBHOOK_EVENTS: " customer.updated ,product.created",
      },
      stdio: ["ignore", "pipe", "inherit"],
    });
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout.on("data", (chunk: Buffer) => chunk.toString().includes("listening") && resolve());
        child.once("exit", (code) => reject(new Error(`emulator exited (${code})`)));
      });
      const client = new Stripe("sk_test_alone", { host: "127.0.0.1", port, protocol: "http" });
      const customer = await client.customers.create({ email: "seul@example.fr" });
      await client.customers.update(customer.id, { name: "Seul" });
      await expect.poll(() => received, { timeout: 5_000 }).toEqual(["customer.updated"]);
      const listed = await client.events.list({ limit: 10 });
      expect(listed.data.map((event) => event.type).sort()).toEqual(["customer.created", "customer.updated"]);
    } finally {
      child.kill("SIGTERM");
      endpoint.close();
    }
  });
});

describe("refunds", () => {
  async function paidIntent(amount: number) {
    const pi = await stripe.paymentIntents.create({ amount, currency: "eur", allowed_payment_method_types: ["card"] });
    const card = (await newCard("4242424242424242")).body;
    return stripe.paymentIntents.confirm(pi.id, { payment_method: card.id });
  }

  it("refunds in part then the rest, follows on the charge, sends its events and refuses more than what remains", async () => {
    const pi = await paidIntent(2590);
    const first = await stripe.refunds.create(
      { payment_intent: pi.id, amount: 1000, metadata: { orderId: "123" } },
      { idempotencyKey: "refund-a" },
    );
    expect(first).toMatchObject({
      object: "refund",
      amount: 1000,
      status: "succeeded",
      payment_intent: pi.id,
      metadata: { orderId: "123" },
    });
    // The same key: the same refund, not a second one.
    const again = await stripe.refunds.create(
      { payment_intent: pi.id, amount: 1000, metadata: { orderId: "123" } },
      { idempotencyKey: "refund-a" },
    );
    expect(again.id).toBe(first.id);

    await expect(stripe.refunds.create({ payment_intent: pi.id, amount: 1600 })).rejects.toMatchObject({
      type: "StripeInvalidRequestError",
      code: "amount_too_large",
      param: "amount",
    });
    const rest = await stripe.refunds.create({ charge: first.charge as string });
    expect(rest.amount).toBe(1590);
    const charge = await stripe.charges.retrieve(first.charge as string);
    expect(charge).toMatchObject({ amount_refunded: 2590, refunded: true });
    expect(charge.refunds?.data.map((r) => r.id).sort()).toEqual([first.id, rest.id].sort());
    await expect(stripe.refunds.create({ payment_intent: pi.id, amount: 1 })).rejects.toMatchObject({
      code: "charge_already_refunded",
    });
    expect((await stripe.refunds.retrieve(first.id)).amount).toBe(1000);
    expect((await stripe.refunds.list({ payment_intent: pi.id })).data).toHaveLength(2);

    const types = emulator.events
      .filter(
        (e) =>
          (e.data.object as { id: string; charge?: string }).id === charge.id ||
          (e.data.object as { charge?: string }).charge === charge.id,
      )
      .map((e) => e.type);
    expect(types).toEqual(["charge.succeeded", "refund.created", "charge.refunded", "refund.created", "charge.refunded"]);
    const last = [...emulator.events].reverse().find((e) => e.type === "charge.refunded")!;
    expect(last.data).toMatchObject({
      object: { amount_refunded: 2590, refunded: true },
      previous_attributes: { amount_refunded: 1000, refunded: false },
    });
  });

  it("refuses a refund of an unpaid intent, and a refund that fails gives its amount back on the charge", async () => {
    const unpaid = await stripe.paymentIntents.create({ amount: 990, currency: "eur", allowed_payment_method_types: ["card"] });
    await expect(stripe.refunds.create({ payment_intent: unpaid.id })).rejects.toMatchObject({ code: "charge_not_refundable" });
    await expect(stripe.refunds.create({})).rejects.toMatchObject({ type: "StripeInvalidRequestError" });

    const pi = await paidIntent(990);
    const refund = await stripe.refunds.create({ payment_intent: pi.id });
    const failed = await raw(`/v1/test_helpers/emulator/refunds/${refund.id}/fail`, { method: "POST", body: "" });
    expect(failed.body).toMatchObject({ status: "failed", failure_reason: "expired_or_canceled_card" });
    expect(await stripe.charges.retrieve(refund.charge as string)).toMatchObject({ amount_refunded: 0, refunded: false });
    expect([...emulator.events].reverse().find((e) => e.type === "refund.updated")!.data.object).toMatchObject({
      id: refund.id,
      status: "failed",
    });
  });
});
