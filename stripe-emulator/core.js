// @ts-check
import { createHash, randomBytes } from "node:crypto";
import { boolParam, expandList, intParam } from "./encoding.js";

/**
 * In-memory emulation of the subset of Stripe's API the shop uses: customers, products,
 * prices (or inline price_data), payment methods, payment intents, subscriptions with their
 * invoices, and events. Transport-free: `handle()` takes a parsed request and returns
 * `{ status, body }`; server.js puts HTTP and webhook delivery around it.
 *
 * Outcomes follow Stripe's test cards (https://docs.stripe.com/testing):
 *   4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 card_declined,
 *   4000 0000 0000 0127 incorrect_cvc, 4000 0000 0000 0036 incorrect_zip,
 *   4000 0000 0000 9995 insufficient funds, 4000 0000 0000 0069 expired_card,
 *   4000 0000 0000 0119 processing_error, 4000 0000 0000 0341 attaches to a customer but its
 *   charges fail.
 *
 * Test clocks (`/v1/test_helpers/test_clocks`): a customer created with `test_clock` lives at
 * the clock's frozen time, and advancing the clock runs its subscriptions up to the new time
 * (renewals, trial ends, failed payments retried then the subscription canceled).
 */

/**
 * A stored Stripe-shaped object (customer, product, price, payment method, payment intent,
 * charge, subscription, invoice, event). Loose on purpose: the emulator builds and updates
 * them field by field, as Stripe's JSON, and renders them as they are.
 * @typedef {Record<string, any>} StripeObject
 *
 * An event object (`object: "event"`), as stored, listed and delivered to the webhook.
 * @typedef {StripeObject} StripeEvent
 *
 * @typedef {import("./encoding.js").StripeParams} StripeParams
 *
 * Which API key a request was made with.
 * @typedef {"secret" | "publishable"} Access
 *
 * @typedef {{ args: string[], params: StripeParams, access: Access }} RouteContext
 * @typedef {{ method: string, pattern: RegExp, run: (ctx: RouteContext) => unknown, publishable: boolean }} Route
 *
 * @typedef {object} EmulatorRequest
 * @property {string} method
 * @property {string} path
 * @property {StripeParams} params
 * @property {string | null} [apiKey]
 * @property {string | null} [idempotencyKey]
 * @property {string | null} [stripeVersion]
 *
 * @typedef {{ status: number, body: unknown, headers: Record<string, string> }} EmulatorResponse
 *
 * @typedef {object} CardOutcome
 * @property {string} code
 * @property {string} decline_code
 * @property {string} message
 * @property {string} [param]
 *
 * What a new PaymentIntent is made of (see #newPaymentIntent).
 * @typedef {object} PaymentIntentInit
 * @property {number} amount
 * @property {string} currency
 * @property {string | null} [customer]
 * @property {string | null} [description]
 * @property {Record<string, string>} [metadata]
 * @property {string | null} [receiptEmail]
 * @property {string | null} [setupFutureUsage]
 * @property {string[] | null} [paymentMethodTypes]
 * @property {string | null} [invoice]
 *
 * One line of an invoice being created (see #createInvoice).
 * @typedef {object} InvoiceLineInit
 * @property {number} amount
 * @property {string} description
 * @property {StripeObject} price
 * @property {number} quantity
 * @property {{ start: number, end: number }} period
 * @property {string | null} subscription_item
 */

export const DEFAULT_API_VERSION = "2026-10-28.endive";

const DAY = 86_400;
/**
 * Failed renewals are retried automatically, this many days after the previous attempt (a
 * simplified Stripe custom retry schedule); when the last retry fails, the subscription is
 * canceled (`cancellation_details.reason: "payment_failed"`).
 */
export const RETRY_SCHEDULE_DAYS = [3, 5, 7];
/** An incomplete subscription expires when its first invoice is still unpaid this long after. */
const INCOMPLETE_EXPIRES_AFTER = 23 * 3600;
/** A test clock is deleted automatically this many days after its creation (`deletes_after`). */
const CLOCK_LIFETIME_DAYS = 7;
/** @type {Record<string, number>} */
const INTERVAL_SECONDS = { day: DAY, week: 7 * DAY, month: 30 * DAY, year: 365 * DAY };

const ID_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
/**
 * @param {number} [length]
 * @returns {string}
 */
function randomId(length = 24) {
  const bytes = randomBytes(length);
  let out = "";
  for (const b of bytes) out += ID_ALPHABET[b % ID_ALPHABET.length];
  return out;
}

/** Stripe-shaped error, thrown by handlers and turned into `{ error: {...} }`. */
export class StripeApiError extends Error {
  /**
   * @param {number} status
   * @param {Record<string, unknown>} error
   */
  constructor(status, error) {
    super(String(error.message));
    this.status = status;
    this.error = error;
  }
}

/**
 * `Number.isInteger` that also tells the type checker the value is a number.
 * @param {unknown} value
 * @returns {value is number}
 */
function isInteger(value) {
  return Number.isInteger(value);
}

/**
 * @param {string} message
 * @param {Record<string, unknown>} [extra]
 * @returns {StripeApiError}
 */
function invalid(message, extra = {}) {
  return new StripeApiError(400, { type: "invalid_request_error", message, ...extra });
}
/**
 * @param {string} kind
 * @param {unknown} id
 * @param {string} [param]
 * @returns {StripeApiError}
 */
function missing(kind, id, param = "id") {
  return new StripeApiError(404, {
    type: "invalid_request_error",
    code: "resource_missing",
    param,
    message: `No such ${kind}: '${id}'`,
  });
}
/**
 * @template T
 * @param {T} value
 * @param {string} param
 * @returns {T}
 */
function requireParam(value, param) {
  if (value === undefined || value === null || value === "") {
    throw invalid(`Missing required param: ${param}.`, { code: "parameter_missing", param });
  }
  return value;
}
/**
 * The customer's answer to a 3-D Secure challenge (emulator-only `result`: authorized or
 * refused), for a PaymentIntent or a SetupIntent alike.
 * @param {Record<string, unknown>} params
 * @returns {boolean} true when authorized
 */
function challengeAuthorized(params) {
  const result = requireParam(params.result, "result");
  if (result !== "authorized" && result !== "refused") {
    throw invalid("Invalid result: must be one of authorized, refused", { param: "result" });
  }
  return result === "authorized";
}
/**
 * @param {unknown} value
 * @param {string} param
 * @param {{ min?: number }} [options]
 * @returns {number}
 */
function requireInt(value, param, { min = 0 } = {}) {
  const n = intParam(requireParam(value, param));
  if (!isInteger(n) || n < min) {
    throw invalid(`Invalid integer: ${value}`, { code: "parameter_invalid_integer", param });
  }
  return n;
}
/**
 * @param {unknown} value
 * @returns {Record<string, string>}
 */
function metadataParam(value) {
  if (value === undefined || value === "") return {};
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw invalid("Invalid metadata: must be an object.", { param: "metadata" });
  }
  /** @type {Record<string, string>} */
  const out = {};
  for (const [k, v] of Object.entries(value)) {
    if (v !== "" && v !== null && v !== undefined) out[k] = String(v);
  }
  return out;
}

/**
 * Refuses a parameter Stripe does not take on this call, as Stripe does (400 `parameter_unknown`),
 * one level deep for the hashes listed in `nested`. `expand` and `key` are always accepted.
 * @param {StripeParams} params
 * @param {string[]} allowed
 * @param {Record<string, string[]>} [nested] hash parameter -> its keys
 */
function refuseUnknownParams(params, allowed, nested = {}) {
  for (const [name, value] of Object.entries(params ?? {})) {
    if (name === "expand" || name === "key") continue;
    if (!allowed.includes(name)) throw unknownParam(name);
    const keys = nested[name];
    if (keys && value && typeof value === "object" && !Array.isArray(value)) {
      for (const key of Object.keys(value)) if (!keys.includes(key)) throw unknownParam(`${name}[${key}]`);
    }
  }
}
/**
 * @param {string} param
 * @returns {StripeApiError}
 */
function unknownParam(param) {
  return invalid(`Received unknown parameter: ${param}`, { code: "parameter_unknown", param });
}

const ADDRESS_KEYS = ["city", "country", "line1", "line2", "postal_code", "state"];

/**
 * An address hash as Stripe stores it (every key, null when not given); `""` unsets it (null).
 * @param {unknown} value
 * @param {string} param
 * @returns {Record<string, string | null> | null}
 */
function addressParam(value, param) {
  if (value === "" || value === null) return null;
  if (typeof value !== "object" || Array.isArray(value)) throw invalid(`Invalid object`, { param });
  const record = /** @type {Record<string, unknown>} */ (value);
  for (const key of Object.keys(record)) if (!ADDRESS_KEYS.includes(key)) throw unknownParam(`${param}[${key}]`);
  return Object.fromEntries(ADDRESS_KEYS.map((k) => [k, record[k] ? String(record[k]) : null]));
}

/**
 * A `shipping` hash (customer or PaymentIntent): `name` and `address[line1]` required, as Stripe
 * asks; `""` unsets it (null).
 * @param {unknown} value
 * @param {string} param
 * @returns {Record<string, unknown> | null}
 */
function shippingParam(value, param) {
  if (value === "" || value === null) return null;
  if (typeof value !== "object" || Array.isArray(value)) throw invalid(`Invalid object`, { param });
  const record = /** @type {Record<string, any>} */ (value);
  for (const key of Object.keys(record)) {
    if (!["address", "name", "phone", "carrier", "tracking_number"].includes(key)) throw unknownParam(`${param}[${key}]`);
  }
  requireParam(record.name, `${param}[name]`);
  requireParam(record.address?.line1, `${param}[address][line1]`);
  return {
    address: addressParam(record.address, `${param}[address]`),
    name: String(record.name),
    phone: record.phone ? String(record.phone) : null,
    carrier: record.carrier ? String(record.carrier) : null,
    tracking_number: record.tracking_number ? String(record.tracking_number) : null,
  };
}

/**
 * Metadata after an update, as Stripe applies it: `metadata=""` unsets every key, a key posted
 * empty is unset, the others are set.
 * @param {Record<string, string>} current
 * @param {unknown} value
 * @returns {Record<string, string>}
 */
function updatedMetadata(current, value) {
  if (value === "") return {};
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw invalid("Invalid metadata: must be an object.", { param: "metadata" });
  }
  const out = { ...current };
  for (const [k, v] of Object.entries(value)) {
    if (v === "" || v === null || v === undefined) delete out[k];
    else out[k] = String(v);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Test cards

/** @type {Record<string, CardOutcome | undefined>} */
const CARD_OUTCOMES = {
  4000000000000002: {
    code: "card_declined",
    decline_code: "generic_decline",
    message: "Votre carte a été refusée.",
  },
  4000000000009995: {
    code: "card_declined",
    decline_code: "insufficient_funds",
    message: "Les fonds de votre carte sont insuffisants.",
  },
  4000000000000127: {
    code: "incorrect_cvc",
    decline_code: "incorrect_cvc",
    message: "Le code de sécurité de votre carte est incorrect.",
    param: "cvc",
  },
  4000000000000036: {
    code: "incorrect_zip",
    decline_code: "incorrect_zip",
    message: "Le code postal ne correspond pas à celui de votre carte.",
    param: "address_zip",
  },
  4000000000000069: {
    code: "expired_card",
    decline_code: "expired_card",
    message: "Votre carte a expiré.",
    param: "exp_month",
  },
  // Attaches to a customer, but every charge fails (renewals, retries).
  4000000000000341: {
    code: "card_declined",
    decline_code: "generic_decline",
    message: "Votre carte a été refusée.",
  },
  4000000000000119: {
    code: "processing_error",
    decline_code: "processing_error",
    message: "Une erreur est survenue lors du traitement de votre carte. Veuillez réessayer.",
  },
};

// ---------------------------------------------------------------------------------------------
// 3-D Secure (strong customer authentication), as Stripe's authentication test cards behave

/**
 * Stripe's 3-D Secure test cards (https://docs.stripe.com/testing#regulatory-cards):
 * - `on_session`: the bank asks the card holder to authenticate a payment made with them present;
 * - `off_session`: what a payment made without them (a renewal) needs: `none` once the card was
 *   set up for later use by an authenticated payment, `always` whatever was done before;
 * - `after`: the card error of the payment once authenticated (3178: insufficient funds).
 * @type {Record<string, { on_session: boolean, off_session: "none_once_set_up" | "always", after?: CardOutcome } | undefined>}
 */
export const THREE_D_SECURE_CARDS = {
  4000002500003155: { on_session: true, off_session: "none_once_set_up" },
  // 3-D Secure 2: like 3155.
  4000000000003220: { on_session: true, off_session: "none_once_set_up" },
  4000002760003184: { on_session: true, off_session: "always" },
  4000008260003178: {
    on_session: true,
    off_session: "always",
    after: {
      code: "card_declined",
      decline_code: "insufficient_funds",
      message: "Les fonds de votre carte sont insuffisants.",
    },
  },
};

/**
 * Whether the card's bank asks for authentication (3-D Secure) for this payment, as in Stripe's
 * test mode. `offSession`: the customer is not there (a renewal, `off_session: true`);
 * `setUpForOffSession`: the card was saved for later use by a payment the customer authenticated
 * (`setup_future_usage`, or the first invoice of a subscription). A card outside
 * THREE_D_SECURE_CARDS never asks.
 * @param {string} number the card number, digits only
 * @param {{ offSession?: boolean, setUpForOffSession?: boolean }} [payment]
 * @returns {boolean}
 */
export function cardRequiresAuthentication(number, { offSession = false, setUpForOffSession = false } = {}) {
  const card = THREE_D_SECURE_CARDS[number];
  if (!card) return false;
  if (!offSession) return card.on_session;
  return card.off_session === "always" || !setUpForOffSession;
}

/**
 * @param {string} number
 * @returns {boolean}
 */
export function luhnValid(number) {
  if (!/^\d{12,19}$/.test(number)) return false;
  let sum = 0;
  let double = false;
  for (let i = number.length - 1; i >= 0; i--) {
    let d = number.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

/**
 * @param {string} number
 * @returns {string}
 */
export function cardBrand(number) {
  if (/^4/.test(number)) return "visa";
  if (/^(5[1-5]|2(2[2-9]|[3-6]\d|7[01]|720))/.test(number)) return "mastercard";
  if (/^3[47]/.test(number)) return "amex";
  if (/^6(011|5)/.test(number)) return "discover";
  return "unknown";
}

/**
 * @param {string} code
 * @param {string} message
 * @param {Record<string, unknown>} [extra]
 * @returns {StripeApiError}
 */
function cardError(code, message, extra = {}) {
  return new StripeApiError(402, {
    type: "card_error",
    code,
    message,
    doc_url: `https://stripe.com/docs/error-codes/${code.replace(/_/g, "-")}`,
    ...extra,
  });
}

// ---------------------------------------------------------------------------------------------

export class StripeEmulatorCore {
  /**
   * @param {{ secretKey?: string, publishableKey?: string, now?: () => number,
   *   onEvent?: (event: StripeEvent) => void, clockAdvanceDelayMs?: number,
   *   onClockError?: (error: unknown) => void }} [options]
   */
  constructor(options = {}) {
    this.secretKey = options.secretKey ?? "sk_test_emulator";
    this.publishableKey = options.publishableKey ?? "pk_test_emulator";
    this.nowFn = options.now ?? (() => Math.floor(Date.now() / 1000));
    this.onEvent = options.onEvent ?? (() => {});
    /** How long a test clock stays `advancing` before it runs (Stripe takes a few seconds). */
    this.clockAdvanceDelayMs = options.clockAdvanceDelayMs ?? 0;
    this.onClockError =
      options.onClockError ?? ((/** @type {unknown} */ error) => console.warn("[stripe-emulator] test clock failed:", error));
    /** @type {Map<string, StripeObject>} every object by id */
    this.objects = new Map();
    /** @type {StripeEvent[]} every event, oldest first */
    this.events = [];
    /** @type {Map<string, { fingerprint: string, status: number, body: unknown }>} */
    this.idempotency = new Map();
    this.requestCount = 0;
    this.apiVersion = DEFAULT_API_VERSION;
    /** Where the hosted pages (Checkout) are served: the emulator's own origin, set by server.js. */
    this.publicUrl = "http://127.0.0.1:12111";
    this.routes = this.#buildRoutes();
  }

  /**
   * The current time, in unix seconds: the frozen time of the customer's test clock, if it has
   * one, else the real time.
   * @param {unknown} [customer] a customer id
   * @returns {number}
   */
  now(customer) {
    const clockId = typeof customer === "string" ? this.objects.get(customer)?.test_clock : null;
    const clock = typeof clockId === "string" ? this.objects.get(clockId) : undefined;
    return clock ? clock.frozen_time : this.nowFn();
  }

  // -------------------------------------------------------------------------------------------
  // Request handling

  /**
   * @param {EmulatorRequest} request
   * @returns {EmulatorResponse}
   */
  handle(request) {
    const requestId = `req_${randomId(14)}`;
    /** @type {Record<string, string>} */
    const headers = { "Request-Id": requestId };
    const method = request.method.toUpperCase();
    if (request.stripeVersion) this.apiVersion = request.stripeVersion;
    headers["Stripe-Version"] = this.apiVersion;
    try {
      const route = this.routes.find((r) => r.method === method && r.pattern.test(request.path));
      if (!route) {
        throw new StripeApiError(404, {
          type: "invalid_request_error",
          message: `Unrecognized request URL (${method}: ${request.path}).`,
        });
      }
      const access = this.#authenticate(request.apiKey ?? request.params?.key ?? null, route);
      const match = route.pattern.exec(request.path);
      const args = match ? match.slice(1).map(decodeURIComponent) : [];

      const key = method === "POST" && access === "secret" ? request.idempotencyKey : null;
      const fingerprint = key ? this.#fingerprint(method, request.path, request.params) : "";
      if (key) {
        const previous = this.idempotency.get(key);
        if (previous) {
          if (previous.fingerprint !== fingerprint) {
            throw new StripeApiError(400, {
              type: "idempotency_error",
              message:
                `Keys for idempotent requests can only be used with the same parameters they were first used with. ` +
                `Try using a key other than '${key}' if you meant to execute a different request.`,
            });
          }
          return {
            status: previous.status,
            body: structuredClone(previous.body),
            headers: { ...headers, "Idempotent-Replayed": "true" },
          };
        }
      }

      this.currentRequest = { id: requestId, idempotency_key: key ?? null };
      let status = 200;
      let body;
      try {
        body = route.run({ args, params: request.params ?? {}, access });
      } catch (error) {
        if (key && error instanceof StripeApiError && error.status === 402) {
          // Card errors happened after the request started executing: Stripe saves them.
          this.idempotency.set(key, { fingerprint, status: error.status, body: { error: error.error } });
        }
        throw error;
      } finally {
        this.currentRequest = null;
      }
      if (key) this.idempotency.set(key, { fingerprint, status, body: structuredClone(body) });
      return { status, body, headers };
    } catch (error) {
      if (error instanceof StripeApiError) {
        return { status: error.status, body: { error: { request_log_url: null, ...error.error } }, headers };
      }
      return {
        status: 500,
        body: {
          error: { type: "api_error", message: `Emulator failure: ${error instanceof Error ? error.message : String(error)}` },
        },
        headers,
      };
    }
  }

  /**
   * @param {string} method
   * @param {string} path
   * @param {StripeParams} params
   * @returns {string}
   */
  #fingerprint(method, path, params) {
    return createHash("sha256")
      .update(`${method} ${path} ${stableJson(params ?? {})}`)
      .digest("hex");
  }

  /**
   * @param {string | null} apiKey
   * @param {Route} route
   * @returns {Access}
   */
  #authenticate(apiKey, route) {
    if (!apiKey) {
      throw new StripeApiError(401, {
        type: "invalid_request_error",
        message:
          "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
      });
    }
    if (apiKey === this.secretKey) return "secret";
    if (apiKey === this.publishableKey) {
      if (route.publishable) return "publishable";
      throw new StripeApiError(401, {
        type: "invalid_request_error",
        message: "This API call cannot be made with a publishable API key. Please use a secret API key.",
      });
    }
    const shown = apiKey.length > 12 ? `${apiKey.slice(0, 8)}********${apiKey.slice(-4)}` : "********";
    throw new StripeApiError(401, { type: "invalid_request_error", message: `Invalid API Key provided: ${shown}` });
  }

  /** @returns {Route[]} */
  #buildRoutes() {
    /** @type {Route[]} */
    const routes = [];
    /** @type {(method: string, path: string, run: Route["run"], publishable?: boolean) => void} */
    const add = (method, path, run, publishable = false) => {
      const pattern = new RegExp(`^${path.replace(/:[a-z_]+/g, "([^/]+)")}/?$`);
      routes.push({ method, pattern, run, publishable });
    };
    // Customers
    add("POST", "/v1/customers", ({ params }) => this.#render(this.createCustomer(params), params));
    add("GET", "/v1/customers/:id", ({ args, params }) => {
      const deleted = this.objects.get(args[0]);
      if (deleted?.object === "customer" && deleted.deleted) return structuredClone(deleted);
      return this.#render(this.#get(args[0], "customer"), params);
    });
    add("POST", "/v1/customers/:id", ({ args, params }) => this.#render(this.updateCustomer(args[0], params), params));
    // Products and prices
    add("POST", "/v1/products", ({ params }) => this.#render(this.createProduct(params), params));
    add("GET", "/v1/products/:id", ({ args, params }) => this.#render(this.#get(args[0], "product"), params));
    add("POST", "/v1/prices", ({ params }) => this.#render(this.createPrice(params), params));
    add("GET", "/v1/prices/:id", ({ args, params }) => this.#render(this.#get(args[0], "price"), params));
    // Payment methods
    add("POST", "/v1/payment_methods", ({ params }) => this.#render(this.createPaymentMethod(params), params), true);
    add("GET", "/v1/payment_methods/:id", ({ args, params }) => this.#render(this.#get(args[0], "payment_method"), params));
    add("POST", "/v1/payment_methods/:id/attach", ({ args, params }) =>
      this.#render(this.attachPaymentMethod(args[0], params), params),
    );
    add("POST", "/v1/payment_methods/:id/detach", ({ args, params }) => this.#render(this.detachPaymentMethod(args[0]), params));
    add("POST", "/v1/payment_methods/:id", ({ args, params }) => this.#render(this.updatePaymentMethod(args[0], params), params));
    add("GET", "/v1/customers/:id/payment_methods", ({ args, params }) => {
      const customer = this.#get(args[0], "customer");
      return this.#list(
        `/v1/customers/${customer.id}/payment_methods`,
        "payment_method",
        params,
        (pm) => pm.customer === customer.id && (!params.type || pm.type === params.type),
      );
    });
    // Payment intents
    add("POST", "/v1/payment_intents", ({ params }) => this.#render(this.createPaymentIntent(params), params));
    add(
      "GET",
      "/v1/payment_intents/:id",
      ({ args, params, access }) => this.#renderPaymentIntent(this.#piForAccess(args[0], params, access), params, access),
      true,
    );
    add("POST", "/v1/payment_intents/:id", ({ args, params }) => this.#render(this.updatePaymentIntent(args[0], params), params));
    add(
      "POST",
      "/v1/payment_intents/:id/confirm",
      ({ args, params, access }) => {
        const pi = this.#piForAccess(args[0], params, access);
        return this.#renderPaymentIntent(this.confirmPaymentIntent(pi.id, params), params, access);
      },
      true,
    );
    // Emulator-only: the customer's answer to the 3-D Secure challenge (`result`: authorized or
    // refused), with the client secret as Stripe.js has it.
    add(
      "POST",
      "/v1/emulator/payment_intents/:id/authenticate",
      ({ args, params, access }) => {
        const pi = this.#piForAccess(args[0], params, access);
        return this.#renderPaymentIntent(this.authenticatePaymentIntent(pi.id, challengeAuthorized(params)), params, access);
      },
      true,
    );
    // Setup intents (a card saved for later payments)
    add("POST", "/v1/setup_intents", ({ params }) => this.#render(this.createSetupIntent(params), params));
    add(
      "GET",
      "/v1/setup_intents/:id",
      ({ args, params, access }) => this.renderSetupIntent(this.#setiForAccess(args[0], params, access), params, access),
      true,
    );
    add(
      "POST",
      "/v1/setup_intents/:id/confirm",
      ({ args, params, access }) => {
        const seti = this.#setiForAccess(args[0], params, access);
        return this.renderSetupIntent(this.confirmSetupIntent(seti.id, params), params, access);
      },
      true,
    );
    // Emulator-only: the customer's answer to a SetupIntent's 3-D Secure challenge.
    add(
      "POST",
      "/v1/emulator/setup_intents/:id/authenticate",
      ({ args, params, access }) => {
        const seti = this.#setiForAccess(args[0], params, access);
        return this.renderSetupIntent(this.authenticateSetupIntent(seti.id, challengeAuthorized(params)), params, access);
      },
      true,
    );
    add("POST", "/v1/payment_intents/:id/cancel", ({ args, params }) =>
      this.#render(this.cancelPaymentIntent(args[0], params), params),
    );
    // Subscriptions and invoices
    add("POST", "/v1/subscriptions", ({ params }) => this.#render(this.createSubscription(params), params));
    add("GET", "/v1/subscriptions/:id", ({ args, params }) => this.#render(this.#get(args[0], "subscription"), params));
    add("POST", "/v1/subscriptions/:id", ({ args, params }) => this.#render(this.updateSubscription(args[0], params), params));
    add("DELETE", "/v1/subscriptions/:id", ({ args, params }) => this.#render(this.cancelSubscription(args[0]), params));
    add("POST", "/v1/subscriptions/:id/cancel", ({ args, params }) => this.#render(this.cancelSubscription(args[0]), params));
    add("DELETE", "/v1/subscriptions/:id/discount", ({ args }) => this.deleteSubscriptionDiscount(args[0]));
    // Coupons (a subscription's `discounts`, applied to its invoices)
    add("POST", "/v1/coupons", ({ params }) => this.#render(this.createCoupon(params), params));
    add("GET", "/v1/coupons/:id", ({ args, params }) => this.#render(this.#get(args[0], "coupon"), params));
    add("GET", "/v1/invoices/:id", ({ args, params }) => this.#render(this.#get(args[0], "invoice"), params));
    add("GET", "/v1/invoices", ({ params }) =>
      this.#list(
        "/v1/invoices",
        "invoice",
        params,
        (i) =>
          (!params.customer || i.customer === params.customer) &&
          (!params.subscription || i._subscription === params.subscription) &&
          (!params.status || i.status === params.status),
      ),
    );
    add("POST", "/v1/invoices/:id/pay", ({ args, params }) => this.#render(this.payInvoice(args[0], params), params));
    add("GET", "/v1/charges/:id", ({ args, params }) => this.#render(this.#get(args[0], "charge"), params));
    // Refunds
    add("POST", "/v1/refunds", ({ params }) => this.#render(this.createRefund(params), params));
    add("GET", "/v1/refunds/:id", ({ args, params }) => this.#render(this.#get(args[0], "refund"), params));
    add("GET", "/v1/refunds", ({ params }) =>
      this.#list(
        "/v1/refunds",
        "refund",
        params,
        (r) =>
          (!params.charge || r.charge === params.charge) &&
          (!params.payment_intent || r.payment_intent === params.payment_intent),
      ),
    );
    // Events
    add("GET", "/v1/events/:id", ({ args }) => structuredClone(this.#get(args[0], "event")));
    add("GET", "/v1/events", ({ params }) => {
      const limit = Math.min(intParam(params.limit) || 10, 100);
      const data = this.events
        .slice()
        .reverse()
        .filter((e) => !params.type || e.type === params.type);
      return {
        object: "list",
        url: "/v1/events",
        has_more: data.length > limit,
        data: data.slice(0, limit).map((e) => structuredClone(e)),
      };
    });
    // Test clocks
    add("POST", "/v1/test_helpers/test_clocks", ({ params }) => this.#render(this.createTestClock(params), params));
    add("GET", "/v1/test_helpers/test_clocks", ({ params }) =>
      this.#list("/v1/test_helpers/test_clocks", "test_helpers.test_clock", params, () => true),
    );
    add("GET", "/v1/test_helpers/test_clocks/:id", ({ args, params }) =>
      this.#render(this.#get(args[0], "test_helpers.test_clock"), params),
    );
    add("DELETE", "/v1/test_helpers/test_clocks/:id", ({ args }) => this.deleteTestClock(args[0]));
    add("POST", "/v1/test_helpers/test_clocks/:id/advance", ({ args, params }) =>
      this.#render(this.advanceTestClock(args[0], params), params),
    );
    // Emulator-only helpers (not part of Stripe's API): a renewal now, whatever the time.
    add("POST", "/v1/test_helpers/emulator/subscriptions/:id/renew", ({ args, params }) =>
      this.#render(this.renewSubscription(args[0]), params),
    );
    // Emulator-only: the card's bank sends a refund back (it fails after it succeeded), `failure_reason` optional.
    add("POST", "/v1/test_helpers/emulator/refunds/:id/fail", ({ args, params }) =>
      this.#render(this.failRefund(args[0], params), params),
    );
    return routes;
  }

  /**
   * Adds a route to the API (the Checkout Sessions of checkout.js, added by server.js).
   * @param {string} method
   * @param {string} path with `:name` segments
   * @param {(ctx: RouteContext) => unknown} run
   * @returns {void}
   */
  addRoute(method, path, run) {
    const pattern = new RegExp(`^${path.replace(/:[a-z_]+/g, "([^/]+)")}/?$`);
    this.routes.push({ method, pattern, run, publishable: false });
  }

  // -------------------------------------------------------------------------------------------
  // Storage, rendering and expansion

  /**
   * @param {string} prefix
   * @returns {string}
   */
  #id(prefix) {
    return `${prefix}_${randomId()}`;
  }

  /**
   * @param {StripeObject} object
   * @returns {StripeObject}
   */
  #put(object) {
    this.objects.set(object.id, object);
    return object;
  }

  /**
   * The stored object (internal, mutable).
   * @param {unknown} id
   * @param {string} [kind]
   * @returns {StripeObject}
   */
  #get(id, kind) {
    const object = typeof id === "string" ? this.objects.get(id) : undefined;
    if (!object || object.deleted || (kind && object.object !== kind)) throw missing(kind ?? "object", id);
    return object;
  }

  /**
   * Looks up any object by id (for tests and the server wrapper).
   * @param {string} id
   * @returns {StripeObject | undefined}
   */
  getObject(id) {
    const object = this.objects.get(id);
    return object ? this.#plain(object) : undefined;
  }

  /**
   * A deep copy without internal (`_`-prefixed) fields.
   * @param {StripeObject} object
   * @returns {StripeObject}
   */
  #plain(object) {
    return JSON.parse(JSON.stringify(object, (key, value) => (key.startsWith("_") ? undefined : value)));
  }

  /**
   * Renders an object with the request's `expand[]` applied.
   * @param {StripeObject} object
   * @param {StripeParams} params
   * @returns {StripeObject}
   */
  #render(object, params) {
    const out = this.#plain(object);
    for (const path of expandList(params)) this.#expand(out, path.split("."));
    return out;
  }

  /**
   * @param {StripeObject} pi
   * @param {StripeParams} params
   * @param {Access} access
   * @returns {StripeObject}
   */
  #renderPaymentIntent(pi, params, access) {
    const out = this.#render(pi, access === "secret" ? params : {});
    if (access === "publishable") {
      // Like Stripe: a publishable key sees a reduced PaymentIntent.
      delete out.metadata;
      delete out.customer;
      delete out.receipt_email;
    }
    return out;
  }

  /**
   * Replaces ids by their objects along one dotted path, in place.
   * @param {unknown} node any JSON value (only objects are expanded)
   * @param {string[]} segments
   * @returns {void}
   */
  #expand(node, segments) {
    if (!node || typeof node !== "object" || segments.length === 0) return;
    const target = /** @type {StripeObject} */ (node);
    const [head, ...rest] = segments;
    if (target.object === "list" && head === "data" && Array.isArray(target.data)) {
      for (const item of target.data) this.#expand(item, rest);
      return;
    }
    let value = target[head];
    const original = typeof target.id === "string" ? this.objects.get(target.id) : undefined;
    // Includable fields only appear when expanded.
    if (original && original.object === "invoice" && head === "confirmation_secret")
      value = original._confirmation_secret ?? null;
    if (original && original.object === "invoice" && head === "payments") value = this.#invoicePaymentsList(original);
    if (typeof value === "string" && this.objects.has(value))
      value = this.#plain(/** @type {StripeObject} */ (this.objects.get(value)));
    target[head] = value;
    if (value && typeof value === "object") this.#expand(value, rest);
  }

  /**
   * @param {StripeObject} invoice
   * @returns {StripeObject}
   */
  #invoicePaymentsList(invoice) {
    return {
      object: "list",
      url: `/v1/invoice_payments?invoice=${invoice.id}`,
      has_more: false,
      data: (invoice._payments ?? []).map((/** @type {StripeObject} */ p) => this.#plain(p)),
    };
  }

  /**
   * A list of stored objects of one kind, newest first (`limit`, `starting_after`).
   * @param {string} url
   * @param {string} kind
   * @param {StripeParams} params
   * @param {(object: StripeObject) => boolean} keep
   * @returns {StripeObject}
   */
  #list(url, kind, params, keep) {
    const limit = Math.min(Math.max(intParam(params.limit) || 10, 1), 100);
    let all = [...this.objects.values()].filter((o) => o.object === kind && !o.deleted && keep(o)).reverse();
    if (params.starting_after) {
      const index = all.findIndex((o) => o.id === params.starting_after);
      all = index === -1 ? [] : all.slice(index + 1);
    }
    const page = all.slice(0, limit).map((o) =>
      this.#render(o, {
        expand: expandList(params)
          .filter((e) => e.startsWith("data."))
          .map((e) => e.slice(5)),
      }),
    );
    return { object: "list", url, has_more: all.length > limit, data: page };
  }

  /**
   * An object as the API answers it, with the request's `expand[]` (for checkout.js).
   * @param {StripeObject} object
   * @param {StripeParams} params
   * @returns {StripeObject}
   */
  render(object, params) {
    return this.#render(object, params);
  }

  /**
   * Sends an event about a stored object (for checkout.js).
   * @param {string} type
   * @param {StripeObject} object
   * @returns {StripeEvent}
   */
  emitEvent(type, object) {
    return this.#emit(type, object);
  }

  // -------------------------------------------------------------------------------------------
  // Events

  /**
   * @param {string} type
   * @param {StripeObject} object
   * @param {Record<string, unknown>} [previousAttributes]
   * @returns {StripeEvent}
   */
  #emit(type, object, previousAttributes) {
    const event = {
      id: this.#id("evt"),
      object: "event",
      api_version: this.apiVersion,
      created: this.#eventTime(object),
      data: previousAttributes
        ? { object: this.#plain(object), previous_attributes: previousAttributes }
        : { object: this.#plain(object) },
      livemode: false,
      pending_webhooks: 1,
      request: this.currentRequest ? { ...this.currentRequest } : { id: null, idempotency_key: null },
      type,
    };
    this.objects.set(event.id, event);
    this.events.push(event);
    this.onEvent(event);
    return event;
  }

  /**
   * When an event about this object happens: its customer's clock time, if any.
   * @param {StripeObject} object
   * @returns {number}
   */
  #eventTime(object) {
    if (object.object === "customer") return this.now(object.id);
    if (object.object === "test_helpers.test_clock") return this.nowFn();
    return this.now(typeof object.customer === "string" ? object.customer : null);
  }

  // -------------------------------------------------------------------------------------------
  // Customers, products, prices

  /**
   * @param {StripeParams} params
   * @returns {StripeObject}
   */
  createCustomer(params) {
    const clock = params.test_clock ? this.#get(params.test_clock, "test_helpers.test_clock") : null;
    const now = clock ? clock.frozen_time : this.now();
    const customer = this.#put({
      id: this.#id("cus"),
      object: "customer",
      created: now,
      email: params.email || null,
      name: params.name || null,
      description: params.description || null,
      phone: params.phone || null,
      address: params.address ? addressParam(params.address, "address") : null,
      shipping: params.shipping ? shippingParam(params.shipping, "shipping") : null,
      metadata: metadataParam(params.metadata),
      invoice_settings: { default_payment_method: null, custom_fields: null, footer: null, rendering_options: null },
      livemode: false,
      currency: null,
      delinquent: false,
      test_clock: clock ? clock.id : null,
    });
    this.#emit("customer.created", customer);
    return customer;
  }

  /**
   * @param {string} id
   * @param {StripeParams} params
   * @returns {StripeObject}
   */
  updateCustomer(id, params) {
    const customer = this.#get(id, "customer");
    refuseUnknownParams(
      params,
      ["address", "description", "email", "invoice_settings", "metadata", "name", "phone", "shipping"],
      { invoice_settings: ["default_payment_method"] },
    );
    for (const field of ["email", "name", "description", "phone"]) {
      if (params[field] !== undefined) customer[field] = params[field] || null;
    }
    if (params.address !== undefined) customer.address = addressParam(params.address, "address");
    if (params.shipping !== undefined) customer.shipping = shippingParam(params.shipping, "shipping");
    if (params.metadata !== undefined) customer.metadata = updatedMetadata(customer.metadata, params.metadata);
    const pmId = params.invoice_settings?.default_payment_method;
    if (pmId !== undefined) {
      if (pmId) {
        const pm = this.#get(pmId, "payment_method");
        if (pm.customer !== customer.id) {
          throw invalid(
            `The customer does not have a payment method with the ID ${pmId}. The payment method must be attached to the customer.`,
            {
              param: "invoice_settings[default_payment_method]",
            },
          );
        }
      }
      customer.invoice_settings.default_payment_method = pmId || null;
    }
    this.#emit("customer.updated", customer);
    return customer;
  }

  /**
   * @param {StripeParams} params
   * @returns {StripeObject}
   */
  createProduct(params) {
    const name = requireParam(params.name, "name");
    const id = params.id || this.#id("prod");
    if (this.objects.has(id)) {
      throw invalid(`Product already exists.`, { code: "resource_already_exists", param: "id" });
    }
    const product = this.#put({
      id,
      object: "product",
      active: boolParam(params.active) ?? true,
      created: this.now(),
      name,
      description: params.description || null,
      metadata: metadataParam(params.metadata),
      livemode: false,
      type: "service",
    });
    this.#emit("product.created", product);
    return product;
  }

  /**
   * @param {StripeParams} data
   * @param {{ recurringRequired?: boolean, recurringAllowed?: boolean, emit?: boolean }} [options]
   * @returns {StripeObject}
   */
  #newPrice(data, { recurringRequired = false, recurringAllowed = true, emit = true } = {}) {
    const currency = String(requireParam(data.currency, "currency")).toLowerCase();
    const productId = requireParam(data.product, "product");
    this.#get(productId, "product");
    const unitAmount = requireInt(data.unit_amount, "unit_amount");
    let recurring = null;
    if (data.recurring) {
      if (!recurringAllowed)
        throw invalid("Received unknown parameter: price_data[recurring]", { param: "price_data[recurring]" });
      const interval = requireParam(data.recurring.interval, "recurring[interval]");
      if (!(interval in INTERVAL_SECONDS))
        throw invalid(`Invalid recurring[interval]: must be one of day, week, month, or year`, { param: "recurring[interval]" });
      const intervalCount = intParam(data.recurring.interval_count) ?? 1;
      if (!Number.isInteger(intervalCount) || intervalCount < 1)
        throw invalid("Invalid recurring[interval_count]", { param: "recurring[interval_count]" });
      recurring = { interval, interval_count: intervalCount, usage_type: "licensed", meter: null, trial_period_days: null };
    } else if (recurringRequired) {
      throw invalid("Missing required param: price_data[recurring].", {
        code: "parameter_missing",
        param: "price_data[recurring]",
      });
    }
    const price = this.#put({
      id: this.#id("price"),
      object: "price",
      active: true,
      billing_scheme: "per_unit",
      created: this.now(),
      currency,
      livemode: false,
      lookup_key: null,
      metadata: metadataParam(data.metadata),
      nickname: null,
      product: productId,
      recurring,
      tax_behavior: data.tax_behavior || "unspecified",
      type: recurring ? "recurring" : "one_time",
      unit_amount: unitAmount,
      unit_amount_decimal: String(unitAmount),
    });
    if (emit) this.#emit("price.created", price);
    return price;
  }

  /**
   * @param {StripeParams} params
   * @returns {StripeObject}
   */
  createPrice(params) {
    return this.#newPrice(params, {});
  }

  // -------------------------------------------------------------------------------------------
  // Payment methods

  /**
   * @param {StripeParams} params
   * @returns {StripeObject}
   */
  createPaymentMethod(params) {
    const type = params.type ?? "card";
    if (type !== "card") throw invalid(`The payment method type '${type}' is not supported by the emulator.`, { param: "type" });
    const card = params.card ?? {};
    const number = String(card.number ?? "").replace(/[\s-]/g, "");
    if (!number) throw cardError("incomplete_number", "Le numéro de votre carte est incomplet.", { param: "number" });
    if (!luhnValid(number)) throw cardError("incorrect_number", "Le numéro de votre carte est invalide.", { param: "number" });
    const expMonth = intParam(card.exp_month);
    if (!isInteger(expMonth) || expMonth < 1 || expMonth > 12) {
      throw cardError("invalid_expiry_month", "Le mois d'expiration de votre carte est invalide.", { param: "exp_month" });
    }
    let expYear = intParam(card.exp_year);
    if (isInteger(expYear) && expYear < 100) expYear += 2000;
    const today = new Date(this.now() * 1000);
    const thisYear = today.getUTCFullYear();
    if (!isInteger(expYear) || expYear < thisYear || expYear > thisYear + 50) {
      throw cardError("invalid_expiry_year", "L'année d'expiration de votre carte est invalide.", { param: "exp_year" });
    }
    if (expYear === thisYear && expMonth < today.getUTCMonth() + 1) {
      throw cardError("invalid_expiry_year", "La date d'expiration de votre carte est dépassée.", { param: "exp_year" });
    }
    const brand = cardBrand(number);
    const cvc = String(card.cvc ?? "");
    if (cvc && !(brand === "amex" ? /^\d{4}$/ : /^\d{3}$/).test(cvc)) {
      throw cardError("invalid_cvc", "Le code de sécurité de votre carte est invalide.", { param: "cvc" });
    }
    const billing = params.billing_details ?? {};
    const address = billing.address ?? {};
    const outcome = CARD_OUTCOMES[number];
    const pm = this.#put({
      id: this.#id("pm"),
      object: "payment_method",
      type: "card",
      created: this.now(),
      customer: null,
      livemode: false,
      metadata: metadataParam(params.metadata),
      allow_redisplay: "unspecified",
      billing_details: {
        name: billing.name || null,
        email: billing.email || null,
        phone: billing.phone || null,
        tax_id: null,
        address: {
          line1: address.line1 || null,
          line2: address.line2 || null,
          city: address.city || null,
          postal_code: address.postal_code || null,
          state: address.state || null,
          country: address.country || null,
        },
      },
      card: {
        brand,
        display_brand: brand === "unknown" ? "unknown" : brand,
        country: "FR",
        exp_month: expMonth,
        exp_year: expYear,
        funding: "credit",
        last4: number.slice(-4),
        fingerprint: createHash("sha256").update(number).digest("hex").slice(0, 16),
        checks: {
          cvc_check: cvc ? (outcome?.code === "incorrect_cvc" ? "fail" : "pass") : null,
          address_line1_check: null,
          address_postal_code_check: address.postal_code ? (outcome?.code === "incorrect_zip" ? "fail" : "pass") : null,
        },
        networks: { available: [brand], preferred: null },
        three_d_secure_usage: { supported: true },
        wallet: null,
        regulated_status: "unregulated",
        generated_from: null,
      },
      _number: number,
    });
    return pm;
  }

  /**
   * @param {string} id
   * @param {StripeParams} params
   * @returns {StripeObject}
   */
  attachPaymentMethod(id, params) {
    const pm = this.#get(id, "payment_method");
    const customer = this.#get(requireParam(params.customer, "customer"), "customer");
    if (pm.customer && pm.customer !== customer.id) {
      throw invalid("The payment method you provided has already been attached to a customer.", {
        code: "payment_method_unexpected_state",
      });
    }
    if (!pm.customer) {
      pm.customer = customer.id;
      this.#emit("payment_method.attached", pm);
    }
    return pm;
  }

  /**
   * Updates a saved card's `billing_details` (each key `""` unsets it, `address=""` every line)
   * and `metadata`. Like Stripe, only a PaymentMethod attached to a customer can be updated. The
   * charges already made keep the billing details they were made with.
   * @param {string} id
   * @param {StripeParams} params
   * @returns {StripeObject}
   */
  updatePaymentMethod(id, params) {
    const pm = this.#get(id, "payment_method");
    refuseUnknownParams(params, ["billing_details", "metadata", "allow_redisplay"], {
      billing_details: ["address", "email", "name", "phone"],
    });
    if (!pm.customer) {
      throw invalid("You must save this PaymentMethod to a customer before you can update it.", {
        code: "payment_method_unexpected_state",
      });
    }
    const billing = params.billing_details;
    if (billing !== undefined) {
      if (typeof billing !== "object" || billing === null) throw invalid("Invalid object", { param: "billing_details" });
      /** @type {Record<string, unknown>} */
      const next = { ...pm.billing_details };
      for (const field of ["email", "name", "phone"]) {
        if (billing[field] !== undefined) next[field] = billing[field] || null;
      }
      if (billing.address !== undefined) {
        next.address =
          addressParam(billing.address, "billing_details[address]") ?? Object.fromEntries(ADDRESS_KEYS.map((k) => [k, null]));
      }
      // A new object: the charges made with this card keep theirs.
      pm.billing_details = next;
    }
    if (params.metadata !== undefined) pm.metadata = updatedMetadata(pm.metadata, params.metadata);
    if (params.allow_redisplay !== undefined) pm.allow_redisplay = params.allow_redisplay;
    this.#emit("payment_method.updated", pm);
    return pm;
  }

  /**
   * @param {string} id
   * @returns {StripeObject}
   */
  detachPaymentMethod(id) {
    const pm = this.#get(id, "payment_method");
    if (!pm.customer)
      throw invalid("The payment method you provided is not attached to a customer so detachment is impossible.", {
        code: "payment_method_unexpected_state",
      });
    pm.customer = null;
    this.#emit("payment_method.detached", pm);
    return pm;
  }

  // -------------------------------------------------------------------------------------------
  // Payment intents

  /**
   * The PaymentIntent, if the key may see it (a publishable key needs its client secret).
   * @param {string} id
   * @param {StripeParams} params
   * @param {Access} access
   * @returns {StripeObject}
   */
  #piForAccess(id, params, access) {
    const pi = this.#get(id, "payment_intent");
    if (access === "publishable" && params.client_secret !== pi.client_secret) {
      throw new StripeApiError(404, {
        type: "invalid_request_error",
        code: "resource_missing",
        message: `No such payment_intent: '${id}'`,
        param: "intent",
      });
    }
    return pi;
  }

  /**
   * @param {PaymentIntentInit} init
   * @returns {StripeObject}
   */
  #newPaymentIntent({
    amount,
    currency,
    customer,
    description,
    metadata,
    receiptEmail,
    setupFutureUsage,
    paymentMethodTypes,
    invoice,
  }) {
    const id = this.#id("pi");
    return this.#put({
      id,
      object: "payment_intent",
      allowed_payment_method_types: paymentMethodTypes ?? ["card"],
      amount,
      amount_capturable: 0,
      amount_received: 0,
      automatic_payment_methods: null,
      canceled_at: null,
      cancellation_reason: null,
      capture_method: "automatic",
      client_secret: `${id}_secret_${randomId(25)}`,
      confirmation_method: "automatic",
      created: this.now(customer),
      currency,
      customer: customer ?? null,
      description: description ?? null,
      last_payment_error: null,
      latest_charge: null,
      livemode: false,
      metadata: metadata ?? {},
      next_action: null,
      payment_method: null,
      payment_method_types: paymentMethodTypes ?? ["card"],
      receipt_email: receiptEmail ?? null,
      setup_future_usage: setupFutureUsage ?? null,
      shipping: null,
      status: "requires_payment_method",
      _invoice: invoice ?? null,
    });
  }

  /**
   * @param {StripeParams} params
   * @returns {StripeObject}
   */
  createPaymentIntent(params) {
    const amount = requireInt(params.amount, "amount");
    const currency = String(requireParam(params.currency, "currency")).toLowerCase();
    if (amount < 50) {
      throw invalid("Amount must be at least €0.50 eur", { code: "amount_too_small", param: "amount" });
    }
    if (params.customer) this.#get(params.customer, "customer");
    const requested = params.allowed_payment_method_types ?? params.payment_method_types;
    const types = Array.isArray(requested) ? requested : ["card"];
    if (types.some((t) => t !== "card"))
      throw invalid("The emulator only supports card payments.", { param: "allowed_payment_method_types" });
    const pi = this.#newPaymentIntent({
      amount,
      currency,
      customer: params.customer,
      description: params.description,
      metadata: metadataParam(params.metadata),
      receiptEmail: params.receipt_email,
      setupFutureUsage: params.setup_future_usage,
      paymentMethodTypes: types,
    });
    if (params.shipping) pi.shipping = shippingParam(params.shipping, "shipping");
    this.#emit("payment_intent.created", pi);
    if (params.payment_method) {
      this.#get(params.payment_method, "payment_method");
      pi.payment_method = params.payment_method;
      pi.status = "requires_confirmation";
    }
    if (boolParam(params.confirm)) return this.confirmPaymentIntent(pi.id, { off_session: params.off_session });
    return pi;
  }

  /**
   * @param {string} id
   * @param {StripeParams} params
   * @returns {StripeObject}
   */
  updatePaymentIntent(id, params) {
    const pi = this.#get(id, "payment_intent");
    refuseUnknownParams(params, ["amount", "description", "metadata", "receipt_email", "shipping"]);
    this.#checkUpdatableFields(pi, params);
    if (params.amount !== undefined) {
      if (pi._invoice)
        throw invalid("You cannot update the amount of a PaymentIntent created by an invoice.", { param: "amount" });
      pi.amount = requireInt(params.amount, "amount");
    }
    if (params.metadata !== undefined) pi.metadata = updatedMetadata(pi.metadata, params.metadata);
    if (params.description !== undefined) pi.description = params.description || null;
    if (params.receipt_email !== undefined) pi.receipt_email = params.receipt_email || null;
    if (params.shipping !== undefined) pi.shipping = shippingParam(params.shipping, "shipping");
    return pi;
  }

  /**
   * Which fields of a PaymentIntent may change in its status, as Stripe answers: the amount only
   * before confirmation; `receipt_email` and `shipping` until it succeeded (not while processing,
   * nor once canceled); `description` and `metadata` always.
   * @param {StripeObject} pi
   * @param {StripeParams} params
   */
  #checkUpdatableFields(pi, params) {
    /** @type {Record<string, string[]>} */
    const statuses = {
      amount: ["requires_payment_method", "requires_confirmation"],
      receipt_email: ["requires_payment_method", "requires_confirmation", "requires_action", "requires_capture", "succeeded"],
      shipping: ["requires_payment_method", "requires_confirmation", "requires_action", "requires_capture", "succeeded"],
    };
    for (const [field, allowed] of Object.entries(statuses)) {
      if (params[field] === undefined || allowed.includes(pi.status)) continue;
      throw this.#unexpectedState(
        pi,
        `This PaymentIntent's ${field} could not be updated because it has a status of ${pi.status}. ` +
          `You may only update the ${field} of a PaymentIntent with one of the following statuses: ${allowed.join(", ")}.`,
      );
    }
  }

  /**
   * @param {StripeObject} pi
   * @param {string} message
   * @returns {StripeApiError}
   */
  #unexpectedState(pi, message) {
    return invalid(message, { code: "payment_intent_unexpected_state", payment_intent: this.#plain(pi) });
  }

  /**
   * @param {string} id
   * @param {StripeParams} params `off_session: true` when the customer is not there (a renewal)
   * @param {{ offSession?: boolean }} [options] the emulator's own attempts without the customer
   * @returns {StripeObject}
   */
  confirmPaymentIntent(id, params, options = {}) {
    const pi = this.#get(id, "payment_intent");
    if (pi.status === "succeeded") {
      throw this.#unexpectedState(
        pi,
        "You cannot confirm this PaymentIntent because it has already succeeded after being previously confirmed.",
      );
    }
    if (pi.status === "canceled") {
      throw this.#unexpectedState(
        pi,
        "You cannot confirm this PaymentIntent because it has a status of canceled. Only a PaymentIntent with one of the following statuses may be confirmed: requires_confirmation, requires_action, requires_payment_method.",
      );
    }
    let pmId = params.payment_method || pi.payment_method;
    if (params.payment_method_data) pmId = this.createPaymentMethod(params.payment_method_data).id;
    if (!pmId) {
      throw invalid(
        "You cannot confirm this PaymentIntent because it's missing a payment method. To confirm the PaymentIntent with a payment method, pass `payment_method`.",
        {
          code: "payment_intent_unexpected_state",
          payment_intent: this.#plain(pi),
        },
      );
    }
    const pm = this.#get(pmId, "payment_method");
    if (params.setup_future_usage) pi.setup_future_usage = params.setup_future_usage;
    pi.payment_method = pm.id;
    const offSession = options.offSession === true || boolParam(params.off_session) === true;
    if (cardRequiresAuthentication(pm._number, { offSession, setUpForOffSession: Boolean(pm._set_up_for_off_session) })) {
      return offSession ? this.#authenticationRequired(pi, pm) : this.#requireAction(pi, pm);
    }
    return this.#charge(pi, pm);
  }

  /**
   * Runs the card: success or a card error (the PaymentIntent goes back to requires_payment_method).
   * @param {StripeObject} pi
   * @param {StripeObject} pm
   * @param {{ authenticated?: boolean }} [options] the card holder has just authenticated the payment
   * @returns {StripeObject}
   */
  #charge(pi, pm, { authenticated = false } = {}) {
    const outcome = authenticated ? THREE_D_SECURE_CARDS[pm._number]?.after : CARD_OUTCOMES[pm._number];
    const charge = this.#put({
      id: this.#id("ch"),
      object: "charge",
      amount: pi.amount,
      amount_captured: outcome ? 0 : pi.amount,
      captured: !outcome,
      created: this.now(pi.customer),
      currency: pi.currency,
      customer: pi.customer,
      livemode: false,
      paid: !outcome,
      payment_intent: pi.id,
      payment_method: pm.id,
      billing_details: pm.billing_details,
      amount_refunded: 0,
      refunded: false,
      refunds: { object: "list", data: [], has_more: false, total_count: 0, url: "" },
      status: outcome ? "failed" : "succeeded",
      failure_code: outcome?.code ?? null,
      failure_message: outcome?.message ?? null,
      outcome: outcome
        ? {
            network_status: "declined_by_network",
            reason: outcome.decline_code,
            type: "issuer_declined",
            seller_message: "The bank did not return any further details with this decline.",
          }
        : { network_status: "approved_by_network", reason: null, type: "authorized", seller_message: "Payment complete." },
    });
    pi.latest_charge = charge.id;
    const invoice = pi._invoice ? this.objects.get(pi._invoice) : null;

    if (outcome) {
      const error = {
        type: "card_error",
        code: outcome.code,
        decline_code: outcome.decline_code,
        message: outcome.message,
        ...(outcome.param ? { param: outcome.param } : {}),
        charge: charge.id,
        doc_url: `https://stripe.com/docs/error-codes/${outcome.code.replace(/_/g, "-")}`,
      };
      pi.status = "requires_payment_method";
      pi.last_payment_error = { ...error, payment_method: this.#plain(pm) };
      this.#emit("charge.failed", charge);
      this.#emit("payment_intent.payment_failed", pi);
      if (invoice) this.#invoiceAttemptFailed(invoice);
      throw new StripeApiError(402, { ...error, payment_intent: this.#plain(pi), payment_method: this.#plain(pm) });
    }

    pi.status = "succeeded";
    pi.amount_received = pi.amount;
    pi.last_payment_error = null;
    pi.next_action = null;
    // Saved for later use (the first invoice of a subscription saves it too): renewals need no authentication.
    if (pi.setup_future_usage || pi._invoice) pm._set_up_for_off_session = true;
    if (pi.customer && pi.setup_future_usage && !pm.customer) {
      pm.customer = pi.customer;
      this.#emit("payment_method.attached", pm);
    }
    this.#emit("charge.succeeded", charge);
    this.#emit("payment_intent.succeeded", pi);
    if (invoice) this.#markInvoicePaid(invoice, pi, pm);
    return pi;
  }

  /**
   * @param {string} id
   * @param {StripeParams} params
   * @returns {StripeObject}
   */
  cancelPaymentIntent(id, params) {
    const pi = this.#get(id, "payment_intent");
    if (pi.status === "succeeded" || pi.status === "canceled") {
      throw this.#unexpectedState(pi, `You cannot cancel this PaymentIntent because it has a status of ${pi.status}.`);
    }
    if (pi._invoice)
      throw invalid("You cannot cancel this PaymentIntent because it was created by an invoice.", {
        code: "payment_intent_unexpected_state",
      });
    pi.status = "canceled";
    pi.canceled_at = this.now(pi.customer);
    pi.cancellation_reason = params.cancellation_reason || null;
    this.#emit("payment_intent.canceled", pi);
    return pi;
  }

  // -------------------------------------------------------------------------------------------
  // 3-D Secure: the challenge of a payment made with the customer, and renewals that need them

  /**
   * The bank asks the customer to authenticate (on session): the PaymentIntent waits in
   * `requires_action` with `next_action.use_stripe_sdk`, as Stripe's does, until Stripe.js shows
   * the challenge and the customer answers it (authenticatePaymentIntent).
   * @param {StripeObject} pi
   * @param {StripeObject} pm
   * @returns {StripeObject}
   */
  #requireAction(pi, pm) {
    pi.status = "requires_action";
    pi.next_action = {
      type: "use_stripe_sdk",
      use_stripe_sdk: { type: "three_d_secure_redirect", source: this.#id("src"), stripe_js: null },
    };
    pi._authenticating = pm.id;
    this.#emit("payment_intent.requires_action", pi);
    return pi;
  }

  /**
   * The bank asks for authentication while the customer is not there (a renewal): the payment
   * fails with `authentication_required`. An invoice's PaymentIntent then waits in
   * `requires_action` for the customer (`invoice.payment_action_required`, then
   * `invoice.payment_failed`); any other goes back to `requires_payment_method`.
   * @param {StripeObject} pi
   * @param {StripeObject} pm
   * @returns {never}
   */
  #authenticationRequired(pi, pm) {
    const message = "Votre banque demande une authentification pour ce paiement.";
    const charge = this.#put({
      id: this.#id("ch"),
      object: "charge",
      amount: pi.amount,
      amount_captured: 0,
      captured: false,
      created: this.now(pi.customer),
      currency: pi.currency,
      customer: pi.customer,
      livemode: false,
      paid: false,
      payment_intent: pi.id,
      payment_method: pm.id,
      billing_details: pm.billing_details,
      amount_refunded: 0,
      refunded: false,
      refunds: { object: "list", data: [], has_more: false, total_count: 0, url: "" },
      status: "failed",
      failure_code: "authentication_required",
      failure_message: message,
      outcome: {
        network_status: "declined_by_network",
        reason: "authentication_required",
        type: "issuer_declined",
        seller_message: "The bank requires the card holder to authenticate the payment.",
      },
    });
    const error = {
      type: "card_error",
      code: "authentication_required",
      decline_code: "authentication_required",
      message,
      charge: charge.id,
      doc_url: "https://stripe.com/docs/error-codes/authentication-required",
    };
    pi.latest_charge = charge.id;
    pi.last_payment_error = { ...error, payment_method: this.#plain(pm) };
    this.#emit("charge.failed", charge);
    const invoice = pi._invoice ? this.objects.get(pi._invoice) : null;
    if (invoice) {
      pi.status = "requires_action";
      pi.next_action = {
        type: "use_stripe_sdk",
        use_stripe_sdk: { type: "three_d_secure_redirect", source: this.#id("src"), stripe_js: null },
      };
      pi._authenticating = pm.id;
      this.#emit("payment_intent.requires_action", pi);
      this.#emit("invoice.payment_action_required", invoice);
      this.#invoiceAttemptFailed(invoice);
    } else {
      pi.status = "requires_payment_method";
      pi.next_action = null;
      this.#emit("payment_intent.payment_failed", pi);
    }
    throw new StripeApiError(402, { ...error, payment_intent: this.#plain(pi), payment_method: this.#plain(pm) });
  }

  /**
   * The customer's answer to the challenge of a PaymentIntent in `requires_action` (what
   * Stripe.js's 3-D Secure frame tells Stripe). Authorized: the card is charged (3178 is then
   * declined). Refused: the PaymentIntent goes back to `requires_payment_method` with Stripe's
   * `payment_intent_authentication_failure`, and an invoice counts a failed attempt.
   * @param {string} id
   * @param {boolean} authorized
   * @returns {StripeObject}
   */
  authenticatePaymentIntent(id, authorized) {
    const pi = this.#get(id, "payment_intent");
    if (pi.status !== "requires_action" || !pi._authenticating) {
      throw this.#unexpectedState(pi, `This PaymentIntent's status is ${pi.status}: there is no authentication to complete.`);
    }
    const pm = this.#get(pi._authenticating, "payment_method");
    pi._authenticating = null;
    pi.next_action = null;
    if (authorized) return this.#charge(pi, pm, { authenticated: true });
    pi.status = "requires_payment_method";
    pi.last_payment_error = {
      type: "invalid_request_error",
      code: "payment_intent_authentication_failure",
      message: "We are unable to authenticate your payment method. Please choose a different payment method and try again.",
      doc_url: "https://stripe.com/docs/error-codes/payment-intent-authentication-failure",
      payment_method: this.#plain(pm),
    };
    this.#emit("payment_intent.payment_failed", pi);
    const invoice = pi._invoice ? this.objects.get(pi._invoice) : null;
    if (invoice) this.#invoiceAttemptFailed(invoice);
    return pi;
  }

  // -------------------------------------------------------------------------------------------
  // Setup intents: a card saved for later payments (a subscriber's new card), as Stripe test mode does

  /**
   * The SetupIntent, if the key may see it (a publishable key needs its client secret).
   * @param {string} id
   * @param {StripeParams} params
   * @param {Access} access
   * @returns {StripeObject}
   */
  #setiForAccess(id, params, access) {
    const seti = this.#get(id, "setup_intent");
    if (access === "publishable" && params.client_secret !== seti.client_secret) {
      throw new StripeApiError(404, {
        type: "invalid_request_error",
        code: "resource_missing",
        message: `No such setupintent: '${id}'`,
        param: "intent",
      });
    }
    return seti;
  }

  /**
   * @param {StripeObject} seti
   * @param {StripeParams} params
   * @param {Access} access
   * @returns {StripeObject}
   */
  renderSetupIntent(seti, params, access) {
    const out = this.#render(seti, access === "secret" ? params : {});
    if (access === "publishable") {
      // Like Stripe: a publishable key sees a reduced SetupIntent.
      delete out.metadata;
      delete out.customer;
    }
    return out;
  }

  /**
   * `POST /v1/setup_intents`: `customer`, `usage` (`off_session` by default, or `on_session`),
   * `payment_method_types` (card only), `metadata`, `description`; `payment_method` with
   * `confirm` confirms it at once.
   * @param {StripeParams} params
   * @returns {StripeObject}
   */
  createSetupIntent(params) {
    refuseUnknownParams(params, [
      "customer",
      "usage",
      "allowed_payment_method_types",
      "payment_method_types",
      "metadata",
      "description",
      "payment_method",
      "confirm",
      "expand",
    ]);
    if (params.customer) this.#get(params.customer, "customer");
    const usage = params.usage ?? "off_session";
    if (usage !== "off_session" && usage !== "on_session") {
      throw invalid("Invalid usage: must be one of off_session or on_session", { param: "usage" });
    }
    const requested = params.allowed_payment_method_types ?? params.payment_method_types;
    const types = Array.isArray(requested) ? requested : ["card"];
    if (types.some((t) => t !== "card"))
      throw invalid("The emulator only supports cards.", { param: "allowed_payment_method_types" });
    const id = this.#id("seti");
    const seti = this.#put({
      id,
      object: "setup_intent",
      application: null,
      automatic_payment_methods: null,
      cancellation_reason: null,
      client_secret: `${id}_secret_${randomId(25)}`,
      created: this.now(params.customer),
      customer: params.customer || null,
      description: params.description || null,
      flow_directions: null,
      last_setup_error: null,
      latest_attempt: null,
      livemode: false,
      mandate: null,
      metadata: metadataParam(params.metadata),
      next_action: null,
      on_behalf_of: null,
      payment_method: null,
      payment_method_options: { card: { mandate_options: null, network: null, request_three_d_secure: "automatic" } },
      payment_method_types: types,
      single_use_mandate: null,
      status: "requires_payment_method",
      usage,
    });
    this.#emit("setup_intent.created", seti);
    if (params.payment_method) {
      seti.payment_method = this.#get(params.payment_method, "payment_method").id;
      seti.status = "requires_confirmation";
    }
    if (boolParam(params.confirm)) return this.confirmSetupIntent(seti.id, {});
    return seti;
  }

  /**
   * `POST /v1/setup_intents/:id/confirm` (`payment_method`, or `payment_method_data`): the card is
   * checked by its bank. A test card that declines (0002, 9995...) is refused with a 402 and the
   * SetupIntent waits for another card (`last_setup_error`, `setup_intent.setup_failed`); a 3-D
   * Secure card (3155, 3184, 3178, 3220) waits in `requires_action` for the customer's answer to
   * the challenge; any other succeeds: the card is attached to the customer and saved for later
   * payments without them (renewals then need no authentication, except with 3184 and 3178).
   * @param {string} id
   * @param {StripeParams} params
   * @returns {StripeObject}
   */
  confirmSetupIntent(id, params) {
    const seti = this.#get(id, "setup_intent");
    if (seti.status === "succeeded" || seti.status === "canceled") {
      throw invalid(
        `You cannot confirm this SetupIntent because it has a status of ${seti.status}. Only a SetupIntent with one of the following statuses may be confirmed: requires_confirmation, requires_action, requires_payment_method.`,
        { code: "setup_intent_unexpected_state", setup_intent: this.#plain(seti) },
      );
    }
    let pmId = params.payment_method || seti.payment_method;
    if (params.payment_method_data) pmId = this.createPaymentMethod(params.payment_method_data).id;
    if (!pmId) {
      throw invalid(
        "You cannot confirm this SetupIntent because it's missing a payment method. To confirm the SetupIntent with a payment method, pass `payment_method`.",
        { code: "setup_intent_unexpected_state", setup_intent: this.#plain(seti) },
      );
    }
    const pm = this.#get(pmId, "payment_method");
    if (seti.customer && pm.customer && pm.customer !== seti.customer) {
      throw invalid("The payment method you provided has already been attached to a customer.", {
        code: "payment_method_unexpected_state",
      });
    }
    seti.payment_method = pm.id;
    seti.last_setup_error = null;
    if (THREE_D_SECURE_CARDS[pm._number]) {
      seti.status = "requires_action";
      seti.next_action = {
        type: "use_stripe_sdk",
        use_stripe_sdk: { type: "three_d_secure_redirect", source: this.#id("src"), stripe_js: null },
      };
      this.#emit("setup_intent.requires_action", seti);
      return seti;
    }
    return this.#completeSetup(seti, pm, CARD_OUTCOMES[pm._number]);
  }

  /**
   * The customer's answer to the challenge of a SetupIntent in `requires_action`. Authorized: the
   * card is set up (3178 is then declined). Refused: back to `requires_payment_method` with
   * `setup_intent_authentication_failure`.
   * @param {string} id
   * @param {boolean} authorized
   * @returns {StripeObject}
   */
  authenticateSetupIntent(id, authorized) {
    const seti = this.#get(id, "setup_intent");
    if (seti.status !== "requires_action" || !seti.payment_method) {
      throw invalid(`This SetupIntent's status is ${seti.status}: there is no authentication to complete.`, {
        code: "setup_intent_unexpected_state",
      });
    }
    const pm = this.#get(seti.payment_method, "payment_method");
    seti.next_action = null;
    if (authorized) return this.#completeSetup(seti, pm, THREE_D_SECURE_CARDS[pm._number]?.after, { authenticated: true });
    seti.status = "requires_payment_method";
    seti.last_setup_error = {
      type: "invalid_request_error",
      code: "setup_intent_authentication_failure",
      message: "We are unable to authenticate your payment method. Please choose a different payment method and try again.",
      doc_url: "https://stripe.com/docs/error-codes/setup-intent-authentication-failure",
      payment_method: this.#plain(pm),
    };
    this.#emit("setup_intent.setup_failed", seti);
    return seti;
  }

  /**
   * @param {StripeObject} seti
   * @param {StripeObject} pm
   * @param {CardOutcome | undefined} outcome a decline, or none
   * @param {{ authenticated?: boolean }} [options] answered by the publishable key's challenge: a decline is the SetupIntent's, not a thrown error
   * @returns {StripeObject}
   */
  #completeSetup(seti, pm, outcome, { authenticated = false } = {}) {
    // 0341 is set up and attached; only its charges fail.
    if (outcome && pm._number !== "4000000000000341") {
      const error = {
        type: "card_error",
        code: outcome.code,
        decline_code: outcome.decline_code,
        message: outcome.message,
        ...(outcome.param ? { param: outcome.param } : {}),
        doc_url: `https://stripe.com/docs/error-codes/${outcome.code.replace(/_/g, "-")}`,
      };
      seti.status = "requires_payment_method";
      seti.last_setup_error = { ...error, payment_method: this.#plain(pm) };
      this.#emit("setup_intent.setup_failed", seti);
      if (authenticated) return seti;
      throw new StripeApiError(402, { ...error, setup_intent: this.#plain(seti), payment_method: this.#plain(pm) });
    }
    seti.status = "succeeded";
    seti.next_action = null;
    seti.last_setup_error = null;
    seti.latest_attempt = this.#id("setatt");
    if (seti.usage === "off_session") pm._set_up_for_off_session = true;
    if (seti.customer && !pm.customer) {
      pm.customer = seti.customer;
      this.#emit("payment_method.attached", pm);
    }
    this.#emit("setup_intent.succeeded", seti);
    return seti;
  }

  // -------------------------------------------------------------------------------------------
  // Refunds

  /**
   * `POST /v1/refunds`: refunds a succeeded charge, given by `charge` or by its `payment_intent`,
   * in part (`amount`) or all that remains (the default). Like Stripe, a refund larger than what
   * remains is refused (`charge_already_refunded` once nothing remains, else `amount_too_large`).
   * The refund succeeds at once; `refund.created` then `charge.refunded` are sent.
   * @param {StripeParams} params
   * @returns {StripeObject}
   */
  createRefund(params) {
    if (!params.charge && !params.payment_intent) {
      throw invalid("One of the following params should be provided for this request: payment_intent or charge.", {
        code: "parameter_missing",
      });
    }
    /** @type {StripeObject} */
    let charge;
    if (params.charge) {
      charge = this.#get(params.charge, "charge");
      if (params.payment_intent && charge.payment_intent !== params.payment_intent) {
        throw invalid(`The charge ${charge.id} does not belong to the PaymentIntent ${params.payment_intent}.`, {
          param: "charge",
        });
      }
    } else {
      const pi = this.#get(params.payment_intent, "payment_intent");
      if (pi.status !== "succeeded" || !pi.latest_charge) {
        throw invalid(`This PaymentIntent (${pi.id}) does not have a successful charge to refund.`, {
          code: "charge_not_refundable",
          param: "payment_intent",
        });
      }
      charge = this.#get(pi.latest_charge, "charge");
    }
    if (charge.status !== "succeeded") {
      throw invalid(`Charge ${charge.id} has not succeeded: it cannot be refunded.`, {
        code: "charge_not_refundable",
        param: "charge",
      });
    }
    const remaining = charge.amount - charge.amount_refunded;
    if (remaining <= 0) {
      throw invalid(`Charge ${charge.id} has already been refunded.`, { code: "charge_already_refunded", charge: charge.id });
    }
    const amount =
      params.amount === undefined || params.amount === "" ? remaining : requireInt(params.amount, "amount", { min: 1 });
    if (amount > remaining) {
      const money = (/** @type {number} */ cents) => `€${(cents / 100).toFixed(2)}`;
      throw invalid(`Refund amount (${money(amount)}) is greater than unrefunded amount on charge (${money(remaining)})`, {
        code: "amount_too_large",
        param: "amount",
      });
    }
    const reasons = ["duplicate", "fraudulent", "requested_by_customer"];
    if (params.reason && !reasons.includes(String(params.reason))) {
      throw invalid(`Invalid reason: must be one of ${reasons.join(", ")}`, { param: "reason" });
    }
    const refund = this.#put({
      id: this.#id("re"),
      object: "refund",
      amount,
      balance_transaction: null,
      charge: charge.id,
      created: this.now(charge.customer),
      currency: charge.currency,
      destination_details: null,
      failure_reason: null,
      metadata: metadataParam(params.metadata),
      payment_intent: charge.payment_intent ?? null,
      reason: params.reason || null,
      receipt_number: null,
      source_transfer_reversal: null,
      status: "succeeded",
      transfer_reversal: null,
      _customer: charge.customer,
    });
    const previous = { amount_refunded: charge.amount_refunded, refunded: charge.refunded };
    charge.amount_refunded += amount;
    charge.refunded = charge.amount_refunded >= charge.amount;
    this.#syncChargeRefunds(charge);
    this.#emit("refund.created", refund);
    this.#emit("charge.refunded", charge, previous);
    return refund;
  }

  /**
   * Emulator-only: a refund that succeeded comes back failed (the card was closed): its amount is
   * no longer refunded on the charge; `refund.updated` and `refund.failed` are sent.
   * @param {string} id
   * @param {StripeParams} params
   * @returns {StripeObject}
   */
  failRefund(id, params) {
    const refund = this.#get(id, "refund");
    if (refund.status === "failed" || refund.status === "canceled") {
      throw invalid(`Refund ${refund.id} has already failed.`, { param: "id" });
    }
    const charge = this.#get(refund.charge, "charge");
    const previous = { status: refund.status, failure_reason: refund.failure_reason };
    refund.status = "failed";
    refund.failure_reason = params.failure_reason || "expired_or_canceled_card";
    charge.amount_refunded = Math.max(charge.amount_refunded - refund.amount, 0);
    charge.refunded = charge.amount_refunded >= charge.amount;
    this.#syncChargeRefunds(charge);
    this.#emit("refund.updated", refund, previous);
    this.#emit("refund.failed", refund);
    return refund;
  }

  /**
   * The charge's `refunds` list, newest first.
   * @param {StripeObject} charge
   * @returns {void}
   */
  #syncChargeRefunds(charge) {
    const data = [...this.objects.values()].filter((o) => o.object === "refund" && o.charge === charge.id).reverse();
    charge.refunds = {
      object: "list",
      data: data.map((r) => this.#plain(r)),
      has_more: false,
      total_count: data.length,
      url: `/v1/charges/${charge.id}/refunds`,
    };
  }

  // -------------------------------------------------------------------------------------------
  // Subscriptions and invoices

  /**
   * @param {StripeObject} sub
   * @param {unknown} itemsParam
   * @param {number} periodStart
   * @param {number} periodEnd
   * @returns {StripeObject[]}
   */
  #subscriptionItems(sub, itemsParam, periodStart, periodEnd) {
    if (!Array.isArray(itemsParam) || itemsParam.length === 0) {
      throw invalid("Missing required param: items.", { code: "parameter_missing", param: "items" });
    }
    return itemsParam.map((item, i) => {
      let price;
      if (item.price) {
        price = this.#get(item.price, "price");
        if (!price.recurring)
          throw invalid(
            `The price specified is set to \`type=one_time\` but this field only accepts prices with \`type=recurring\`.`,
            { param: `items[${i}][price]` },
          );
      } else if (item.price_data) {
        price = this.#newPrice(item.price_data, { recurringRequired: true, emit: false });
        price.active = false;
      } else {
        throw invalid(`Missing required param: items[${i}][price].`, { code: "parameter_missing", param: `items[${i}][price]` });
      }
      const quantity = intParam(item.quantity) ?? 1;
      if (!isInteger(quantity) || quantity < 1) throw invalid("Invalid quantity", { param: `items[${i}][quantity]` });
      return {
        id: this.#id("si"),
        object: "subscription_item",
        created: this.now(sub.customer),
        current_period_start: periodStart,
        current_period_end: periodEnd,
        metadata: metadataParam(item.metadata),
        price: this.#plain(price),
        quantity,
        subscription: sub.id,
        tax_rates: [],
      };
    });
  }

  /**
   * @param {StripeObject} price
   * @returns {number} seconds
   */
  #periodLength(price) {
    return INTERVAL_SECONDS[price.recurring.interval] * price.recurring.interval_count;
  }

  /**
   * @param {StripeParams} params
   * @returns {StripeObject}
   */
  createSubscription(params) {
    const customer = this.#get(requireParam(params.customer, "customer"), "customer");
    const now = this.now(customer.id);
    const behavior = params.payment_behavior || "allow_incomplete";
    if (!["allow_incomplete", "default_incomplete", "error_if_incomplete", "pending_if_incomplete"].includes(behavior)) {
      throw invalid(`Invalid payment_behavior: ${behavior}`, { param: "payment_behavior" });
    }
    let trialEnd = null;
    const trialDays = intParam(params.trial_period_days);
    if (trialDays !== undefined) {
      if (!isInteger(trialDays) || trialDays < 0 || trialDays > 730)
        throw invalid("Invalid trial_period_days", { param: "trial_period_days" });
      if (trialDays > 0) trialEnd = now + trialDays * DAY;
    }
    if (params.trial_end && params.trial_end !== "now") trialEnd = requireInt(params.trial_end, "trial_end");

    /** @type {StripeObject} */
    const sub = {
      id: this.#id("sub"),
      object: "subscription",
      application_fee_percent: null,
      billing_cycle_anchor: trialEnd ?? now,
      cancel_at: null,
      cancel_at_period_end: false,
      canceled_at: null,
      cancellation_details: { comment: null, feedback: null, reason: null },
      collection_method: "charge_automatically",
      created: now,
      currency: null,
      customer: customer.id,
      default_payment_method: params.default_payment_method || null,
      description: params.description || null,
      ended_at: null,
      items: { object: "list", data: [], has_more: false, url: "/v1/subscription_items" },
      latest_invoice: null,
      livemode: false,
      metadata: metadataParam(params.metadata),
      payment_settings: {
        payment_method_options: null,
        payment_method_types: Array.isArray(params.payment_settings?.payment_method_types)
          ? params.payment_settings.payment_method_types
          : null,
        save_default_payment_method: params.payment_settings?.save_default_payment_method || "off",
      },
      pause_collection: null,
      pending_setup_intent: null,
      start_date: now,
      status: "incomplete",
      test_clock: customer.test_clock ?? null,
      trial_end: trialEnd,
      trial_start: trialEnd ? now : null,
      billing_mode: { type: "classic" },
    };
    if (sub.default_payment_method) this.#get(sub.default_payment_method, "payment_method");
    sub.discounts = [];
    const discountsParam = Array.isArray(params.discounts) ? params.discounts : [];
    if (discountsParam.length > 1) throw invalid("Only one discount per subscription is supported here.", { param: "discounts" });
    for (const [i, d] of discountsParam.entries()) {
      const coupon = this.#get(requireParam(d?.coupon, `discounts[${i}][coupon]`), "coupon");
      sub._discount = this.#newDiscount(coupon, sub, now);
      sub.discounts = [sub._discount.id];
    }
    // Items: during a trial the first period ends with the trial, then runs every interval.
    const firstItems = this.#subscriptionItems(sub, params.items, now, now);
    for (const item of firstItems) item.current_period_end = trialEnd ?? now + this.#periodLength(item.price);
    sub.items.data = firstItems;
    sub.currency = firstItems[0].price.currency;
    this.#put(sub);

    const lines = firstItems.map((item) => ({
      amount: trialEnd ? 0 : item.price.unit_amount * item.quantity,
      description: trialEnd
        ? `Période d'essai pour ${item.quantity} × ${this.objects.get(item.price.product)?.name ?? "produit"}`
        : `${item.quantity} × ${this.objects.get(item.price.product)?.name ?? "produit"}`,
      price: item.price,
      quantity: item.quantity,
      period: { start: now, end: item.current_period_end },
      subscription_item: item.id,
    }));
    for (const [i, extra] of (Array.isArray(params.add_invoice_items) ? params.add_invoice_items : []).entries()) {
      let price;
      if (extra.price) price = this.#plain(this.#get(extra.price, "price"));
      else if (extra.price_data) price = this.#plain(this.#newPrice(extra.price_data, { recurringAllowed: false, emit: false }));
      else
        throw invalid(`Missing required param: add_invoice_items[${i}][price].`, {
          code: "parameter_missing",
          param: `add_invoice_items[${i}][price]`,
        });
      const quantity = intParam(extra.quantity) ?? 1;
      lines.push({
        amount: price.unit_amount * quantity,
        description: `${quantity} × ${this.objects.get(price.product)?.name ?? "produit"}`,
        price,
        quantity,
        period: { start: now, end: now },
        subscription_item: null,
      });
    }
    // An invoice's period looks back one period: none yet for the first one.
    const invoice = this.#createInvoice(sub, customer, lines, "subscription_create", now, now);
    this.#emit("customer.subscription.created", sub);

    if (invoice.total === 0) {
      this.#markInvoicePaid(invoice, null, null);
      return sub;
    }
    const pmId = sub.default_payment_method || customer.invoice_settings.default_payment_method;
    if (behavior !== "default_incomplete" && pmId) {
      const pi = /** @type {StripeObject} */ (this.objects.get(invoice._payment_intent));
      try {
        this.confirmPaymentIntent(pi.id, { payment_method: pmId });
      } catch (error) {
        if (behavior === "error_if_incomplete") {
          sub.status = "incomplete_expired";
          throw error;
        }
      }
    }
    return sub;
  }

  /**
   * @param {StripeObject} sub
   * @param {StripeObject} customer
   * @param {InvoiceLineInit[]} lines
   * @param {string} billingReason
   * @param {number} periodStart
   * @param {number} periodEnd
   * @returns {StripeObject}
   */
  #createInvoice(sub, customer, lines, billingReason, periodStart, periodEnd) {
    const now = this.now(customer.id);
    const subtotal = lines.reduce((sum, l) => sum + l.amount, 0);
    const discount = this.#discountFor(sub, subtotal, now);
    const total = subtotal - (discount?.amount ?? 0);
    /** @type {StripeObject} */
    const invoice = {
      id: this.#id("in"),
      object: "invoice",
      account_country: "FR",
      account_name: "Boutique (émulateur Stripe)",
      amount_due: total,
      amount_overpaid: 0,
      amount_paid: 0,
      amount_remaining: total,
      amount_shipping: 0,
      attempt_count: 0,
      attempted: false,
      auto_advance: true,
      billing_reason: billingReason,
      collection_method: "charge_automatically",
      created: now,
      currency: sub.currency,
      customer: customer.id,
      customer_email: customer.email,
      customer_name: customer.name,
      default_payment_method: null,
      description: null,
      discounts: discount ? [discount.id] : [],
      total_discount_amounts: discount ? [{ amount: discount.amount, discount: discount.id }] : [],
      due_date: null,
      effective_at: now,
      hosted_invoice_url: null,
      invoice_pdf: null,
      last_finalization_error: null,
      lines: {
        object: "list",
        has_more: false,
        url: "/v1/invoices/lines",
        data: lines.map((l) => ({
          id: this.#id("il"),
          object: "line_item",
          amount: l.amount,
          currency: sub.currency,
          description: l.description,
          livemode: false,
          metadata: {},
          period: l.period,
          pricing: {
            type: "price_details",
            price_details: { price: l.price.id, product: l.price.product },
            unit_amount_decimal: String(l.price.unit_amount),
          },
          quantity: l.quantity,
          parent: l.subscription_item
            ? {
                type: "subscription_item_details",
                subscription_item_details: { subscription: sub.id, subscription_item: l.subscription_item, proration: false },
              }
            : {
                type: "invoice_item_details",
                invoice_item_details: { invoice_item: this.#id("ii"), subscription: sub.id, proration: false },
              },
        })),
      },
      livemode: false,
      metadata: {},
      next_payment_attempt: null,
      number: `EMU-${String(this.events.length + 1).padStart(4, "0")}`,
      parent: {
        type: "subscription_details",
        quote_details: null,
        subscription_details: { metadata: { ...sub.metadata }, subscription: sub.id },
      },
      payment_settings: {
        default_mandate: null,
        payment_method_options: null,
        payment_method_types: sub.payment_settings.payment_method_types,
      },
      period_end: periodEnd,
      period_start: periodStart,
      status: "open",
      status_transitions: { finalized_at: now, marked_uncollectible_at: null, paid_at: null, voided_at: null },
      subtotal,
      subtotal_excluding_tax: subtotal,
      test_clock: customer.test_clock ?? null,
      total,
      total_excluding_tax: total,
      webhooks_delivered_at: null,
      _subscription: sub.id,
      _payments: [],
      _confirmation_secret: null,
      _payment_intent: null,
      _automatic_attempts: 0,
      _collecting: false,
    };
    this.#put(invoice);
    sub.latest_invoice = invoice.id;
    if (total > 0) {
      const pi = this.#newPaymentIntent({
        amount: total,
        currency: sub.currency,
        customer: customer.id,
        description: billingReason === "subscription_create" ? "Subscription creation" : "Subscription update",
        metadata: {},
        setupFutureUsage: "off_session",
        paymentMethodTypes: sub.payment_settings.payment_method_types ?? ["card"],
        invoice: invoice.id,
      });
      invoice._payment_intent = pi.id;
      invoice._confirmation_secret = { type: "payment_intent", client_secret: pi.client_secret };
      invoice._payments.push({
        id: this.#id("inpay"),
        object: "invoice_payment",
        amount_paid: null,
        amount_requested: total,
        created: now,
        currency: sub.currency,
        invoice: invoice.id,
        is_default: true,
        livemode: false,
        payment: { type: "payment_intent", payment_intent: pi.id },
        status: "open",
        status_transitions: { canceled_at: null, paid_at: null },
      });
      this.#emit("invoice.created", invoice);
      this.#emit("invoice.finalized", invoice);
      this.#emit("payment_intent.created", pi);
    } else {
      this.#emit("invoice.created", invoice);
      this.#emit("invoice.finalized", invoice);
    }
    return invoice;
  }

  /**
   * @param {StripeObject} invoice
   * @param {StripeObject | null} pi
   * @param {StripeObject | null} pm
   * @returns {void}
   */
  #markInvoicePaid(invoice, pi, pm) {
    const now = this.now(invoice.customer);
    invoice.status = "paid";
    invoice.amount_paid = invoice.total;
    invoice.amount_remaining = 0;
    invoice.attempted = true;
    invoice.attempt_count += pi ? 1 : 0;
    invoice.next_payment_attempt = null;
    invoice.status_transitions.paid_at = now;
    for (const payment of invoice._payments) {
      payment.status = "paid";
      payment.amount_paid = payment.amount_requested;
      payment.status_transitions.paid_at = now;
    }
    this.#emit("invoice.paid", invoice);
    this.#emit("invoice.payment_succeeded", invoice);
    const sub = invoice._subscription ? this.objects.get(invoice._subscription) : null;
    if (!sub) return;
    /** @type {Record<string, unknown>} */
    const previous = { status: sub.status };
    if (["incomplete", "past_due", "unpaid"].includes(sub.status)) {
      sub.status = sub.trial_end && sub.trial_end > now ? "trialing" : "active";
    }
    if (pm && sub.payment_settings.save_default_payment_method === "on_subscription") {
      previous.default_payment_method = sub.default_payment_method;
      sub.default_payment_method = pm.id;
    }
    this.#emit("customer.subscription.updated", sub, previous);
  }

  /**
   * @param {string} id
   * @param {StripeParams} params
   * @returns {StripeObject}
   */
  updateSubscription(id, params) {
    const sub = this.#get(id, "subscription");
    if (["canceled", "incomplete_expired"].includes(sub.status)) {
      throw invalid(`A canceled subscription can only update its cancellation_details and metadata.`);
    }
    /** @type {Record<string, unknown>} */
    const previous = {};
    if (params.default_payment_method !== undefined) {
      if (params.default_payment_method) {
        const pm = this.#get(params.default_payment_method, "payment_method");
        if (pm.customer !== sub.customer) {
          throw invalid(
            `The customer does not have a payment method with the ID ${pm.id}. The payment method must be attached to the customer.`,
            { param: "default_payment_method" },
          );
        }
      }
      previous.default_payment_method = sub.default_payment_method;
      sub.default_payment_method = params.default_payment_method || null;
    }
    if (params.metadata !== undefined) {
      previous.metadata = { ...sub.metadata };
      sub.metadata = { ...sub.metadata, ...metadataParam(params.metadata) };
    }
    const cancelAtPeriodEnd = boolParam(params.cancel_at_period_end);
    if (cancelAtPeriodEnd !== undefined) {
      previous.cancel_at_period_end = sub.cancel_at_period_end;
      sub.cancel_at_period_end = cancelAtPeriodEnd;
      sub.cancel_at = cancelAtPeriodEnd ? (sub.items.data[0]?.current_period_end ?? null) : null;
    }
    if (params.pause_collection !== undefined) {
      previous.pause_collection = sub.pause_collection;
      sub.pause_collection = this.#pauseCollectionParam(params.pause_collection);
    }
    if (params.trial_end !== undefined) {
      // A trial up to a date (e.g. the end of the paid period): nothing is charged until then,
      // and the items' next period (their new interval, if any) starts at that date.
      const now = this.now(sub.customer);
      const trialEnd = params.trial_end === "now" ? now : requireInt(params.trial_end, "trial_end");
      if (trialEnd < now) throw invalid("Invalid timestamp: must be in the future.", { param: "trial_end" });
      previous.trial_end = sub.trial_end;
      previous.status = sub.status;
      sub.trial_end = trialEnd;
      sub.trial_start = sub.trial_start ?? now;
      if (trialEnd > now) sub.status = "trialing";
      for (const item of sub.items.data) item.current_period_end = trialEnd;
    }
    if (params.items !== undefined) {
      previous.items = { ...sub.items, data: sub.items.data.map((/** @type {StripeObject} */ i) => ({ ...i })) };
      this.#updateItems(sub, params.items, params.proration_behavior);
    }
    this.#emit("customer.subscription.updated", sub, previous);
    return sub;
  }

  /**
   * `pause_collection`: "" clears it; else `behavior` (void, keep_as_draft, mark_uncollectible)
   * and an optional `resumes_at` in the future, as Stripe checks them.
   * @param {unknown} value
   * @returns {{ behavior: string, resumes_at: number | null } | null}
   */
  #pauseCollectionParam(value) {
    if (value === "" || value === null) return null;
    if (typeof value !== "object") throw invalid("Invalid pause_collection", { param: "pause_collection" });
    const { behavior, resumes_at: resumesAt, ...rest } = /** @type {Record<string, unknown>} */ (value);
    const unknown = Object.keys(rest)[0];
    if (unknown) throw unknownParam(`pause_collection[${unknown}]`);
    if (!["void", "keep_as_draft", "mark_uncollectible"].includes(String(behavior))) {
      throw invalid("Invalid pause_collection[behavior]: must be one of keep_as_draft, mark_uncollectible, or void", {
        param: "pause_collection[behavior]",
      });
    }
    if (behavior !== "void") {
      throw invalid("The emulator only supports pause_collection[behavior]=void.", { param: "pause_collection[behavior]" });
    }
    return {
      behavior: String(behavior),
      resumes_at: resumesAt === undefined || resumesAt === "" ? null : requireInt(resumesAt, "pause_collection[resumes_at]"),
    };
  }

  /**
   * Items of a subscription update: `id` of an existing item with a new `price` or `price_data`
   * (and `quantity`). The billing period is kept when the interval is the same; a price with
   * another interval starts a new period now, as Stripe does (only `proration_behavior=none`
   * is supported: nothing is charged for the current period).
   * @param {StripeObject} sub
   * @param {unknown} itemsParam
   * @param {unknown} prorationBehavior
   * @returns {void}
   */
  #updateItems(sub, itemsParam, prorationBehavior) {
    if (!Array.isArray(itemsParam)) throw invalid("Invalid array", { param: "items" });
    if (prorationBehavior !== undefined && !["none", "create_prorations", "always_invoice"].includes(String(prorationBehavior))) {
      throw invalid(`Invalid proration_behavior: ${prorationBehavior}`, { param: "proration_behavior" });
    }
    if (prorationBehavior !== "none") {
      throw invalid("The emulator only supports proration_behavior=none on subscription item changes.", {
        param: "proration_behavior",
      });
    }
    itemsParam.forEach((item, i) => {
      const existing = sub.items.data.find((/** @type {StripeObject} */ x) => x.id === item.id);
      if (!existing) throw invalid(`Invalid subscription item: ${item.id}`, { param: `items[${i}][id]` });
      let price = existing.price;
      if (item.price) price = this.#get(item.price, "price");
      else if (item.price_data) {
        price = this.#newPrice(item.price_data, { recurringRequired: true, emit: false });
        price.active = false;
      }
      if (!price.recurring) throw invalid("The price must be recurring.", { param: `items[${i}][price]` });
      const quantity = intParam(item.quantity) ?? existing.quantity;
      if (!isInteger(quantity) || quantity < 1) throw invalid("Invalid quantity", { param: `items[${i}][quantity]` });
      const sameInterval =
        existing.price.recurring.interval === price.recurring.interval &&
        existing.price.recurring.interval_count === price.recurring.interval_count;
      if (!sameInterval && sub.status !== "trialing") {
        const now = this.now(sub.customer);
        existing.current_period_start = now;
        existing.current_period_end = now + this.#periodLength(price);
        sub.billing_cycle_anchor = now;
      }
      existing.price = this.#plain(price);
      existing.quantity = quantity;
    });
  }

  /**
   * @param {string} id
   * @returns {StripeObject}
   */
  cancelSubscription(id) {
    const sub = this.#get(id, "subscription");
    if (sub.status === "canceled") {
      throw invalid(`No such subscription: '${id}'`, { code: "resource_missing" });
    }
    const now = this.now(sub.customer);
    sub.status = "canceled";
    sub.canceled_at = now;
    sub.ended_at = now;
    sub.cancellation_details = { comment: null, feedback: null, reason: "cancellation_requested" };
    const invoice = sub.latest_invoice ? this.objects.get(sub.latest_invoice) : null;
    if (invoice && invoice.status === "open") {
      invoice.status = "void";
      invoice.status_transitions.voided_at = now;
      const pi = invoice._payment_intent ? this.objects.get(invoice._payment_intent) : null;
      if (pi && pi.status !== "succeeded") {
        pi.status = "canceled";
        pi.canceled_at = now;
        pi.cancellation_reason = "void_invoice";
      }
      this.#emit("invoice.voided", invoice);
    }
    this.#emit("customer.subscription.deleted", sub);
    return sub;
  }

  /**
   * A coupon: `amount_off` (with `currency`) or `percent_off`, for `once`, `repeating`
   * (`duration_in_months`) or `forever`.
   * @param {StripeParams} params
   * @returns {StripeObject}
   */
  createCoupon(params) {
    refuseUnknownParams(params, [
      "id",
      "amount_off",
      "currency",
      "percent_off",
      "duration",
      "duration_in_months",
      "name",
      "metadata",
      "max_redemptions",
      "redeem_by",
    ]);
    const amountOff = intParam(params.amount_off);
    const percentOff = params.percent_off === undefined ? undefined : Number(params.percent_off);
    if ((amountOff === undefined) === (percentOff === undefined)) {
      throw invalid("You must pass exactly one of amount_off or percent_off.", { param: "amount_off" });
    }
    if (amountOff !== undefined && (!isInteger(amountOff) || amountOff < 1))
      throw invalid("Invalid amount_off", { param: "amount_off" });
    if (amountOff !== undefined && !params.currency)
      throw invalid("You must pass currency when passing amount_off.", { param: "currency" });
    if (percentOff !== undefined && !(percentOff > 0 && percentOff <= 100))
      throw invalid("Invalid percent_off", { param: "percent_off" });
    const duration = params.duration || "once";
    if (!["once", "repeating", "forever"].includes(duration))
      throw invalid(`Invalid duration: ${duration}`, { param: "duration" });
    const months = intParam(params.duration_in_months);
    if (duration === "repeating" && (!isInteger(months) || months < 1))
      throw invalid("You must pass duration_in_months when duration is repeating.", { param: "duration_in_months" });
    if (params.id && this.objects.has(params.id)) throw invalid("Coupon already exists.", { code: "resource_already_exists" });
    /** @type {StripeObject} */
    const coupon = {
      id: params.id || randomId(8),
      object: "coupon",
      amount_off: amountOff ?? null,
      currency: amountOff !== undefined ? params.currency : null,
      percent_off: percentOff ?? null,
      duration,
      duration_in_months: duration === "repeating" ? months : null,
      created: this.now(),
      livemode: false,
      max_redemptions: null,
      metadata: metadataParam(params.metadata),
      name: params.name || null,
      redeem_by: null,
      times_redeemed: 0,
      valid: true,
    };
    this.#put(coupon);
    return coupon;
  }

  /**
   * The discount a coupon makes on a subscription from `start`: a repeating one ends after its
   * months (calendar months, as Stripe counts them).
   * @param {StripeObject} coupon
   * @param {StripeObject} sub
   * @param {number} start
   */
  #newDiscount(coupon, sub, start) {
    let end = null;
    if (coupon.duration === "repeating") {
      const date = new Date(start * 1000);
      date.setUTCMonth(date.getUTCMonth() + coupon.duration_in_months);
      end = Math.floor(date.getTime() / 1000);
    }
    coupon.times_redeemed += 1;
    return {
      id: this.#id("di"),
      object: "discount",
      coupon: this.#plain(coupon),
      customer: sub.customer,
      start,
      end,
      subscription: sub.id,
      _used: false,
    };
  }

  /**
   * What the subscription's discount takes off an invoice of `subtotal` at `now`, or null: a
   * `once` coupon on its first invoice only, a `repeating` one until its end.
   * @param {StripeObject} sub
   * @param {number} subtotal
   * @param {number} now
   * @returns {{ id: string, amount: number } | null}
   */
  #discountFor(sub, subtotal, now) {
    const discount = sub._discount;
    if (!discount || subtotal <= 0) return null;
    const coupon = discount.coupon;
    if (coupon.duration === "once" && discount._used) return null;
    if (discount.end !== null && now >= discount.end) return null;
    discount._used = true;
    const amount =
      coupon.amount_off !== null ? Math.min(coupon.amount_off, subtotal) : Math.round((subtotal * coupon.percent_off) / 100);
    return { id: discount.id, amount };
  }

  /**
   * Removes the subscription's discount: the next invoices are at the full price.
   * @param {string} id
   */
  deleteSubscriptionDiscount(id) {
    const sub = this.#get(id, "subscription");
    const discount = sub._discount;
    if (!discount) throw missing("discount", id);
    const previous = { discounts: sub.discounts };
    sub._discount = null;
    sub.discounts = [];
    this.#emit("customer.subscription.updated", sub, previous);
    return { object: "discount", id: discount.id, deleted: true };
  }

  /**
   * Emulator-only: the next period starts now and its invoice is charged to the default card,
   * as when a test clock passes the end of the period (see #renew).
   * @param {string} id
   * @returns {StripeObject} the new invoice
   */
  renewSubscription(id) {
    const sub = this.#get(id, "subscription");
    if (!["active", "trialing", "past_due"].includes(sub.status)) {
      throw invalid(`Subscription ${id} is ${sub.status} and cannot renew.`);
    }
    return this.#renew(sub);
  }

  /**
   * The end of the current period (or of the trial): the items move to the next period, its
   * invoice (`billing_reason: subscription_cycle`) is created and charged to the default card.
   * @param {StripeObject} sub
   * @returns {StripeObject} the new invoice
   */
  #renew(sub) {
    const customer = this.#get(sub.customer, "customer");
    const previousStart = sub.items.data[0].current_period_start;
    const start = sub.items.data[0].current_period_end;
    // A pause whose resumes_at has come is lifted first: this renewal is collected again.
    if (sub.pause_collection?.resumes_at && sub.pause_collection.resumes_at <= start) {
      const pause = sub.pause_collection;
      sub.pause_collection = null;
      this.#emit("customer.subscription.updated", sub, { pause_collection: pause });
    }
    const lines = sub.items.data.map((/** @type {StripeObject} */ item) => {
      item.current_period_start = start;
      item.current_period_end = start + this.#periodLength(item.price);
      return {
        amount: item.price.unit_amount * item.quantity,
        description: `${item.quantity} × ${this.objects.get(item.price.product)?.name ?? "produit"}`,
        price: item.price,
        quantity: item.quantity,
        period: { start: item.current_period_start, end: item.current_period_end },
        subscription_item: item.id,
      };
    });
    /** @type {Record<string, unknown>} */
    const previous = { latest_invoice: sub.latest_invoice };
    if (sub.status === "trialing") {
      previous.status = sub.status;
      sub.status = "active";
    }
    // The invoice's own period looks back one period; its lines carry the new one.
    const invoice = this.#createInvoice(sub, customer, lines, "subscription_cycle", previousStart, start);
    this.#emit("customer.subscription.updated", sub, previous);
    if (sub.pause_collection?.behavior === "void") {
      // Collection paused: the renewal's invoice is voided at once, nothing is charged.
      invoice.status = "void";
      invoice.status_transitions.voided_at = start;
      const pi = invoice._payment_intent ? this.objects.get(invoice._payment_intent) : null;
      if (pi) {
        pi.status = "canceled";
        pi.canceled_at = start;
        pi.cancellation_reason = "void_invoice";
      }
      this.#emit("invoice.voided", invoice);
    } else if (invoice.total === 0) this.#markInvoicePaid(invoice, null, null);
    else this.#collect(invoice);
    return invoice;
  }

  /**
   * An automatic payment attempt of a subscription invoice (a renewal or one of its retries),
   * on the subscription's default payment method, else the customer's.
   * @param {StripeObject} invoice
   * @returns {void}
   */
  #collect(invoice) {
    const sub = this.#get(invoice._subscription, "subscription");
    const customer = this.#get(invoice.customer, "customer");
    const pmId = sub.default_payment_method || customer.invoice_settings.default_payment_method;
    invoice._collecting = true;
    try {
      if (pmId) {
        this.confirmPaymentIntent(invoice._payment_intent, { payment_method: pmId }, { offSession: true });
      } else {
        this.#invoiceAttemptFailed(invoice);
      }
    } catch (error) {
      if (!(error instanceof StripeApiError)) throw error;
    } finally {
      invoice._collecting = false;
    }
    if (invoice.status === "open" && invoice._automatic_attempts > RETRY_SCHEDULE_DAYS.length && sub.status !== "canceled") {
      // Every retry failed: the subscription is canceled (the invoice stays open).
      this.#endSubscription(sub, "payment_failed");
    }
  }

  /**
   * A failed payment of an invoice: counted, announced, and for a renewal attempted
   * automatically the next retry is scheduled and the subscription goes past_due.
   * @param {StripeObject} invoice
   * @returns {void}
   */
  #invoiceAttemptFailed(invoice) {
    invoice.attempt_count += 1;
    invoice.attempted = true;
    const sub = invoice._subscription ? this.objects.get(invoice._subscription) : null;
    const renewal = sub && invoice.billing_reason === "subscription_cycle";
    if (renewal && invoice._collecting) {
      invoice._automatic_attempts += 1;
      const delay = RETRY_SCHEDULE_DAYS[invoice._automatic_attempts - 1];
      invoice.next_payment_attempt = delay === undefined ? null : this.now(invoice.customer) + delay * DAY;
    }
    this.#emit("invoice.payment_failed", invoice);
    if (renewal && sub.status !== "past_due" && sub.status !== "canceled") {
      const previous = sub.status;
      sub.status = "past_due";
      this.#emit("customer.subscription.updated", sub, { status: previous });
    }
  }

  /**
   * The subscription ends by itself (period end after a cancellation request, or failed payments).
   * @param {StripeObject} sub
   * @param {"cancellation_requested" | "payment_failed"} reason
   * @returns {void}
   */
  #endSubscription(sub, reason) {
    const now = this.now(sub.customer);
    sub.status = "canceled";
    sub.canceled_at = sub.canceled_at ?? now;
    sub.ended_at = now;
    sub.cancellation_details = { comment: null, feedback: null, reason };
    // Stripe stops the automatic collection of the subscription's open invoices.
    for (const invoice of this.objects.values()) {
      if (invoice.object === "invoice" && invoice._subscription === sub.id && invoice.status === "open") {
        invoice.auto_advance = false;
        invoice.next_payment_attempt = null;
      }
    }
    this.#emit("customer.subscription.deleted", sub);
  }

  /**
   * A subscription whose first invoice is still unpaid 23 hours after its creation: terminal
   * `incomplete_expired`, its invoice voided.
   * @param {StripeObject} sub
   * @returns {void}
   */
  #expireIncomplete(sub) {
    const now = this.now(sub.customer);
    sub.status = "incomplete_expired";
    sub.ended_at = now;
    const invoice = sub.latest_invoice ? this.objects.get(sub.latest_invoice) : null;
    if (invoice && invoice.status === "open") {
      invoice.status = "void";
      invoice.status_transitions.voided_at = now;
      const pi = invoice._payment_intent ? this.objects.get(invoice._payment_intent) : null;
      if (pi && pi.status !== "succeeded" && pi.status !== "canceled") {
        pi.status = "canceled";
        pi.canceled_at = now;
        pi.cancellation_reason = "void_invoice";
      }
      this.#emit("invoice.voided", invoice);
    }
    this.#emit("customer.subscription.deleted", sub, { status: "incomplete" });
  }

  /**
   * `POST /v1/invoices/:id/pay`: charges the open invoice now, on `payment_method` (which must
   * belong to the invoice's customer) or the default one; `paid_out_of_band` marks it paid.
   * @param {string} id
   * @param {StripeParams} params
   * @returns {StripeObject}
   */
  payInvoice(id, params) {
    const invoice = this.#get(id, "invoice");
    if (invoice.status === "paid") throw invalid("Invoice is already paid");
    if (invoice.status !== "open") {
      throw invalid(`You can only pay an invoice whose status is open (this one is ${invoice.status}).`);
    }
    if (boolParam(params.paid_out_of_band)) {
      this.#markInvoicePaid(invoice, null, null);
      return invoice;
    }
    const customer = this.#get(invoice.customer, "customer");
    const sub = invoice._subscription ? this.objects.get(invoice._subscription) : null;
    let pmId = params.payment_method || null;
    if (pmId) {
      const pm = this.#get(pmId, "payment_method");
      if (pm.customer !== customer.id) {
        throw invalid(
          `The PaymentMethod ${pm.id} does not belong to the Customer ${customer.id}. Please use a PaymentMethod attached to this Customer.`,
          {
            param: "payment_method",
          },
        );
      }
    } else {
      pmId = invoice.default_payment_method || sub?.default_payment_method || customer.invoice_settings.default_payment_method;
    }
    if (!pmId) {
      throw invalid("The invoice has no payment method to charge: pass `payment_method` or set a default one.", {
        param: "payment_method",
      });
    }
    // Like Stripe, paying an invoice is made without the customer unless `off_session` is false.
    this.confirmPaymentIntent(invoice._payment_intent, {
      payment_method: pmId,
      off_session: boolParam(params.off_session) === false ? "false" : "true",
    });
    return invoice;
  }

  // -------------------------------------------------------------------------------------------
  // Test clocks

  /**
   * @param {StripeParams} params
   * @returns {StripeObject}
   */
  createTestClock(params) {
    const frozenTime = requireInt(params.frozen_time, "frozen_time");
    const name = params.name ? String(params.name) : null;
    if (name && name.length > 300) throw invalid("Invalid name: must be at most 300 characters", { param: "name" });
    const customer = params.customer ? this.#get(params.customer, "customer") : null;
    if (customer?.test_clock) {
      throw invalid(`The customer ${customer.id} is already attached to a test clock.`, { param: "customer" });
    }
    const created = this.nowFn();
    const clock = this.#put({
      id: this.#id("clock"),
      object: "test_helpers.test_clock",
      created,
      deletes_after: created + CLOCK_LIFETIME_DAYS * DAY,
      frozen_time: frozenTime,
      livemode: false,
      name,
      status: "ready",
      status_details: {},
    });
    if (customer) customer.test_clock = clock.id;
    this.#emit("test_helpers.test_clock.created", clock);
    return clock;
  }

  /**
   * Deletes the clock with its customers (gone, as deleted customers) and ends their
   * subscriptions, without further events.
   * @param {string} id
   * @returns {StripeObject}
   */
  deleteTestClock(id) {
    const clock = this.#get(id, "test_helpers.test_clock");
    for (const object of [...this.objects.values()]) {
      if (object.object === "customer" && object.test_clock === clock.id && !object.deleted) {
        for (const sub of this.objects.values()) {
          if (sub.object === "subscription" && sub.customer === object.id && sub.status !== "canceled") {
            sub.status = "canceled";
            sub.canceled_at = sub.ended_at = clock.frozen_time;
          }
        }
        this.objects.set(object.id, { id: object.id, object: "customer", deleted: true });
      }
    }
    this.objects.delete(clock.id);
    this.#emit("test_helpers.test_clock.deleted", clock);
    return { id: clock.id, object: "test_helpers.test_clock", deleted: true };
  }

  /**
   * Starts advancing the clock, like Stripe: the answer says `advancing`, the subscriptions of
   * its customers then run up to `frozen_time` (right after this request), and the clock is
   * `ready` again (event `test_helpers.test_clock.ready`).
   * @param {string} id
   * @param {StripeParams} params
   * @returns {StripeObject}
   */
  advanceTestClock(id, params) {
    const clock = this.#get(id, "test_helpers.test_clock");
    const target = requireInt(params.frozen_time, "frozen_time");
    if (clock.status === "advancing") {
      throw invalid(`The test clock ${clock.id} is already advancing. Wait until its status is ready before advancing it again.`);
    }
    if (clock.status === "internal_failure") {
      throw invalid(`The test clock ${clock.id} failed to advance and cannot advance any more. Delete it and create a new one.`);
    }
    if (target <= clock.frozen_time) {
      throw invalid(
        `The test clock can only advance forward: frozen_time (${target}) must be after its current frozen_time (${clock.frozen_time}).`,
        {
          param: "frozen_time",
        },
      );
    }
    const shortest = this.#shortestInterval(clock);
    const limit = shortest === null ? 2 * 365 * DAY : 2 * shortest;
    if (target - clock.frozen_time > limit) {
      const what =
        shortest === null
          ? "two years (no subscription on this test clock)"
          : `two intervals of the shortest subscription on this test clock (${limit / DAY} days)`;
      throw invalid(
        `Cannot advance the test clock more than ${what} at a time: advance it to ${clock.frozen_time + limit} at the latest, then again.`,
        {
          param: "frozen_time",
        },
      );
    }
    clock.status = "advancing";
    clock.status_details = { advancing: { target_frozen_time: target } };
    this.#emit("test_helpers.test_clock.advancing", clock);
    const answer = this.#plain(clock);
    setTimeout(() => this.#runClock(clock, target), this.clockAdvanceDelayMs);
    return answer;
  }

  /**
   * The shortest billing interval of the clock's live subscriptions, in seconds (null: none).
   * @param {StripeObject} clock
   * @returns {number | null}
   */
  #shortestInterval(clock) {
    let shortest = null;
    for (const sub of this.#clockSubscriptions(clock)) {
      for (const item of sub.items.data) {
        const length = this.#periodLength(item.price);
        if (shortest === null || length < shortest) shortest = length;
      }
    }
    return shortest;
  }

  /**
   * @param {StripeObject} clock
   * @returns {StripeObject[]} the subscriptions of its customers that time still moves
   */
  #clockSubscriptions(clock) {
    return [...this.objects.values()].filter(
      (o) =>
        o.object === "subscription" &&
        ["incomplete", "active", "trialing", "past_due"].includes(o.status) &&
        this.objects.get(o.customer)?.test_clock === clock.id,
    );
  }

  /**
   * Runs everything due on the clock's subscriptions up to `target`, in time order, each at its
   * own time (the clock's frozen_time follows), then the clock is ready.
   * @param {StripeObject} clock
   * @param {number} target
   * @returns {void}
   */
  #runClock(clock, target) {
    if (this.objects.get(clock.id) !== clock) return; // deleted meanwhile
    try {
      for (let step = 0; step < 10_000; step++) {
        const next = this.#nextClockAction(clock, target);
        if (!next) break;
        clock.frozen_time = Math.max(clock.frozen_time, next.at);
        next.run();
      }
      clock.frozen_time = target;
      clock.status = "ready";
      clock.status_details = {};
      this.#emit("test_helpers.test_clock.ready", clock);
    } catch (error) {
      clock.status = "internal_failure";
      clock.status_details = {};
      this.#emit("test_helpers.test_clock.internal_failure", clock);
      this.onClockError(error);
    }
  }

  /**
   * The earliest thing due on the clock's subscriptions by `target`: a first invoice unpaid
   * for 23 hours (the subscription expires), a trial ending soon
   * (3 days before), a payment retry, the end of a period (renewal, or the end of a
   * subscription canceled at period end).
   * @param {StripeObject} clock
   * @param {number} target
   * @returns {{ at: number, rank: number, run: () => void } | null}
   */
  #nextClockAction(clock, target) {
    /** @type {{ at: number, rank: number, run: () => void } | null} */
    let best = null;
    /** @type {(at: number, rank: number, run: () => void) => void} */
    const offer = (at, rank, run) => {
      if (at > target) return;
      if (!best || at < best.at || (at === best.at && rank < best.rank)) best = { at, rank, run };
    };
    for (const sub of this.#clockSubscriptions(clock)) {
      if (sub.status === "incomplete") {
        offer(sub.created + INCOMPLETE_EXPIRES_AFTER, 0, () => this.#expireIncomplete(sub));
        continue;
      }
      if (sub.status === "trialing" && sub.trial_end && !sub._trial_will_end_sent && sub.trial_end - 3 * DAY > sub.created) {
        offer(sub.trial_end - 3 * DAY, 0, () => {
          sub._trial_will_end_sent = true;
          this.#emit("customer.subscription.trial_will_end", sub);
        });
      }
      for (const invoice of this.objects.values()) {
        if (
          invoice.object === "invoice" &&
          invoice._subscription === sub.id &&
          invoice.status === "open" &&
          invoice.next_payment_attempt
        ) {
          offer(invoice.next_payment_attempt, 1, () => this.#collect(invoice));
        }
      }
      const end = sub.items.data[0].current_period_end;
      offer(end, 2, () => (sub.cancel_at_period_end ? this.#endSubscription(sub, "cancellation_requested") : this.#renew(sub)));
    }
    return best;
  }
}

/**
 * JSON with sorted keys (the same parameters give the same text).
 * @param {unknown} value
 * @returns {string}
 */
function stableJson(value) {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (value && typeof value === "object") {
    const record = /** @type {Record<string, unknown>} */ (value);
    return `{${Object.keys(record)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson(record[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}
