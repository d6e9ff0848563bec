// @ts-check
// The write path, from its own process: shoppers buying at the same time, each checkout by a
// new shopper (own cookie jar, own client address) doing what the pages do with JavaScript:
// 1. POST /panier intent=add (the product page's « Commander »): a pack in a new cart;
// 2. POST /panier intent=delivery (the delivery form): the order is created, its number returned;
// 3. GET /api/orders/{number} (what the payment step and the confirmation show): the order.
// The shop runs with TRUST_PROXY=1, as behind one reverse proxy: each shopper's address is
// the X-Forwarded-For it sends (198.18.0.0/15, the addresses kept for benchmarks), so the
// per-address limits apply to each shopper as in real life, unchanged.
// The parent sends { origin, shoppers, warmupSeconds, seconds, productId, packId } and gets
// back the measure's { checkouts, rps, p50, p99, errors, errorSamples } plus orderIds, every
// order number returned (warm-up included).
import http from "node:http";
import { Readable } from "node:stream";
import { performance } from "node:perf_hooks";
import { decode } from "turbo-stream";
import { serveParent } from "./http.js";

/**
 * @typedef {{ origin: string, shoppers: number, warmupSeconds: number, seconds: number, productId: number, packId: number }} CheckoutInput
 * @typedef {{ checkouts: number, rps: number, p50: number, p99: number, errors: number, warmupErrors: number, errorSamples: string[], orderIds: number[] }} CheckoutResult
 */

const FORM_ACTION = "/panier.data";

let shopperCount = 0;

/** A new shopper: an address of 198.18.0.0/15 of its own and an empty cookie jar. */
function newShopper() {
  const n = shopperCount++;
  return { n, address: `198.${18 + ((n >> 16) & 1)}.${(n >> 8) & 255}.${n & 255}`, cookies: new Map() };
}

/** Keep-alive connections shared by the shoppers, as browsers keep theirs open. */
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/**
 * One request of a shopper, cookies kept like a browser does. node:http rather than fetch:
 * the load generator shares the machine with the shop, so it must cost as little as it can.
 * @param {string} origin
 * @param {ReturnType<typeof newShopper>} shopper
 * @param {string} path
 * @param {Record<string, string>} [form] posted urlencoded when given
 */
function request(origin, shopper, path, form) {
  /** @type {Record<string, string>} */
  const headers = {
    "X-Forwarded-For": shopper.address,
    "Sec-Fetch-Site": "same-origin",
    "Sec-Fetch-Mode": "cors",
    Accept: "*/*",
  };
  if (shopper.cookies.size > 0) headers.Cookie = [...shopper.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  const body = form ? new URLSearchParams(form).toString() : undefined;
  if (body !== undefined) {
    headers["Content-Type"] = "application/x-www-form-urlencoded;charset=UTF-8";
    headers["Content-Length"] = String(Buffer.byteLength(body));
    headers.Origin = origin;
  }
  return new Promise((resolve, reject) => {
    const req = http.request(origin + path, { method: form ? "POST" : "GET", headers, agent }, (res) => {
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
          reject(new Error(`${form?.intent ?? "GET"} ${path}: HTTP ${res.statusCode} ${text.slice(0, 200)}`));
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
          reject(new Error(`${form?.intent ?? "GET"} ${path}: not JSON: ${text.slice(0, 200)}`));
        }
      });
    });
    req.on("error", reject);
    req.end(body);
  });
}

/**
 * A whole checkout by a new shopper; returns the order number.
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
  // The browser that created the order owns it: its details come back with the number.
  const order = await request(input.origin, shopper, `/api/orders/${orderId}`);
  if (order?.id !== orderId || order?.access !== "owner" || order?.customerEmail !== email) {
    throw new Error(`order ${orderId}: ${JSON.stringify(order).slice(0, 200)}`);
  }
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
    /** @type {number[]} */
    const orderIds = [];
    const warmup = input.warmupSeconds > 0 ? await phase(input, input.warmupSeconds, orderIds) : null;
    const measure = await phase(input, input.seconds, orderIds);
    return {
      ...measure,
      warmupErrors: warmup?.errors ?? 0,
      errorSamples: [...(warmup?.errorSamples ?? []), ...measure.errorSamples].slice(0, 5),
      orderIds,
    };
  },
);
