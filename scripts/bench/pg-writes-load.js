// @ts-check
// The shoppers of the PostgreSQL write bench, in their own process: each buys as an API client
// does, from a client address of its own (the shop runs with TRUST_PROXY=1), on the servers in
// turn: POST /api/orders, POST /api/payments/start, the card confirmed at the emulator as
// Stripe.js does (a payment method, then the PaymentIntent's confirmation), then POST
// /api/payments/confirm, whose answer says the order is paid. Stripe's webhooks reach the
// servers meanwhile (scripts/bench/emulator.js).
// The parent sends { servers, emulator, secretKey, shoppers, warmupSeconds, seconds } and gets
// back { paid, rps, p50, p99, errors, errorSamples, orderIds } (orderIds: every paid order,
// warm-up included).
import http from "node:http";
import { performance } from "node:perf_hooks";
import { serveParent } from "./http.js";

/** @typedef {{ servers: string[], emulator: string, secretKey: string, shoppers: number, warmupSeconds: number, seconds: number }} LoadInput */

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

/**
 * @param {string} url
 * @param {{ json?: unknown, form?: Record<string, string>, headers?: Record<string, string> }} body
 * @returns {Promise<{ status: number, body: any }>}
 */
function post(url, { json, form, headers = {} }) {
  const payload = json !== undefined ? JSON.stringify(json) : new URLSearchParams(form).toString();
  const type = json !== undefined ? "application/json" : "application/x-www-form-urlencoded";
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: "POST",
        agent,
        headers: { "Content-Type": type, "Content-Length": String(Buffer.byteLength(payload)), ...headers },
      },
      (response) => {
        const chunks = /** @type {Buffer[]} */ ([]);
        response.on("data", (chunk) => chunks.push(chunk));
        response.on("error", reject);
        response.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          try {
            resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) });
          } catch {
            resolve({ status: response.statusCode ?? 0, body: { text: text.slice(0, 200) } });
          }
        });
      },
    );
    request.on("error", reject);
    request.end(payload);
  });
}

let shopperCount = 0;

/**
 * One purchase by a new shopper; returns the paid order's number.
 * @param {LoadInput} input
 */
async function purchase(input) {
  const n = shopperCount++;
  const server = input.servers[n % input.servers.length];
  const headers = { "X-Forwarded-For": `198.${18 + ((n >> 16) & 1)}.${(n >> 8) & 255}.${n & 255}`, Origin: server };
  const order = await post(`${server}/api/orders`, {
    headers,
    json: {
      customerEmail: `acheteur.${process.pid}.${n}@example.fr`,
      customerName: "Camille Martin",
      shippingAddress: "12 rue des Lilas",
      shippingPostalCode: "75011",
      shippingCity: "Paris",
      items: [{ productId: 1, packId: 2, quantity: 1 }],
    },
  });
  if (order.status !== 201) throw new Error(`POST /api/orders: ${order.status} ${JSON.stringify(order.body).slice(0, 200)}`);
  const { id: orderId, token } = order.body;
  const start = await post(`${server}/api/payments/start`, { headers, json: { orderId, mode: "one_off", token } });
  if (start.status !== 200) throw new Error(`start: ${start.status} ${JSON.stringify(start.body).slice(0, 200)}`);
  const stripe = { Authorization: `Bearer ${input.secretKey}` };
  const method = await post(`${input.emulator}/v1/payment_methods`, {
    headers: stripe,
    form: {
      type: "card",
      "card[number]": "4242424242424242",
      "card[exp_month]": "12",
      "card[exp_year]": String(new Date().getFullYear() + 3),
      "card[cvc]": "123",
    },
  });
  const confirmed = await post(`${input.emulator}/v1/payment_intents/${start.body.paymentIntentId}/confirm`, {
    headers: stripe,
    form: { payment_method: method.body.id },
  });
  if (confirmed.body.status !== "succeeded") throw new Error(`card: ${JSON.stringify(confirmed.body).slice(0, 200)}`);
  const paid = await post(`${server}/api/payments/confirm`, { headers, json: { orderId, token } });
  if (paid.body.paid !== true) throw new Error(`confirm: ${paid.status} ${JSON.stringify(paid.body).slice(0, 200)}`);
  return /** @type {number} */ (orderId);
}

/** @param {number[]} sorted @param {number} q */
const quantile = (sorted, q) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : 0);

/**
 * @param {LoadInput} input
 * @param {number} seconds
 * @param {number[]} orderIds
 */
async function phase(input, seconds, orderIds) {
  const durations = /** @type {number[]} */ ([]);
  const errorSamples = /** @type {string[]} */ ([]);
  let errors = 0;
  const started = performance.now();
  const end = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: input.shoppers }, async () => {
      while (performance.now() < end) {
        const t = performance.now();
        try {
          orderIds.push(await purchase(input));
          durations.push(performance.now() - t);
        } catch (error) {
          errors++;
          if (errorSamples.length < 5) errorSamples.push(error instanceof Error ? error.message : String(error));
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  durations.sort((a, b) => a - b);
  return {
    paid: durations.length,
    rps: durations.length / elapsed,
    p50: quantile(durations, 0.5),
    p99: quantile(durations, 0.99),
    errors,
    errorSamples,
  };
}

serveParent(
  /** @param {LoadInput} input */
  async (input) => {
    const orderIds = /** @type {number[]} */ ([]);
    const warmup = input.warmupSeconds > 0 ? await phase(input, input.warmupSeconds, orderIds) : null;
    const measure = await phase(input, input.seconds, orderIds);
    return {
      ...measure,
      errors: measure.errors + (warmup?.errors ?? 0),
      errorSamples: [...(warmup?.errorSamples ?? []), ...measure.errorSamples].slice(0, 5),
      orderIds,
    };
  },
);
