import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { API_OPERATIONS } from "~/openapi/operations.server";
import { MAX_BODY_BYTES } from "~/http/api.server";
import type { ApiOperation } from "~/openapi/document.server";
import { createContactRequest } from "~/services/contacts.server";
import { createOrderFromApi } from "~/services/orders/create.server";
import { callOperation, isErrorShape, secretLeaks, type ApiCall, type ApiResult } from "../helpers/api-client";
import { changedTables, snapshotDatabase } from "../helpers/api-db";
import { newCart, VALID_CONTACT_BODY, VALID_ORDER_BODY } from "../helpers/api-fixtures";
import { adminCookie } from "./admin-helpers";

/**
 * Property-based robustness of every mutating operation of the OpenAPI document: generated
 * malformed JSON, wrong types, unicode, huge strings, foreign origins and odd ids always get
 * a 4xx in the one error shape, never a 5xx, and a refused request leaves the database as it was.
 * (No Stripe emulator here: the payment bodies name orders and subscriptions that do not exist.)
 */

// Bounded so the unit suite stays quick; API_PROPERTY_RUNS=500 digs deeper locally.
const RUNS = Number(process.env.API_PROPERTY_RUNS ?? 40);
const ID_RUNS = Math.ceil((RUNS * 3) / 4);

const MUTATING = API_OPERATIONS.filter((op) => op.method !== "get");
const JSON_BODY_OPS = MUTATING.filter((op) => op.body && op.bodyMode !== "stripe-signed");
const WITH_IDS = API_OPERATIONS.filter((op) => op.pathParams?.length);

/** Near-valid bodies to mutate; none of them can reach the payment provider. */
const BASE_BODIES: Record<string, Record<string, unknown>> = {
  addToCart: { productId: 1, packId: 2 },
  setCartItemQuantity: { quantity: 2 },
  createOrder: VALID_ORDER_BODY,
  updateOrder: { status: "processing", trackingNumber: "6A123" },
  startPayment: { orderId: 999999999, mode: "one_off" },
  confirmPayment: { orderId: 999999999 },
  createSubscription: { orderId: 999999999, customerEmail: "camille@example.fr" },
  attachPaymentMethod: { subscriptionId: "sub_inconnu", paymentMethodId: "pm_inconnu", customerEmail: "camille@example.fr" },
  createContactRequest: VALID_CONTACT_BODY,
  createWithdrawalRequest: { orderId: "123456789", email: "camille@example.fr", reason: "Changement d'avis" },
  adminLogin: { username: "fuzz", password: "mauvais-mot-de-passe" },
  setContactRequestStatus: { status: "lu" },
  createUser: { username: "fuzz.user", email: "fuzz@example.fr", password: "motdepasse-fuzz-1" },
  updateSettings: { siteName: "Maison Éclat" },
  updateNotificationSettings: { notifyContact: true },
  updateProduct: {
    name: "Masque Hydrogel au Collagène",
    sku: "ME-COLL-MASK-01",
    price: "25,90",
    stock: 500,
    packs: [{ id: 2, name: "6 masques + 2 offerts", masks: 8, price: "25,90", referencePrice: "31,80", position: 2 }],
  },
  cancelSubscription: { when: "period_end" },
  skipSubscriptionDelivery: { reason: "Demande du client" },
  unskipSubscriptionDelivery: { reason: "Demande du client" },
  pauseSubscription: { cycles: 2, reason: "Demande du client" },
  resumeSubscription: { reason: "Demande du client" },
  changeSubscriptionPack: { packId: 3, reason: "Demande du client" },
  changeSubscriptionFrequency: { intervalWeeks: 6, reason: "Demande du client" },
  reactivateSubscription: { reason: "Demande du client" },
  refundOrder: { amount: "1.00", reason: "Geste commercial" },
  createPromotion: { code: "FUZZ10", kind: "percent", value: 10, appliesTo: "one_off" },
  updatePromotion: { active: false },
  runCartReminders: { at: "2026-03-01T12:00:00Z" },
};

type Target = { params: Record<string, string>; headers: Record<string, string> };

let admin = "";
const targets = new Map<string, Target>();

beforeAll(async () => {
  admin = await adminCookie();
  const cart = await newCart();
  const orderId = String(
    (await createOrderFromApi({ ...VALID_ORDER_BODY, items: [{ productId: 1, packId: 2, quantity: 1 }] })).id,
  );
  const contactId = String((await createContactRequest(VALID_CONTACT_BODY)).id);
  const adminHeaders = { Cookie: admin };
  const cartHeaders = { Cookie: cart.cookie };
  for (const op of API_OPERATIONS) {
    const headers =
      op.auth === "admin" || op.auth === "order-token"
        ? adminHeaders
        : op.auth === "own-cart" || op.auth === "order-owner"
          ? cartHeaders
          : {};
    const params: Record<string, string> = {};
    for (const p of op.pathParams ?? []) {
      if (op.path.startsWith("/api/cart/user/") || (op.path === "/api/cart/{id}" && op.method === "get"))
        params[p.name] = cart.cartId;
      else if (op.path.startsWith("/api/cart/")) params[p.name] = cart.lineId;
      else if (op.path.startsWith("/api/orders/")) params[p.name] = orderId;
      else if (op.path.startsWith("/api/admin/contacts/")) params[p.name] = contactId;
      else params[p.name] = "1";
    }
    targets.set(op.operationId, { params, headers });
  }
});

// ---- Generators

const weirdStrings = fc.constantFrom(
  "",
  " ",
  "\u0000",
  "\ud800",
  "‮gnp.exe",
  "🙂".repeat(40),
  "e\u0301".repeat(30),
  "<script>alert(1)</script>",
  "' OR 1=1 --",
  "null",
  "true",
  "1e9999",
  "-1",
  "1.5",
  "NaN",
  "Infinity",
  "0x10",
  "١٢٣",
  "１２３",
  "a\r\nb",
  "__proto__",
);
const unicode = fc.string({ unit: "grapheme", maxLength: 60 });
const binary = fc.string({ unit: "binary", maxLength: 60 });
const hugeString = fc.integer({ min: 1_000, max: 20_000 }).map((n) => "é".repeat(n));
const oddNumbers = fc.constantFrom(0, -1, 1.5, -0.5, 1e308, -1e308, 2 ** 53 + 2, 1e-300, 999999999999999, 100);
const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  weirdStrings,
  unicode,
  binary,
  oddNumbers,
  hugeString,
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
);

type BodyCase =
  | { kind: "json"; value: unknown }
  | { kind: "malformed"; text: string }
  | { kind: "too-large"; text: string }
  | { kind: "not-json"; contentType: string; value: unknown }
  | { kind: "foreign-origin"; origin: string };

function isJson(text: string) {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function bodyCases(base: Record<string, unknown>): fc.Arbitrary<BodyCase> {
  const keys = Object.keys(base);
  const mutated = fc
    .array(fc.tuple(fc.constantFrom(...keys, "extra", "__proto__"), wrongValue, fc.boolean()), { minLength: 1, maxLength: 3 })
    .map((changes) => {
      const value: Record<string, unknown> = JSON.parse(JSON.stringify(base));
      for (const [key, wrong, remove] of changes) {
        if (remove) delete value[key];
        // An own property, even for "__proto__" (as JSON.parse makes it on the server).
        else Object.defineProperty(value, key, { value: wrong, enumerable: true, writable: true, configurable: true });
      }
      return { kind: "json" as const, value };
    });
  const anyJson = fc.jsonValue({ maxDepth: 3 }).map((value) => ({ kind: "json" as const, value }));
  const sameKeys = fc
    .record(Object.fromEntries(keys.map((k) => [k, wrongValue])) as Record<string, fc.Arbitrary<unknown>>, { requiredKeys: [] })
    .map((value) => ({ kind: "json" as const, value }));
  const malformed = fc
    .oneof(
      fc.constantFrom("{", "[", '{"a":}', "nul", "{'a':1}", "{a:1}", '{"a":1,}', "\u0000", "[1,]", '"', "undefined", "NaN"),
      fc.string({ minLength: 1, maxLength: 40 }),
      fc.nat({ max: 200 }).map((n) => JSON.stringify(base).slice(0, n)),
    )
    .filter((text) => text.trim() !== "" && !isJson(text))
    .map((text) => ({ kind: "malformed" as const, text }));
  const tooLarge = fc
    .integer({ min: 65 * 1024, max: 160 * 1024 })
    .map((size) => ({ kind: "too-large" as const, text: JSON.stringify({ ...base, filler: "x".repeat(size) }) }));
  const notJson = fc
    .constantFrom(
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "application/jsonx",
      "text/json",
      "application/xml",
    )
    .map((contentType) => ({ kind: "not-json" as const, contentType, value: base }));
  const foreign = fc
    .constantFrom("https://evil.example", "null", "http://localhost:3000.evil.example", "http://127.0.0.1:9999")
    .map((origin) => ({ kind: "foreign-origin" as const, origin }));
  return fc.oneof(
    { arbitrary: mutated, weight: 5 },
    { arbitrary: sameKeys, weight: 3 },
    { arbitrary: anyJson, weight: 2 },
    { arbitrary: malformed, weight: 2 },
    { arbitrary: tooLarge, weight: 1 },
    { arbitrary: notJson, weight: 1 },
    { arbitrary: foreign, weight: 1 },
  );
}

/** Ids that must be refused: malformed (400) or well-formed but unknown (404). */
const oddIds = fc
  .oneof(
    fc.constantFrom(
      "abc",
      "-1",
      "1.5",
      "1e9999",
      "9".repeat(5000),
      "0",
      "00",
      "01",
      " 1",
      "1 ",
      "+1",
      "0x1F",
      "Infinity",
      "NaN",
      "null",
      "١٢٣",
      "１２３",
      "1;DROP TABLE orders",
      "../1",
      "%00",
      "9007199254740993",
      "999999999999999",
      "1e3",
    ),
    fc.string({ unit: "grapheme", maxLength: 30 }),
    fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String),
    fc.double({ noNaN: false }).map(String),
    fc.integer({ min: 10_000_000_000, max: Number.MAX_SAFE_INTEGER }).map(String),
  )
  // A short well-formed id could name a real row: only unknown ones are "odd".
  .filter((id) => !/^[1-9]\d{0,9}$/.test(id));

// ---- Assertions

async function expectRefused(op: ApiOperation, result: ApiResult, before: string, statuses: number[], label: string) {
  expect(statuses, `${op.method} ${op.path} (${label}) answered ${result.status}: ${result.text.slice(0, 300)}`).toContain(
    result.status,
  );
  expect(isErrorShape(result.body), `${op.method} ${op.path} (${label}) error shape: ${result.text.slice(0, 300)}`).toBe(true);
  const after = await snapshotDatabase();
  expect(changedTables(before, after), `${op.method} ${op.path} (${label}) changed the database`).toEqual([]);
}

function expectNoServerError(op: ApiOperation, result: ApiResult, label: string) {
  expect(result.status, `${op.method} ${op.path} (${label}): ${result.text.slice(0, 300)}`).toBeLessThan(500);
  expect(secretLeaks(result)).toEqual([]);
}

describe("every mutating operation has generated inputs", () => {
  it("has a near-valid base body for each JSON body", () => {
    expect(Object.keys(BASE_BODIES).sort()).toEqual(JSON_BODY_OPS.map((op) => op.operationId).sort());
  });
});

describe.each(JSON_BODY_OPS.map((op) => [`${op.method.toUpperCase()} ${op.path}`, op] as const))(
  "%s with generated bodies",
  (_label, op) => {
    it("answers a 4xx in the error shape, never a 5xx, and a refused body changes nothing", async () => {
      const base = BASE_BODIES[op.operationId];
      await fc.assert(
        fc.asyncProperty(bodyCases(base), async (input) => {
          const target = targets.get(op.operationId)!;
          const request: ApiCall = { params: target.params, headers: { ...target.headers } };
          if (input.kind === "json") request.body = input.value;
          if (input.kind === "malformed" || input.kind === "too-large") request.rawBody = input.text;
          if (input.kind === "not-json") {
            request.body = input.value;
            request.headers!["Content-Type"] = input.contentType;
          }
          if (input.kind === "foreign-origin") {
            request.body = base;
            request.headers!.Origin = input.origin;
          }
          const before = await snapshotDatabase();
          const result = await callOperation(op, request);
          expectNoServerError(op, result, input.kind);
          switch (input.kind) {
            case "malformed":
              return expectRefused(op, result, before, [400], input.kind);
            case "too-large":
              return expectRefused(op, result, before, [413], input.kind);
            case "not-json":
              return expectRefused(op, result, before, [415], input.kind);
            case "foreign-origin":
              return expectRefused(op, result, before, [403], input.kind);
            case "json":
              // A body built from several huge strings may itself be over the limit.
              if (Buffer.byteLength(JSON.stringify(input.value)) > MAX_BODY_BYTES)
                return expectRefused(op, result, before, [413], "json over 64 kB");
              // The oracle reads exactly what the server receives.
              if (!op.body!.safeParse(JSON.parse(JSON.stringify(input.value))).success)
                return expectRefused(op, result, before, [422], "invalid JSON body");
              // Accepted by the schema: the service may still refuse (unknown ids, conflicts...).
              if (result.status >= 400)
                await expectRefused(op, result, before, [401, 403, 404, 409, 422, 429], "refused by the service");
          }
        }),
        { numRuns: RUNS },
      );
    });
  },
);

describe.each(WITH_IDS.map((op) => [`${op.method.toUpperCase()} ${op.path}`, op] as const))("%s with odd ids", (_label, op) => {
  it("answers 400 or 404 in the error shape, never a 5xx, and changes nothing", async () => {
    await fc.assert(
      fc.asyncProperty(oddIds, async (id) => {
        const target = targets.get(op.operationId)!;
        const params = Object.fromEntries(Object.keys(target.params).map((name) => [name, id]));
        const request: ApiCall = { params, headers: target.headers };
        if (op.body) request.body = BASE_BODIES[op.operationId];
        const before = await snapshotDatabase();
        const result = await callOperation(op, request);
        expectNoServerError(op, result, `id ${JSON.stringify(id.slice(0, 40))}`);
        await expectRefused(op, result, before, [400, 404], `id ${JSON.stringify(id.slice(0, 40))}`);
      }),
      { numRuns: ID_RUNS },
    );
  });
});

describe("mutating operations without a JSON body", () => {
  const garbage = fc.oneof(
    fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
    fc.string({ maxLength: 200 }),
    hugeString,
  );

  it("POST /api/stripe/webhook refuses unsigned or badly signed payloads (400), never a 5xx, changing nothing", async () => {
    const op = API_OPERATIONS.find((o) => o.operationId === "stripeWebhook")!;
    const signature = fc.option(
      fc.oneof(
        fc.string({ maxLength: 80 }),
        fc.nat().map((t) => `t=${t},v1=${"0".repeat(64)}`),
        fc.constantFrom("t=1,v1=", "v1=abc", "t=,v1=,v0="),
      ),
      { nil: undefined },
    );
    await fc.assert(
      fc.asyncProperty(garbage, signature, async (payload, sig) => {
        const before = await snapshotDatabase();
        const headers: Record<string, string> = { Origin: "" };
        if (sig !== undefined && sig !== "") headers["Stripe-Signature"] = sig.replace(/[\r\n]/g, "");
        const result = await callOperation(op, { rawBody: payload, headers });
        expectNoServerError(op, result, "webhook");
        await expectRefused(op, result, before, [400], "webhook");
      }),
      { numRuns: RUNS },
    );
  });

  const noBody = MUTATING.filter((op) => !op.body);
  it.each(noBody.map((op) => [`${op.method.toUpperCase()} ${op.path}`, op] as const))(
    "%s: a stray body or a foreign origin never gives a 5xx; a refusal changes nothing",
    async (_label, op) => {
      const target = () => targets.get(op.operationId)!;
      // Someone else's cart, or ids that name nothing: refused whatever the body.
      const unknownId = () => {
        if (op.path.startsWith("/api/cart/user/")) return crypto.randomUUID();
        // A well-formed admin session id (16 bytes, base64url) that names no session.
        if (op.path.startsWith("/api/admin/sessions/"))
          return Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64url");
        return "2147483646";
      };
      const refusedParams = () => Object.fromEntries(Object.keys(target().params).map((name) => [name, unknownId()]));
      await fc.assert(
        fc.asyncProperty(garbage, fc.boolean(), async (payload, foreign) => {
          const before = await snapshotDatabase();
          const headers: Record<string, string> = { ...target().headers, "Content-Type": "application/json" };
          if (foreign) headers.Origin = "https://evil.example";
          const result = await callOperation(op, { params: refusedParams(), rawBody: payload, headers });
          expectNoServerError(op, result, "stray body");
          if (foreign) return expectRefused(op, result, before, [403], "foreign origin");
          if (op.operationId === "adminLogout") {
            expect(result.status).toBe(200);
            expect((await snapshotDatabase()) === before).toBe(true);
            return;
          }
          await expectRefused(op, result, before, [403, 404], "unknown id");
        }),
        { numRuns: 15 },
      );
    },
  );
});
