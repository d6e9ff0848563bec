import net from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getConfig } from "~/config.server";
import { getDb } from "~/db/client.server";
import { auditLog, orders, stripeErasures, subscriptions, users } from "~/db/schema";
import { action as apiEraseAction } from "~/routes/api.admin.customers.$id.erase";
import { loader as apiDetailLoader } from "~/routes/api.admin.customers.$id";
import { action as pageActionRoute, loader as pageLoaderRoute } from "~/routes/admin.customers.$id";
import { action as createSubscriptionAction } from "~/routes/api.create-subscription";
import { action as startAction } from "~/routes/api.payments.start";
import { findOrCreateCustomer } from "~/services/customers/accounts.server";
import { erasedEmail } from "~/services/customers/placeholders.server";
import { cancelSubscription } from "~/services/subscriptions/cancel.server";
import { createSubscriptionScheduler } from "~/services/subscriptions/scheduler.server";
import type { StripeEmulatorHandle } from "~/services/stripe.server";
import { startStripeEmulator } from "../../stripe-emulator/server.js";
import { asResponses } from "../helpers/route-response";
import { formRequest, getRequest, jsonRequest, routeArgs } from "../helpers/requests";
import { adminCookie } from "./admin-helpers";
import { browserPay, CARDS, createTestOrder, ownerRequest, webhookDelivery } from "./payments-fixtures";

/**
 * The erasure reaches Stripe: after it, the emulator's customer has no email, name, phone or
 * address of the customer, their saved card is emptied and detached, and each PaymentIntent has
 * no receipt_email nor shipping. When Stripe cannot be reached, the database's erasure still
 * happens, the back office says the Stripe part is pending, and the scheduler finishes it later.
 *
 * The shop talks to the emulator through a relay on the configured port, which the tests cut and
 * restore (Stripe unreachable, then back), the emulator keeping its objects meanwhile.
 */

const pageAction = asResponses(pageActionRoute);
const pageLoader = asResponses(pageLoaderRoute);

let relayUp = true;
const relaySockets = new Set<net.Socket>();
let relay: net.Server;
let emulator: Awaited<ReturnType<typeof startStripeEmulator>>;
let cookie: string;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/** Stripe unreachable: connections are cut, the open ones too. */
function cutStripe() {
  relayUp = false;
  for (const socket of relaySockets) socket.destroy();
}

beforeAll(async () => {
  const relayPort = await freePort();
  // Read by the configuration, before anything reads it: the shop's emulator is "elsewhere", on the relay.
  process.env.STRIPE_EMULATOR_PORT = String(relayPort);
  process.env.SHOP_STRIPE_EMULATOR_SHARED = "1";
  const { stripe } = getConfig();
  expect(stripe.emulatorPort).toBe(relayPort);
  emulator = await startStripeEmulator({
    port: 0,
    host: "127.0.0.1",
    secretKey: stripe.secretKey,
    publishableKey: stripe.publishableKey,
    webhookSecret: stripe.webhookSecret,
    webhookUrl: null,
    log: { info: () => {}, warn: () => {} },
  });
  relay = net.createServer((client) => {
    if (!relayUp) return client.destroy();
    const upstream = net.connect(emulator.port, "127.0.0.1");
    for (const socket of [client, upstream]) {
      relaySockets.add(socket);
      socket.on("close", () => relaySockets.delete(socket));
      socket.on("error", () => undefined);
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => relay.listen(relayPort, "127.0.0.1", resolve));
  cookie = await adminCookie();
});

afterAll(async () => {
  cutStripe();
  await new Promise((resolve) => relay.close(resolve));
  await emulator.close();
  delete process.env.SHOP_STRIPE_EMULATOR_SHARED;
});

const withWebhooks = webhookDelivery(() => emulator as unknown as StripeEmulatorHandle);

/** What the emulator holds, read directly (not through the relay). */
async function atStripe(path: string) {
  const response = await fetch(`${emulator.url}${path}`, {
    headers: { Authorization: `Bearer ${getConfig().stripe.secretKey}` },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown> & { data?: unknown[] };
}

/**
 * A customer who paid a one-off order (its PaymentIntent has their receipt email, and a delivery
 * address set from Stripe's dashboard) and a subscription, canceled since (its Stripe customer
 * has their email and name, and their card saved with its billing details). Both orders shipped.
 */
async function customerAtStripe(email: string) {
  const account = await findOrCreateCustomer(getDb(), {
    email,
    firstName: "Camille",
    lastName: "Martin",
    address: "12 rue des Lilas",
    postalCode: "75011",
    city: "Paris",
    country: "France",
  });
  const oneOff = await createTestOrder({ email });
  const started = await (
    await startAction(routeArgs(ownerRequest("/api/payments/start", { orderId: oneOff, mode: "one_off" })))
  ).json();
  expect((await withWebhooks(() => browserPay(started.clientSecret, CARDS.success))).body.status).toBe("succeeded");
  const stripe = new (await import("stripe")).default(getConfig().stripe.secretKey, {
    host: "127.0.0.1",
    port: emulator.port,
    protocol: "http",
  });
  await stripe.paymentIntents.update(started.paymentIntentId, {
    shipping: { name: "Camille Martin", address: { line1: "12 rue des Lilas", postal_code: "75011", city: "Paris" } },
  });

  const first = await createTestOrder({ email });
  const created = await (
    await createSubscriptionAction(routeArgs(ownerRequest("/api/create-subscription", { orderId: first })))
  ).json();
  expect((await withWebhooks(() => browserPay(created.clientSecret, CARDS.success))).body.status).toBe("succeeded");
  await withWebhooks(() => cancelSubscription({ orderId: String(first), email }));
  const record = (
    await getDb().select().from(subscriptions).where(eq(subscriptions.stripeSubscriptionId, created.subscriptionId)).limit(1)
  )[0]!;
  expect(record.status).toBe("canceled");
  for (const id of [oneOff, first]) await getDb().update(orders).set({ status: "shipped" }).where(eq(orders.id, id));

  const stripeCustomerId = record.stripeCustomerId!;
  const paymentIntentIds = (await getDb().select().from(orders))
    .filter((o) => o.id === oneOff || o.id === first)
    .map((o) => o.stripePaymentIntentId)
    .filter((id): id is string => !!id);
  // The subscription's payments are its invoices' (no receipt email): the order keeps the one-off's.
  expect(paymentIntentIds).toEqual([started.paymentIntentId]);
  return { id: account.id, email, oneOffIntent: started.paymentIntentId as string, stripeCustomerId, paymentIntentIds };
}

type Customer = Awaited<ReturnType<typeof customerAtStripe>>;

/** The customer's values as they could appear at Stripe. */
const needles = (c: Customer) => [c.email, c.email.split("@")[0], "Camille", "Martin", "Lilas"];

function expectNone(object: unknown, c: Customer) {
  const text = JSON.stringify(object).toLowerCase();
  for (const needle of needles(c)) expect(text, needle).not.toContain(needle.toLowerCase());
}

/** Stripe holds the customer's values before the erasure (else the test would prove nothing). */
async function expectStripeHolds(c: Customer) {
  expect(await atStripe(`/v1/customers/${c.stripeCustomerId}`)).toMatchObject({ email: c.email, name: "Camille Martin" });
  const cards = await atStripe(`/v1/customers/${c.stripeCustomerId}/payment_methods`);
  expect(cards.data).toHaveLength(1);
  expect(JSON.stringify(cards)).toContain("Camille Martin");
  expect(await atStripe(`/v1/payment_intents/${c.oneOffIntent}`)).toMatchObject({
    receipt_email: c.email,
    shipping: { name: "Camille Martin" },
  });
}

async function expectStripeErased(c: Customer) {
  const customer = await atStripe(`/v1/customers/${c.stripeCustomerId}`);
  expect(customer).toMatchObject({
    email: null,
    name: "[effacé]",
    phone: null,
    address: null,
    shipping: null,
    description: `Client n° ${c.id} de la boutique : données personnelles effacées à sa demande.`,
  });
  expectNone(customer, c);
  expect((await atStripe(`/v1/customers/${c.stripeCustomerId}/payment_methods`)).data).toEqual([]);
  for (const id of c.paymentIntentIds) {
    const intent = await atStripe(`/v1/payment_intents/${id}`);
    expect(intent).toMatchObject({ receipt_email: null, shipping: null });
    expectNone(intent, c);
  }
}

const auditOf = async (id: number) => getDb().select().from(auditLog).where(eq(auditLog.subjectId, id));

describe("the erasure, with Stripe reachable", () => {
  it("overwrites the Stripe customer, empties and detaches the saved card, and unsets the PaymentIntents' receipt email and delivery address", async () => {
    const c = await customerAtStripe("camille.martin@example.fr");
    await expectStripeHolds(c);

    const response = await pageAction(
      routeArgs(formRequest(`/admin/customers/${c.id}`, { intent: "erase" }, { headers: { Cookie: cookie } }), {
        id: String(c.id),
      }),
    );
    expect(response.status).toBe(302);

    await expectStripeErased(c);
    const lines = await auditOf(c.id);
    expect(lines.map((l) => l.action)).toEqual(["customer.erase", "customer.erase_stripe"]);
    expect(lines[0].details).toEqual({ stripe: { customers: 1, paymentIntents: c.paymentIntentIds.length } });
    expect(lines[1]).toMatchObject({
      actorUsername: "admin",
      details: {
        stripe: { customers: 1, paymentIntents: c.paymentIntentIds.length, paymentMethods: 1, unknown: 0, attempts: 1 },
      },
    });
    expectNone(lines, c);
    const page = await (
      await pageLoader(routeArgs(getRequest(`/admin/customers/${c.id}`, { Cookie: cookie }), { id: String(c.id) }))
    ).json();
    expect(page.stripeErasure).toMatchObject({ status: "done", attempts: 1, nextAttemptAt: null });
    expect(page.audit[0].detailsText).toBe("1 client effacé, 1 paiement effacé, 1 carte retirée (1 essai).");
  });
});

describe("the erasure, with Stripe unreachable", () => {
  it("erases the database at once, shows the Stripe part pending, and the scheduler finishes it once Stripe answers", async () => {
    const c = await customerAtStripe("claire.fontaine@example.fr");
    await expectStripeHolds(c);
    cutStripe();
    const erasedAt = Date.now();
    const response = await apiEraseAction(
      routeArgs(jsonRequest(`/api/admin/customers/${c.id}/erase`, "POST", undefined, { Cookie: cookie }), {
        id: String(c.id),
      }),
    );
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.customer).toMatchObject({ erased: true, email: erasedEmail(c.id) });
    expect(body.stripeErasure).toMatchObject({
      status: "pending",
      customers: 1,
      paymentIntents: c.paymentIntentIds.length,
      attempts: 1,
      lastError: expect.stringContaining("Stripe injoignable"),
    });
    // Nothing changed at Stripe yet; the database is erased all the same.
    await expectStripeHolds(c);
    expect((await getDb().select().from(users).where(eq(users.id, c.id)))[0].email).toBe(erasedEmail(c.id));

    // The back office says so, page and API alike.
    const page = await (
      await pageLoader(routeArgs(getRequest(`/admin/customers/${c.id}`, { Cookie: cookie }), { id: String(c.id) }))
    ).json();
    expect(page.stripeErasure).toMatchObject({ status: "pending", attempts: 1 });
    const api = await (
      await apiDetailLoader(routeArgs(getRequest(`/api/admin/customers/${c.id}`, { Cookie: cookie }), { id: String(c.id) }))
    ).json();
    expect(api.stripeErasure).toMatchObject({ status: "pending", attempts: 1 });
    expect((await auditOf(c.id)).map((l) => l.action)).toEqual(["customer.erase"]);

    const scheduler = createSubscriptionScheduler({ holder: "erasure-test" });
    try {
      // Not due yet (a minute after the failure): nothing is tried.
      await scheduler.tick(new Date(erasedAt + 30_000));
      expect((await getDb().select().from(stripeErasures).where(eq(stripeErasures.subjectId, c.id)))[0].attempts).toBe(1);
      // Due, Stripe still down: one more failed attempt, the next one later.
      await scheduler.tick(new Date(erasedAt + 2 * 60_000));
      const [row] = await getDb().select().from(stripeErasures).where(eq(stripeErasures.subjectId, c.id));
      expect(row).toMatchObject({ status: "pending", attempts: 2 });
      expect(Date.parse(row.nextAttemptAt)).toBeGreaterThan(erasedAt + 6 * 60_000);
      await expectStripeHolds(c);

      // Stripe is back: the next due tick erases there.
      relayUp = true;
      await scheduler.tick(new Date(erasedAt + 10 * 60_000));
    } finally {
      await scheduler.stop();
    }
    await expectStripeErased(c);
    const [done] = await getDb().select().from(stripeErasures).where(eq(stripeErasures.subjectId, c.id));
    expect(done).toMatchObject({ status: "done", attempts: 3, lastError: null });
    const lines = await auditOf(c.id);
    expect(lines.map((l) => l.action)).toEqual(["customer.erase", "customer.erase_stripe"]);
    expect(lines[1]).toMatchObject({
      actorUsername: "admin",
      details: { stripe: { customers: 1, paymentMethods: 1, attempts: 3 } },
    });
    const after = await (
      await pageLoader(routeArgs(getRequest(`/admin/customers/${c.id}`, { Cookie: cookie }), { id: String(c.id) }))
    ).json();
    expect(after.stripeErasure).toMatchObject({ status: "done", nextAttemptAt: null });

    // Another tick finds nothing left to do.
    const again = createSubscriptionScheduler({ holder: "erasure-test" });
    await again.tick(new Date(erasedAt + 24 * 3600_000));
    await again.stop();
    expect((await auditOf(c.id)).length).toBe(2);
  });
});
