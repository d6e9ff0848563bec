import { toResponse } from "../helpers/route-response";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type * as configModule from "~/config.server";
import { API_OPERATIONS, getOpenApiDocument } from "~/openapi/operations.server";
import { documentedErrors, type ApiOperation } from "~/openapi/document.server";
import type { StripeEmulatorHandle } from "~/services/stripe.server";
import { snapshotDatabase } from "../helpers/api-db";
import { callOperation, isErrorShape, secretLeaks, type ApiCall, type ApiResult } from "../helpers/api-client";
import { VALID_REQUESTS, withoutAdmin } from "../helpers/api-fixtures";
import { startTestEmulator, stopTestEmulator } from "./payments-fixtures";

/**
 * The contract: GET /api/openapi.json is valid OpenAPI 3.1, covers every app/routes/api.* file,
 * and each operation answers what it documents: its success status and shape for a valid
 * request, its documented errors (401 without the admin session, 404 for demo tools in live
 * mode, 403 for someone else's cart), the one error shape, and never any password data.
 */

// Demo-only tools are switched off in live mode: let a test flip the mode the routes see.
const mode = vi.hoisted(() => ({ live: false }));
vi.mock("~/config.server", async (importOriginal) => {
  const actual = await importOriginal<typeof configModule>();
  return {
    ...actual,
    getConfig: () => {
      const config = actual.getConfig();
      return mode.live ? { ...config, mode: "live" as const } : config;
    },
  };
});

type Doc = ReturnType<typeof getOpenApiDocument>;
type OperationObject = {
  operationId: string;
  "x-auth": string;
  responses: Record<string, { content?: { "application/json"?: { schema: Record<string, unknown> } } }>;
};

const doc: Doc = getOpenApiDocument();
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(doc.components.schemas.ApiError, "#/components/schemas/ApiError");

let emulator: StripeEmulatorHandle;
beforeAll(async () => {
  emulator = await startTestEmulator();
});
afterAll(async () => {
  await stopTestEmulator();
});

function documented(op: ApiOperation): OperationObject {
  const found = (doc.paths as Record<string, Record<string, OperationObject>>)[op.path]?.[op.method];
  if (!found) throw new Error(`${op.method} ${op.path} missing from the document`);
  return found;
}

/** The response schema the document gives for this status (errors resolve to ApiError). */
function responseSchema(op: ApiOperation, status: number) {
  const response = documented(op).responses[String(status)];
  if (!response) return undefined;
  const schema = response.content?.["application/json"]?.schema;
  if (!schema) return null;
  return "$ref" in schema ? doc.components.schemas.ApiError : schema;
}

function expectMatches(schema: Record<string, unknown>, body: unknown, label: string) {
  const validate = ajv.compile(schema);
  if (!validate(body)) {
    throw new Error(
      `${label}: the response does not match the document: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 600)}`,
    );
  }
}

/** Every answer is checked: no password data, and a 4xx is the documented error shape. */
async function call(op: ApiOperation, request: ApiCall): Promise<ApiResult> {
  const result = await callOperation(op, request);
  // The document itself describes request bodies with a password field: it holds no data.
  if (op.operationId !== "getOpenApiDocument") expect(secretLeaks(result), `${op.method} ${op.path}`).toEqual([]);
  expect(result.status, `${op.method} ${op.path}: ${result.text.slice(0, 300)}`).toBeLessThan(500);
  if (result.status >= 400) {
    expect(isErrorShape(result.body), `${op.method} ${op.path} error shape: ${result.text.slice(0, 300)}`).toBe(true);
    const schema = responseSchema(op, result.status);
    expect(schema, `${op.method} ${op.path} answered ${result.status}, which is not documented`).toBeTruthy();
    expectMatches(schema!, result.body, `${op.method} ${op.path} ${result.status}`);
  }
  return result;
}

/** app/routes/api.orders.$id.items.ts -> /api/orders/{id}/items; api.openapi[.]json.ts -> /api/openapi.json */
function pathOfRouteFile(file: string) {
  const name = path.basename(file).replace(/\.tsx?$/, "");
  return (
    "/" +
    name
      .replace(/\[\.\]/g, "\u0000")
      .split(".")
      .map((segment) => (segment.startsWith("$") ? `{${segment.slice(1)}}` : segment))
      .join("/")
      .replaceAll("\u0000", ".")
  );
}

describe("the OpenAPI document", () => {
  it("validates as OpenAPI 3.1", async () => {
    const validator = new Validator();
    const result = await validator.validate(doc as unknown as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("covers every route file under app/routes/api.*, at the URL the file serves", () => {
    const files = readdirSync(path.resolve("app/routes"))
      .filter((f) => f.startsWith("api."))
      .map((f) => `app/routes/${f}`);
    expect(files.length).toBeGreaterThan(20);
    const documentedFiles = new Set(API_OPERATIONS.map((op) => op.file));
    expect(files.filter((f) => !documentedFiles.has(f))).toEqual([]);
    for (const op of API_OPERATIONS) {
      expect(existsSync(path.resolve(op.file)), op.file).toBe(true);
      expect(op.path, op.file).toBe(pathOfRouteFile(op.file));
      expect(documented(op).operationId, op.file).toBe(op.operationId);
    }
  });

  it("lists each operation once, with a unique operationId, and documents only meaningful statuses", () => {
    const keys = API_OPERATIONS.map((op) => `${op.method} ${op.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    const ids = API_OPERATIONS.map((op) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const meaningful = new Set([200, 201, 204, 400, 401, 403, 404, 409, 413, 415, 422, 429, 502, 503]);
    for (const op of API_OPERATIONS) {
      for (const status of Object.keys(documented(op).responses))
        expect(meaningful.has(Number(status)), `${op.operationId} ${status}`).toBe(true);
      if (op.method === "post" && op.success.status === 201) {
        expect(JSON.stringify(responseSchema(op, 201))).toContain('"id"');
      }
      if (op.success.status === 204) expect(documented(op).responses["204"].content).toBeUndefined();
      // A saturated database answers 503 `busy` to any request, a read as a write (db/busy.server.ts).
      expect(documentedErrors(op)[503], op.operationId).toContain("`code` busy");
    }
  });

  it("documents no password or hash in any response", () => {
    for (const op of API_OPERATIONS) {
      for (const [status, response] of Object.entries(documented(op).responses)) {
        const text = JSON.stringify(response);
        expect(/"(password\w*|\w*[Hh]ash\w*)"\s*:/.test(text), `${op.operationId} ${status}`).toBe(false);
      }
    }
  });

  it("is served by GET /api/openapi.json, public and cacheable", async () => {
    const op = API_OPERATIONS.find((o) => o.operationId === "getOpenApiDocument")!;
    const result = await call(op, {});
    expect(result.status).toBe(200);
    expect(result.headers.get("Content-Type")).toMatch(/application\/json/);
    expect(result.headers.get("Cache-Control")).toMatch(/public/);
    expect(result.body).toEqual(JSON.parse(JSON.stringify(doc)));
    // Nothing about the server's files: the route files are known to the operation list, not to clients.
    expect(result.text).not.toContain("x-route-file");
    expect(result.text).not.toContain("app/routes");
    expect(result.text).not.toContain(process.cwd());
  });

  it("is rendered by /docs/api: every operation, grouped by tag, with its access, body fields and responses", async () => {
    const { loader } = await import("~/routes/docs.api");
    const response = toResponse(
      await loader({ request: new Request("http://localhost:3000/docs/api"), params: {}, context: {} }),
    );
    expect(response.headers.get("Cache-Control")).toMatch(/public/);
    const page = (await response.json()) as {
      count: number;
      groups: {
        tag: string;
        operations: {
          id: string;
          method: string;
          path: string;
          authLabel: string;
          body: { name: string }[] | null;
          responses: { status: string }[];
        }[];
      }[];
    };
    const shown = page.groups.flatMap((g) => g.operations.map((o) => ({ ...o, tag: g.tag })));
    expect(page.count).toBe(API_OPERATIONS.length);
    for (const op of API_OPERATIONS) {
      const entry = shown.find((o) => o.id === op.operationId);
      expect(entry, op.operationId).toMatchObject({ method: op.method.toUpperCase(), path: op.path, tag: op.tag });
      expect(entry!.authLabel).toBeTruthy();
      expect(entry!.responses.map((r) => r.status)).toEqual(Object.keys(documented(op).responses));
      if (op.body && op.bodyMode !== "stripe-signed") expect(entry!.body!.length, op.operationId).toBeGreaterThan(0);
    }
    const order = shown.find((o) => o.id === "createOrder")!;
    expect(order.body!.map((f) => f.name)).toEqual(
      expect.arrayContaining(["customerEmail", "items[].productId", "items[].packId"]),
    );
  });

  it("documents the order token, the refused amounts, the ignored status and the privacy of an order number", () => {
    const byId = (id: string) => API_OPERATIONS.find((o) => o.operationId === id)!;
    const createOrder = documented(byId("createOrder")) as OperationObject & { description: string };
    expect(createOrder.description).toMatch(/jeton `token`/);
    expect(createOrder.description).toMatch(/Prix attendu : 25\.90/);
    expect(createOrder.description).toMatch(/`status` n'est jamais suivi/);
    expect(JSON.stringify(responseSchema(byId("createOrder"), 201))).toContain('"token"');
    expect(JSON.stringify(createOrder.responses["422"])).toMatch(/montants attendus/);
    const getOrder = documented(byId("getOrder")) as OperationObject & { description: string };
    expect(getOrder.description).toMatch(/nom, la rue et l'email seulement/);
    expect(JSON.stringify(responseSchema(byId("getOrder"), 200))).toContain('"access"');
    const updateOrder = documented(byId("updateOrder")) as OperationObject & { description: string; security: unknown };
    expect(updateOrder["x-auth"]).toBe("order-token");
    expect(updateOrder.security).toEqual([{ orderToken: [] }, { adminSession: [] }]);
    expect(updateOrder.description).toMatch(/rien ici ne marque une commande payée/);
    for (const id of ["startPayment", "createSubscription", "attachPaymentMethod"]) {
      expect(documented(byId(id))["x-auth"], id).toBe("order-owner");
    }
    expect(doc.components.securitySchemes.orderToken).toMatchObject({ type: "apiKey", in: "header", name: "X-Order-Token" });
    expect(doc.info.description).toMatch(/Confidentialité/);
  });

  it("answers a token holder's PUT /api/orders/{id} and GET with the owner's documented view", async () => {
    const put = API_OPERATIONS.find((o) => o.operationId === "updateOrder")!;
    const get = API_OPERATIONS.find((o) => o.operationId === "getOrder")!;
    const create = API_OPERATIONS.find((o) => o.operationId === "createOrder")!;
    const created = (await call(create, await VALID_REQUESTS.createOrder({ emulator }))).body as { id: number; token: string };
    const headers = { "X-Order-Token": created.token };
    const updated = await call(put, {
      params: { id: String(created.id) },
      body: { customerEmail: "contrat.jeton@example.fr", customerName: "Camille Jeton", status: "confirmed" },
      headers,
    });
    expect(updated.status).toBe(200);
    expectMatches(responseSchema(put, 200)!, updated.body, "updateOrder by token");
    expect(updated.body).toMatchObject({ access: "owner", customerEmail: "contrat.jeton@example.fr", paymentStatus: "unpaid" });
    const read = await call(get, { params: { id: String(created.id) }, headers });
    expectMatches(responseSchema(get, 200)!, read.body, "getOrder by token");
    expect(read.body).toMatchObject({ access: "owner", customerName: "Camille Jeton" });
    const anonymous = await call(get, { params: { id: String(created.id) } });
    expect(anonymous.body).toMatchObject({ access: "public", customerName: null, customerEmail: null, shippingAddress: null });
    const wrong = await call(put, {
      params: { id: String(created.id) },
      body: { customerName: "Intrus" },
      headers: { "X-Order-Token": "d".repeat(43) },
    });
    expect(wrong.status).toBe(404);
  });

  it("has a valid request fixture for every operation (and no stale one)", () => {
    expect(Object.keys(VALID_REQUESTS).sort()).toEqual(API_OPERATIONS.map((op) => op.operationId).sort());
  });
});

describe.each(API_OPERATIONS.map((op) => [`${op.method.toUpperCase()} ${op.path}`, op] as const))("%s", (_label, op) => {
  it(`answers the documented ${op.success.status} and shape for a valid request`, async () => {
    const request = await VALID_REQUESTS[op.operationId]({ emulator });
    const result = await call(op, request);
    expect(result.status, result.text.slice(0, 500)).toBe(op.success.status);
    if (op.success.status === 204) {
      expect(result.text).toBe("");
      return;
    }
    expect(result.headers.get("Content-Type")).toMatch(/^application\/json/);
    expectMatches(responseSchema(op, op.success.status)!, result.body, `${op.operationId} ${op.success.status}`);
    // The zod response schema agrees with its JSON Schema rendering.
    const parsed = op.success.schema!.safeParse(result.body);
    expect(parsed.success, parsed.success ? "" : JSON.stringify(parsed.error.issues).slice(0, 500)).toBe(true);
    for (const [header] of Object.entries(op.success.headers ?? {})) {
      expect(result.headers.get(header), `${op.operationId} header ${header}`).toBeTruthy();
    }
    if (op.success.status === 201)
      expect((result.body as { id?: unknown }).id ?? (result.body as { cartId?: unknown }).cartId).toBeTruthy();
  });

  if (op.auth === "admin") {
    it("answers the documented 401 without an admin session, and changes nothing", async () => {
      const request = withoutAdmin(await VALID_REQUESTS[op.operationId]({ emulator }));
      const before = await snapshotDatabase();
      const result = await call(op, request);
      expect(result.status).toBe(401);
      expect(await snapshotDatabase()).toBe(before);
      expect(documentedErrors(op)[401]).toBeTruthy();
    });
  }

  if (op.auth === "order-token") {
    it("answers the documented 401 without the order token or an admin session, and changes nothing", async () => {
      const request = withoutAdmin(await VALID_REQUESTS[op.operationId]({ emulator }));
      const before = await snapshotDatabase();
      const result = await call(op, request);
      expect(result.status).toBe(401);
      expect(await snapshotDatabase()).toBe(before);
      expect(documentedErrors(op)[401]).toBeTruthy();
    });
  }

  if (op.auth === "demo") {
    it("answers the documented 404 in live mode", async () => {
      mode.live = true;
      try {
        const result = await call(op, await VALID_REQUESTS[op.operationId]({ emulator }));
        expect(result.status).toBe(404);
      } finally {
        mode.live = false;
      }
    });
  }

  if (op.auth === "own-cart" && op.pathParams?.length) {
    it("refuses a request without the visitor's cart cookie with a documented error", async () => {
      const request = await VALID_REQUESTS[op.operationId]({ emulator });
      const result = await call(op, { ...request, headers: {} });
      expect([403, 404]).toContain(result.status);
      expect(documentedErrors(op)[result.status]).toBeTruthy();
    });
  }

  if (op.body && op.bodyMode !== "stripe-signed") {
    it("answers the documented 415, 400, 413 and 422", async () => {
      const base = await VALID_REQUESTS[op.operationId]({ emulator });
      const form = await call(op, {
        ...base,
        body: undefined,
        rawBody: "a=1",
        headers: { ...base.headers, "Content-Type": "application/x-www-form-urlencoded" },
      });
      expect(form.status).toBe(415);
      const malformed = await call(op, { ...base, body: undefined, rawBody: '{"a":' });
      expect(malformed.status).toBe(400);
      const huge = await call(op, { ...base, body: { filler: "x".repeat(70 * 1024) } });
      expect(huge.status).toBe(413);
      const invalid = await call(op, { ...base, body: [] });
      expect(invalid.status).toBe(422);
    });
  }

  if (op.bodyMode === "stripe-signed") {
    it("answers the documented 400 for a missing or bad signature", async () => {
      const base = await VALID_REQUESTS[op.operationId]({ emulator });
      expect((await call(op, { ...base, headers: { Origin: "" } })).status).toBe(400);
      expect((await call(op, { ...base, headers: { Origin: "", "Stripe-Signature": "t=1,v1=00" } })).status).toBe(400);
    });
  }
});
