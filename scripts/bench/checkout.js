// @ts-check
// The write path, from its own process: shoppers buying at the same time, each purchase by a
// new shopper (own cookie jar, own client address) doing what the pages do with JavaScript:
// 1. POST /panier intent=add (the product page's « Commander »): a pack in a new cart;
// 2. POST /panier intent=delivery (the delivery form): the order is created, its number returned;
// 3. POST /api/payments/start (the payment step): the PaymentIntent's client secret;
// 4. the card confirmed as Stripe.js does it, straight to Stripe (here the demo's emulator, which
//    runs in its own process, not in the shop's workers): POST /v1/payment_methods then
//    POST /v1/payment_intents/{id}/confirm, with the publishable key and the client secret;
// 5. POST /api/payments/confirm (the server asks Stripe): the order paid, its invoice numbered
//    and its confirmation email queued; the emulator's webhook arrives meanwhile or just after.
// A purchase counts once step 5 answers { paid: true }.
// The shop runs with TRUST_PROXY=1, as behind one reverse proxy: each shopper's address is
// the X-Forwarded-For it sends (198.18.0.0/15, the addresses kept for benchmarks), so the
// per-address limits apply to each shopper as in real life, unchanged.
// The parent sends { origin, emulator, publishableKey, shoppers, warmupSeconds, seconds,
// productId, packId, firstShopper } and gets back the measure's { checkouts, rps, p50, p99,
// errors, errorSamples } plus orderIds, every paid order's number (warm-up included).
import http from "node:http";
import { Readable } from "node:stream";
import { performance } from "node:perf_hooks";
import { decode } from "turbo-stream";
import { serveParent, tellParent } from "./http.js";

/**
 * @typedef {{
 *   origin: string, emulator: string, publishableKey: string, shoppers: number, warmupSeconds: number,
 *   seconds: number, productId: number, packId: number, firstShopper: number,
 * }} CheckoutInput
 * @typedef {{
 *   checkouts: number, rps: number, p50: number, p99: number, errors: number, warmupErrors: number,
 *   errorSamples: string[], orderIds: number[], cpuMs: number, requests: { shop: number, stripeJs: number },
 * }} CheckoutResult
 * cpuMs: this process's CPU time during the measure; requests: those it sent during the measure.
 */

const FORM_ACTION = "/panier.data";

let shopperCount = 0;
/** Requests sent: to the shop, and to Stripe as Stripe.js does. */
const sent = { shop: 0, stripeJs: 0 };

/** A new shopper: an address of 198.18.0.0/15 of its own and an empty cookie jar. */
function newShopper() {
  const n = shopperCount++;
  return { n, address: `198.${18 + ((n >> 16) & 1)}.${(n >> 8) & 255}.${n & 255}`, cookies: new Map() };
}

/** Keep-alive connections shared by the shoppers, as browsers keep theirs open. */
const agent = new http.Agent({ keepAlive: true, maxSockets: 128 });

/**
 * One request of a shopper, cookies kept like a browser does. node:http rather than fetch:
 * the load generator shares the machine with the shop, so it must cost as little as it can.
 * @param {string} origin
 * @param {ReturnType<typeof newShopper>} shopper
 * @param {string} path
 * @param {Record<string, string>} [form] posted urlencoded when given
 * @param {unknown} [json] posted as JSON when given (the payment step's API calls)
 */
function request(origin, shopper, path, form, json) {
  /** @type {Record<string, string>} */
  const headers = {
    "X-Forwarded-For": shopper.address,
    "Sec-Fetch-Site": "same-origin",
    "Sec-Fetch-Mode": "cors",
    Accept: "*/*",
  };
  if (shopper.cookies.size > 0) headers.Cookie = [...shopper.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  const body = form ? new URLSearchParams(form).toString() : json !== undefined ? JSON.stringify(json) : undefined;
  if (body !== undefined) {
    headers["Content-Type"] = form ? "application/x-www-form-urlencoded;charset=UTF-8" : "application/json";
    headers["Content-Length"] = String(Buffer.byteLength(body));
    headers.Origin = origin;
  }
  sent.shop++;
  return new Promise((resolve, reject) => {
    const req = http.request(origin + path, { method: body !== undefined ? "POST" : "GET", headers, agent }, (res) => {
      for (const cookie of res.headers["set-cookie"] ?? []) {
        const [pair] = cookie.split(";");
        const eq = pair.indexOf("=");
        shopper.cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
      }
      /** @type {Buffer[]} */
      const chunks = [];
      res.on("data", (chunk) => chunks.push(chunk));
      res.on("error", reject);
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        if (res.statusCode !== 200) {
          reject(new Error(`${form?.intent ?? (body ? "POST" : "GET")} ${path}: HTTP ${res.statusCode} ${text.slice(0, 200)}`));
          return;
        }
        // A page's action answers in single fetch's format, as the browser's Remix reads it.
        if (String(res.headers["content-type"]).startsWith("text/x-script")) {
          decode(/** @type {ReadableStream<Uint8Array>} */ (Readable.toWeb(Readable.from([Buffer.from(text)]))))
            .then(async (decoded) => {
              await decoded.done;
              resolve(/** @type {{ data?: unknown }} */ (decoded.value).data);
            })
            .catch(reject);
          return;
        }
        try {
          resolve(JSON.parse(text));
        } catch {
          reject(new Error(`${form?.intent ?? (body ? "POST" : "GET")} ${path}: not JSON: ${text.slice(0, 200)}`));
        }
      });
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** Stripe.js's calls (here to the emulator): the publishable key, a form body, JSON back. */
const stripeAgent = new http.Agent({ keepAlive: true, maxSockets: 128 });

/**
 * @param {CheckoutInput} input
 * @param {string} path
 * @param {Record<string, string>} params
 * @returns {Promise<any>}
 */
function stripeJs(input, path, params) {
  const body = new URLSearchParams(params).toString();
  sent.stripeJs++;
  return new Promise((resolve, reject) => {
    const req = http.request(
      input.emulator + path,
      {
        method: "POST",
        agent: stripeAgent,
        headers: {
          Authorization: `Bearer ${input.publishableKey}`,
          "Content-Type": "application/x-www-form-urlencoded",
          "Content-Length": String(Buffer.byteLength(body)),
        },
      },
      (res) => {
        /** @type {Buffer[]} */
        const chunks = [];
        res.on("data", (chunk) => chunks.push(chunk));
        res.on("error", reject);
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          if (res.statusCode !== 200) reject(new Error(`Stripe ${path}: HTTP ${res.statusCode} ${text.slice(0, 200)}`));
          else resolve(JSON.parse(text));
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const EXPIRY_YEAR = String(new Date().getFullYear() + 3);

/**
 * A whole purchase by a new shopper; returns the paid order's number.
 * @param {CheckoutInput} input
 */
async function checkout(input) {
  const shopper = newShopper();
  const added = await request(input.origin, shopper, FORM_ACTION, {
    intent: "add",
    productId: String(input.productId),
    packId: String(input.packId),
    redirectTo: "/panier",
  });
  if (!added?.ok) throw new Error(`add: ${JSON.stringify(added)}`);
  const email = `client.${shopper.n}@example.fr`;
  const delivered = await request(input.origin, shopper, FORM_ACTION, {
    intent: "delivery",
    firstName: "Camille",
    lastName: "Martin",
    email,
    address: "8 rue des Fleurs",
    address2: "",
    postalCode: "69003",
    city: "Lyon",
    phone: "",
    website: "",
  });
  const orderId = delivered?.orderId;
  if (!delivered?.ok || typeof orderId !== "number") throw new Error(`delivery: ${JSON.stringify(delivered).slice(0, 300)}`);
  // The payment step: the server starts the payment for the cart's order.
  const started = await request(input.origin, shopper, "/api/payments/start", undefined, { orderId, mode: "one_off" });
  if (typeof started?.clientSecret !== "string" || typeof started?.paymentIntentId !== "string") {
    throw new Error(`payment start ${orderId}: ${JSON.stringify(started).slice(0, 200)}`);
  }
  // Stripe.js: the card, then the confirmation with the client secret.
  const method = await stripeJs(input, "/v1/payment_methods", {
    type: "card",
    "card[number]": "4242424242424242",
    "card[exp_month]": "12",
    "card[exp_year]": EXPIRY_YEAR,
    "card[cvc]": "123",
    "billing_details[name]": "Camille Martin",
    "billing_details[email]": email,
  });
  const intent = await stripeJs(input, `/v1/payment_intents/${started.paymentIntentId}/confirm`, {
    client_secret: started.clientSecret,
    payment_method: method.id,
  });
  if (intent?.status !== "succeeded") throw new Error(`card ${orderId}: ${JSON.stringify(intent).slice(0, 200)}`);
  // The server's confirmation: it asks Stripe, and the order is paid.
  const confirmed = await request(input.origin, shopper, "/api/payments/confirm", undefined, { orderId });
  if (confirmed?.paid !== true) throw new Error(`confirm ${orderId}: ${JSON.stringify(confirmed).slice(0, 200)}`);
  return orderId;
}

/** @param {number[]} sorted @param {number} q */
const quantile = (sorted, q) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : 0);

/**
 * The shoppers buy until `seconds` have passed; the order numbers go to `orderIds`.
 * @param {CheckoutInput} input
 * @param {number} seconds
 * @param {number[]} orderIds
 */
async function phase(input, seconds, orderIds) {
  /** @type {number[]} */
  const durations = [];
  /** @type {string[]} */
  const errorSamples = [];
  let errors = 0;
  const started = performance.now();
  const end = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: input.shoppers }, async () => {
      while (performance.now() < end) {
        const t = performance.now();
        try {
          orderIds.push(await checkout(input));
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
    checkouts: durations.length,
    rps: durations.length / elapsed,
    p50: quantile(durations, 0.5),
    p99: quantile(durations, 0.99),
    errors,
    errorSamples,
  };
}

serveParent(
  /** @param {CheckoutInput} input @returns {Promise<CheckoutResult>} */
  async (input) => {
    shopperCount = input.firstShopper;
    /** @type {number[]} */
    const orderIds = [];
    const warmup = input.warmupSeconds > 0 ? await phase(input, input.warmupSeconds, orderIds) : null;
    // The parent notes each process's CPU time at the start and the end of the measure.
    await tellParent("measure-start");
    // The shop may have closed the connections left idle meanwhile (its keep-alive timeout):
    // reused, they would fail with "socket hang up". The measure opens new ones.
    agent.destroy();
    stripeAgent.destroy();
    const cpuBefore = process.cpuUsage();
    const sentBefore = { ...sent };
    const measure = await phase(input, input.seconds, orderIds);
    const cpu = process.cpuUsage(cpuBefore);
    await tellParent("measure-end");
    return {
      ...measure,
      cpuMs: (cpu.user + cpu.system) / 1000,
      requests: { shop: sent.shop - sentBefore.shop, stripeJs: sent.stripeJs - sentBefore.stripeJs },
      warmupErrors: warmup?.errors ?? 0,
      errorSamples: [...(warmup?.errorSamples ?? []), ...measure.errorSamples].slice(0, 5),
      orderIds,
    };
  },
);
