// @ts-check
import { randomBytes, timingSafeEqual } from "node:crypto";
import http from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { checkoutSessionRoutes, hostedCheckoutPage } from "./checkout.js";
import { StripeEmulatorCore } from "./core.js";
import { parseStripeParams } from "./encoding.js";
import { signWebhookPayload } from "./signing.js";

/**
 * Local Stripe emulator for development and tests (demo mode only; never in production).
 * Plain Node, no dependency. It answers the subset of Stripe's REST API the shop uses,
 * form-encoded like Stripe, and delivers signed webhooks to the shop.
 *
 *   const emulator = await startStripeEmulator({ port: 12111, secretKey, webhookUrl, webhookSecret });
 *   new Stripe(secretKey, { host: "127.0.0.1", port: emulator.port, protocol: "http" });
 *
 * The shop gives it a secret key drawn at random once per data folder. Every call needs a key,
 * the /__emulator/* helpers included (those need the secret one).
 *
 * Run it alone: `node stripe-emulator/server.js` (STRIPE_EMULATOR_PORT, PUBLIC_URL, STRIPE_WEBHOOK_SECRET,
 * STRIPE_EMULATOR_SECRET_KEY: random and printed when unset; STRIPE_WEBHOOK_EVENTS: the events
 * delivered, comma-separated, `*` or unset for all).
 */

const MAX_BODY = 1024 * 1024;
const RETRY_DELAYS_MS = [300, 1500, 5000];

/**
 * @typedef {import("./core.js").StripeObject} StripeObject
 * @typedef {import("./core.js").StripeEvent} StripeEvent
 * @typedef {{ payload: string, signature: string, event: Record<string, any> }} WebhookDelivery
 * @typedef {string | ((delivery: WebhookDelivery) => Promise<{ status: number } | number | void>) | null} WebhookTarget
 *
 * @typedef {object} EmulatorOptions
 * @property {number} [port] 0 picks a free port
 * @property {string} [host] defaults to 127.0.0.1 (never exposed beyond the machine)
 * @property {string} [secretKey]
 * @property {string} [publishableKey]
 * @property {string} [webhookSecret]
 * @property {WebhookTarget} [webhookUrl] where events are POSTed, or a function receiving them
 * @property {readonly string[]} [enabledEvents] the event types the webhook endpoint is subscribed to, as
 *   a Stripe endpoint's `enabled_events` (default `["*"]`: every event). Every event is still created and
 *   listed (`GET /v1/events`); only the subscribed ones are delivered.
 * @property {{ info?: (...a: unknown[]) => void, warn?: (...a: unknown[]) => void }} [log]
 * @property {number[]} [retryDelaysMs]
 * @property {number} [webhookConcurrency] how many deliveries may be under way at once (default 1: one
 *   after the other, in the order of the events); Stripe itself sends them concurrently, in no set order
 * @property {number} [clockAdvanceDelayMs] how long an advancing test clock stays `advancing` (default 0)
 */

/**
 * @param {EmulatorOptions} [options]
 */
export async function startStripeEmulator(options = {}) {
  const host = options.host ?? "127.0.0.1";
  const webhookSecret = options.webhookSecret ?? "whsec_emulator";
  const log = { info: () => {}, warn: console.warn, ...(options.log ?? {}) };
  const retryDelays = options.retryDelaysMs ?? RETRY_DELAYS_MS;
  /** @type {WebhookTarget} */
  let webhookTarget = options.webhookUrl ?? null;
  const subscribed = subscription(options.enabledEvents);

  /** @type {StripeEvent[]} */
  const queue = [];
  const concurrency = Math.max(1, options.webhookConcurrency ?? 1);
  /** @type {Set<Promise<void>>} the delivery loops under way, at most `concurrency` */
  const draining = new Set();
  let closed = false;

  const core = new StripeEmulatorCore({
    secretKey: options.secretKey,
    publishableKey: options.publishableKey,
    clockAdvanceDelayMs: options.clockAdvanceDelayMs,
    onClockError: (error) => log.warn("[stripe-emulator] test clock failed:", error),
    onEvent(event) {
      event._deliveries = [];
      if (!subscribed(event.type)) {
        // As at Stripe: no endpoint waits for it.
        event.pending_webhooks = 0;
        return;
      }
      if (!webhookTarget || closed) return;
      queue.push(event);
      if (draining.size < concurrency) {
        const loop = drain().finally(() => draining.delete(loop));
        draining.add(loop);
      }
    },
  });

  for (const route of checkoutSessionRoutes(core)) core.addRoute(route.method, route.path, route.run);

  /**
   * @param {StripeObject} event
   * @returns {{ payload: string, signature: string }}
   */
  function sign(event) {
    const payload = JSON.stringify(event, (key, value) => (key.startsWith("_") ? undefined : value), 2);
    return { payload, signature: signWebhookPayload(payload, webhookSecret) };
  }

  /** @returns {Promise<void>} */
  async function drain() {
    while (queue.length > 0 && !closed) {
      const event = queue.shift();
      if (event) await deliver(event);
    }
  }

  /**
   * @param {StripeEvent} event
   * @returns {Promise<void>}
   */
  async function deliver(event) {
    for (let attempt = 0; attempt <= retryDelays.length; attempt++) {
      const target = webhookTarget;
      if (!target || closed) return;
      const { payload, signature } = sign(event);
      let status = 0;
      let failure = "";
      try {
        if (typeof target === "function") {
          const result = await target({ payload, signature, event: JSON.parse(payload) });
          status = typeof result === "number" ? result : (result?.status ?? 200);
        } else {
          const response = await fetch(target, {
            method: "POST",
            headers: {
              "Content-Type": "application/json; charset=utf-8",
              "Stripe-Signature": signature,
              "User-Agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
            },
            body: payload,
            signal: AbortSignal.timeout(10_000),
          });
          status = response.status;
          await response.arrayBuffer().catch(() => undefined);
        }
      } catch (error) {
        failure = error instanceof Error ? error.message : String(error);
      }
      event._deliveries.push({ at: new Date().toISOString(), status, failure: failure || null });
      if (status >= 200 && status < 300) {
        event.pending_webhooks = 0;
        return;
      }
      if (attempt < retryDelays.length) await sleep(retryDelays[attempt]);
    }
    log.warn(`[stripe-emulator] webhook ${event.type} (${event.id}) not delivered after ${retryDelays.length + 1} attempts`);
  }

  /**
   * @param {string | null} key
   * @returns {boolean}
   */
  function isSecretKey(key) {
    const expected = Buffer.from(core.secretKey);
    const given = Buffer.from(key ?? "");
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  const server = http.createServer((req, res) => {
    handleHttp(req, res).catch((error) => {
      if (!res.headersSent) {
        sendJson(res, 500, {
          error: { type: "api_error", message: error instanceof Error ? error.message : "Emulator failure" },
        });
      } else {
        res.destroy();
      }
    });
  });
  server.keepAliveTimeout = 5_000;

  /**
   * @param {http.IncomingMessage} req
   * @param {http.ServerResponse} res
   * @returns {Promise<void>}
   */
  async function handleHttp(req, res) {
    const url = new URL(req.url ?? "/", "http://emulator.local");
    const method = (req.method ?? "GET").toUpperCase();

    // Checkout's hosted payment page (HTML for the shopper's browser, no API key).
    if (url.pathname.startsWith("/c/pay/")) {
      const raw = await readBody(req);
      const page = hostedCheckoutPage(core, { method, path: url.pathname, form: new URLSearchParams(raw ?? "") });
      res.writeHead(page.status, { ...page.headers, "Content-Length": Buffer.byteLength(page.body) });
      res.end(page.body);
      return;
    }

    // The emulator's own helpers answer the secret key only, like the rest of its private API.
    if (url.pathname.startsWith("/__emulator/") && !isSecretKey(readApiKey(req.headers.authorization))) {
      return sendJson(res, 401, {
        error: {
          type: "invalid_request_error",
          message: "The emulator's helpers need the secret key (Authorization: Bearer <secret key>).",
        },
      });
    }
    if (url.pathname === "/__emulator/health") {
      return sendJson(res, 200, { ok: true, emulator: "stripe-emulator", pid: process.pid, port: actualPort });
    }
    if (url.pathname === "/__emulator/events" && method === "GET") {
      return sendJson(res, 200, {
        data: core.events.map((e) => ({ id: e.id, type: e.type, created: e.created, deliveries: e._deliveries ?? [] })),
      });
    }

    const raw = await readBody(req);
    if (raw === null) {
      return sendJson(res, 413, { error: { type: "invalid_request_error", message: "Request body too large." } });
    }
    const params = parseStripeParams(url.searchParams);
    if (raw.length > 0) {
      const type = String(req.headers["content-type"] ?? "");
      if (!type.startsWith("application/x-www-form-urlencoded")) {
        return sendJson(res, 400, {
          error: {
            type: "invalid_request_error",
            message: "Stripe expects form-encoded bodies (application/x-www-form-urlencoded).",
          },
        });
      }
      Object.assign(params, parseStripeParams(raw));
    }
    const result = core.handle({
      method,
      path: url.pathname,
      params,
      apiKey: readApiKey(req.headers.authorization),
      idempotencyKey: headerValue(req.headers["idempotency-key"]),
      stripeVersion: headerValue(req.headers["stripe-version"]),
    });
    return sendJson(res, result.status, result.body, result.headers);
  }

  let actualPort = options.port ?? 12111;
  await new Promise((resolve, reject) => {
    /** @param {Error} error */
    const onError = (error) => {
      server.off("listening", onListening);
      reject(error);
    };
    const onListening = () => {
      server.off("error", onError);
      resolve(undefined);
    };
    server.once("error", onError);
    server.once("listening", onListening);
    server.listen(actualPort, host);
  });
  const address = server.address();
  if (address && typeof address === "object") actualPort = address.port;
  core.publicUrl = `http://${host === "0.0.0.0" ? "127.0.0.1" : host}:${actualPort}`;
  log.info(`[stripe-emulator] listening on http://${host}:${actualPort}`);

  return {
    host,
    port: actualPort,
    url: `http://${host}:${actualPort}`,
    core,
    /** Every event so far, oldest first. */
    get events() {
      return core.events;
    },
    getObject: (/** @type {string} */ id) => core.getObject(id),
    /** @param {WebhookTarget} target */
    setWebhookTarget(target) {
      webhookTarget = target;
    },
    /** Resolves when every queued webhook has been delivered (or given up). */
    async flushWebhooks() {
      while (draining.size > 0) await Promise.all(draining);
    },
    /** The exact payload and Stripe-Signature header Stripe would send for this event. */
    signEvent: (/** @type {Record<string, any>} */ event) => sign(event),
    async close() {
      closed = true;
      queue.length = 0;
      await new Promise((resolve) => {
        server.close(() => resolve(undefined));
        server.closeAllConnections?.();
      });
    },
  };
}

/** @typedef {Awaited<ReturnType<typeof startStripeEmulator>>} StripeEmulator */

/**
 * Whether an event type is delivered, for an endpoint's enabled events (`*`: every event).
 * @param {readonly string[] | undefined} enabledEvents
 * @returns {(type: string) => boolean}
 */
function subscription(enabledEvents) {
  const list = new Set(enabledEvents ?? ["*"]);
  return list.has("*") ? () => true : (type) => list.has(type);
}

/**
 * The enabled events of STRIPE_WEBHOOK_EVENTS: comma-separated event types, `*` (or unset) for all.
 * @param {string | undefined} value
 * @returns {string[]}
 */
function enabledEventsFromEnv(value) {
  const list = (value ?? "")
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
  return list.length > 0 ? list : ["*"];
}

/**
 * The API key of a `Bearer <key>` or `Basic base64(<key>:)` Authorization header.
 * @param {string | undefined} header
 * @returns {string | null}
 */
function readApiKey(header) {
  if (!header) return null;
  const [scheme, value] = header.split(" ");
  if (!value) return null;
  if (scheme.toLowerCase() === "bearer") return value.trim();
  if (scheme.toLowerCase() === "basic") {
    const decoded = Buffer.from(value, "base64").toString("utf8");
    return decoded.split(":")[0] || null;
  }
  return null;
}

/**
 * @param {string | string[] | undefined} value
 * @returns {string | null}
 */
function headerValue(value) {
  if (Array.isArray(value)) return value[0] ?? null;
  return value ?? null;
}

/**
 * The request body as text, or null when it exceeds MAX_BODY.
 * @param {http.IncomingMessage} req
 * @returns {Promise<string | null>}
 */
function readBody(req) {
  return new Promise((resolve, reject) => {
    /** @type {Buffer[]} */
    const chunks = [];
    let size = 0;
    let tooLarge = false;
    req.on("data", (/** @type {Buffer} */ chunk) => {
      size += chunk.length;
      if (size > MAX_BODY) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on("end", () => resolve(tooLarge ? null : Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

/**
 * @param {http.ServerResponse} res
 * @param {number} status
 * @param {unknown} body
 * @param {Record<string, string>} [headers]
 * @returns {void}
 */
function sendJson(res, status, body, headers = {}) {
  const text = JSON.stringify(body, null, 2);
  res.writeHead(status, {
    "Content-Type": "application/json",
    "Content-Length": Buffer.byteLength(text),
    "Cache-Control": "no-store",
    ...headers,
  });
  res.end(text);
}

/**
 * @param {number} ms
 * @returns {Promise<void>}
 */
function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms).unref?.());
}

// Standalone: node stripe-emulator/server.js
const invokedDirectly = process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
if (invokedDirectly) {
  const port = Number(process.env.STRIPE_EMULATOR_PORT ?? 12111);
  const publicUrl = (process.env.PUBLIC_URL ?? `http://localhost:${process.env.PORT ?? 3000}`).replace(/\/$/, "");
  const secretKey = process.env.STRIPE_EMULATOR_SECRET_KEY || `sk_test_emulator_${randomBytes(24).toString("hex")}`;
  const emulator = await startStripeEmulator({
    port,
    secretKey,
    webhookUrl: `${publicUrl}/api/stripe/webhook`,
    webhookSecret: process.env.STRIPE_WEBHOOK_SECRET ?? "whsec_emulator",
    enabledEvents: enabledEventsFromEnv(process.env.STRIPE_WEBHOOK_EVENTS),
    log: { info: console.log },
  });
  if (!process.env.STRIPE_EMULATOR_SECRET_KEY) console.log(`[stripe-emulator] secret key: ${secretKey}`);
  const stop = () => emulator.close().then(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}
