import net from "node:net";
import { eq } from "drizzle-orm";
import { getConfig } from "~/config.server";
import { getDb } from "~/db/client.server";
import { orderItems, orders, products, stripeEvents } from "~/db/schema";
import { action as proxyAction, loader as proxyLoader } from "~/routes/stripe-emulator.api.$";
import { action as webhookAction } from "~/routes/api.stripe.webhook";
import { hashOrderToken } from "~/services/orders/access.server";
import { ensureStripeEmulator, stopStripeEmulator, type StripeEmulatorHandle } from "~/services/stripe.server";
import { jsonRequest, routeArgs } from "../helpers/requests";

/** Shared set-up of the payment tests: an in-process emulator on a free port, orders in the DB. */

export const CARDS = {
  success: "4242424242424242",
  declined: "4000000000000002",
  incorrectCvc: "4000000000000127",
  incorrectZip: "4000000000000036",
  /** 3-D Secure: asked on the first payment, not for renewals once saved. */
  authFirstPayment: "4000002500003155",
  /** 3-D Secure: asked on every payment, renewals included. */
  authAlways: "4000002760003184",
} as const;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Starts this process's emulator (the one the app uses) on a free port; webhooks are delivered by hand. */
export async function startTestEmulator(): Promise<StripeEmulatorHandle> {
  const port = await freePort();
  process.env.STRIPE_EMULATOR_PORT = String(port);
  if (getConfig().stripe.emulatorPort !== port) {
    throw new Error("The configuration was read before the test emulator port was chosen.");
  }
  const emulator = await ensureStripeEmulator();
  emulator.setWebhookTarget(null);
  return emulator;
}

export async function stopTestEmulator() {
  await stopStripeEmulator();
}

/** Delivers the emulator's webhooks to the real route, as Stripe would (signed, raw body). */
export function deliverWebhooksToRoute(emulator: StripeEmulatorHandle) {
  emulator.setWebhookTarget(async ({ payload, signature }) => {
    const response = await postWebhook(payload, signature);
    return { status: response.status };
  });
}

/**
 * `withWebhooks(run)`: the emulator's webhooks go to the real route while `run` runs, and all of
 * them are delivered before it answers.
 */
export function webhookDelivery(emulator: () => StripeEmulatorHandle) {
  return async function withWebhooks<T>(run: () => Promise<T>): Promise<T> {
    deliverWebhooksToRoute(emulator());
    try {
      const result = await run();
      await emulator().flushWebhooks();
      return result;
    } finally {
      emulator().setWebhookTarget(null);
    }
  };
}

export function webhookRequest(payload: string, signature: string | null) {
  return new Request("http://localhost:3000/api/stripe/webhook", {
    method: "POST",
    body: payload,
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      ...(signature ? { "Stripe-Signature": signature } : {}),
    },
  });
}

export async function postWebhook(payload: string, signature: string | null) {
  return webhookAction(routeArgs(webhookRequest(payload, signature)));
}

/** Re-sends one of the emulator's events to the webhook route, freshly signed. */
export async function replayEvent(emulator: StripeEmulatorHandle, event: unknown) {
  const { payload, signature } = emulator.signEvent(event);
  return postWebhook(payload, signature);
}

let nextOrderId = 300_000_000 + Math.floor(Math.random() * 100_000_000);

/** The token of every test order made without a cart: it proves ownership to the payment API. */
export const TEST_ORDER_TOKEN = "test-order-token-0123456789abcdefghijklmnop";
/** The access the payment services need for a test order made without a cart. */
export const TEST_ACCESS = { token: TEST_ORDER_TOKEN } as const;

/**
 * An unpaid order written straight into the DB, like the delivery form leaves it. Owned by the
 * given cart, else by the holder of TEST_ORDER_TOKEN (an API client).
 */
export async function createTestOrder(
  options: {
    quantity?: number;
    unitPriceCents?: number;
    productId?: number;
    cartId?: string;
    packId?: number;
    email?: string | null;
  } = {},
) {
  const quantity = options.quantity ?? 1;
  const unit = options.unitPriceCents ?? 2590;
  const id = nextOrderId++;
  const db = getDb();
  await db.insert(orders).values({
    id,
    subtotalCents: quantity * unit,
    shippingCents: 0,
    totalCents: quantity * unit,
    customerEmail: options.email === undefined ? "camille.martin@example.fr" : options.email,
    customerName: "Camille Martin",
    shippingAddress: "12 rue des Lilas",
    shippingPostalCode: "75011",
    shippingCity: "Paris",
    shippingCountry: "France",
    cartId: options.cartId ?? null,
    tokenHash: options.cartId ? null : hashOrderToken(TEST_ORDER_TOKEN),
  });
  await db.insert(orderItems).values({
    orderId: id,
    productId: options.productId ?? 1,
    packId: options.packId ?? 2,
    quantity,
    unitPriceCents: unit,
    productName: "Masque Hydrogel au Collagène",
    variantName: "6 masques + 2 offerts",
  });
  return id;
}

export async function getOrder(id: number) {
  return (await getDb().select().from(orders).where(eq(orders.id, id)).limit(1))[0]!;
}

export async function productStock(id = 1) {
  return (await getDb().select({ stock: products.stock }).from(products).where(eq(products.id, id)).limit(1))[0]!.stock;
}

export async function recordedEventIds() {
  return (await getDb().select({ id: stripeEvents.id }).from(stripeEvents)).map((r) => r.id);
}

// ---- What the browser does (through the demo proxy, like the emulator's Stripe.js stand-in) ----

const PK = "pk_test_emulator";

function proxyRequest(path: string, method: "GET" | "POST", form?: Record<string, string>) {
  return new Request(`http://localhost:3000/stripe-emulator/api/${path}`, {
    method,
    body: form ? new URLSearchParams(form) : undefined,
    headers: {
      Authorization: `Bearer ${PK}`,
      Origin: "http://localhost:3000",
      ...(form ? { "Content-Type": "application/x-www-form-urlencoded" } : {}),
    },
  });
}

export async function browserCreatePaymentMethod(number: string, postalCode = "75011") {
  const response = await proxyAction(
    routeArgs(
      proxyRequest("v1/payment_methods", "POST", {
        type: "card",
        "card[number]": number,
        "card[exp_month]": "12",
        "card[exp_year]": String(new Date().getFullYear() + 3),
        "card[cvc]": "123",
        "billing_details[name]": "Camille Martin",
        "billing_details[address][line1]": "12 rue des Lilas",
        "billing_details[address][postal_code]": postalCode,
        "billing_details[address][city]": "Paris",
        "billing_details[address][country]": "FR",
      }),
      { "*": "v1/payment_methods" },
    ),
  );
  const body = await response.json();
  if (!response.ok) throw new Error(`payment method refused: ${JSON.stringify(body)}`);
  return body.id as string;
}

export async function browserConfirm(clientSecret: string, paymentMethodId: string) {
  const piId = clientSecret.split("_secret_")[0];
  const path = `v1/payment_intents/${piId}/confirm`;
  const response = await proxyAction(
    routeArgs(proxyRequest(path, "POST", { client_secret: clientSecret, payment_method: paymentMethodId }), { "*": path }),
  );
  return { status: response.status, body: await response.json() };
}

/** The customer's answer to the bank's 3-D Secure challenge, as the Stripe.js stand-in sends it. */
export async function browserAuthenticate(clientSecret: string, result: "authorized" | "refused") {
  const piId = clientSecret.split("_secret_")[0];
  const path = `v1/emulator/payment_intents/${piId}/authenticate`;
  const response = await proxyAction(
    routeArgs(proxyRequest(path, "POST", { client_secret: clientSecret, result }), { "*": path }),
  );
  return { status: response.status, body: await response.json() };
}

/** Stripe.js's confirmCardSetup, as the stand-in sends it: the SetupIntent confirmed with a card. */
export async function browserConfirmSetup(clientSecret: string, paymentMethodId: string) {
  const setiId = clientSecret.split("_secret_")[0];
  const path = `v1/setup_intents/${setiId}/confirm`;
  const response = await proxyAction(
    routeArgs(proxyRequest(path, "POST", { client_secret: clientSecret, payment_method: paymentMethodId }), { "*": path }),
  );
  return { status: response.status, body: await response.json() };
}

/** The customer's answer to the 3-D Secure challenge of a card being set up. */
export async function browserAuthenticateSetup(clientSecret: string, result: "authorized" | "refused") {
  const setiId = clientSecret.split("_secret_")[0];
  const path = `v1/emulator/setup_intents/${setiId}/authenticate`;
  const response = await proxyAction(
    routeArgs(proxyRequest(path, "POST", { client_secret: clientSecret, result }), { "*": path }),
  );
  return { status: response.status, body: await response.json() };
}

export async function browserRetrieve(clientSecret: string) {
  const piId = clientSecret.split("_secret_")[0];
  const path = `v1/payment_intents/${piId}`;
  const request = new Request(
    `http://localhost:3000/stripe-emulator/api/${path}?client_secret=${encodeURIComponent(clientSecret)}`,
    {
      headers: { Authorization: `Bearer ${PK}` },
    },
  );
  const response = await proxyLoader(routeArgs(request, { "*": path }));
  return { status: response.status, body: await response.json() };
}

/** The browser paying with a card: create the payment method, confirm the client secret. */
export async function browserPay(clientSecret: string, card: string) {
  const pm = await browserCreatePaymentMethod(card);
  return { paymentMethodId: pm, ...(await browserConfirm(clientSecret, pm)) };
}

export { jsonRequest, routeArgs };

/** A JSON POST to a payment route by the holder of TEST_ORDER_TOKEN (the test orders' owner). */
export function ownerRequest(path: string, body: unknown) {
  return jsonRequest(path, "POST", body, { "X-Order-Token": TEST_ORDER_TOKEN });
}
