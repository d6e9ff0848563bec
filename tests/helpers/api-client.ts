import path from "node:path";
import type { ApiOperation } from "~/openapi/document.server";

/**
 * Calls the route module that serves an operation of the OpenAPI document (its `file`),
 * with a real Request, as Remix would: GET goes to the loader, anything else to the action.
 */

export const ORIGIN = "http://localhost:3000";

export type ApiCall = {
  params?: Record<string, string>;
  query?: string;
  /** Sent as JSON (JSON.stringify). */
  body?: unknown;
  /** Sent as is (malformed JSON, Stripe's raw payload...). */
  rawBody?: string;
  headers?: Record<string, string>;
};

export type ApiResult = { status: number; headers: Headers; text: string; body: unknown };

type RouteModule = {
  loader?: (args: { request: Request; params: Record<string, string>; context: object }) => Promise<Response> | Response;
  action?: (args: { request: Request; params: Record<string, string>; context: object }) => Promise<Response> | Response;
};

const modules = new Map<string, Promise<RouteModule>>();

/** The route module of an operation, imported from the file the document names. */
export function routeModule(file: string): Promise<RouteModule> {
  let loaded = modules.get(file);
  if (!loaded) {
    loaded = import(/* @vite-ignore */ path.resolve(process.cwd(), file)) as Promise<RouteModule>;
    modules.set(file, loaded);
  }
  return loaded;
}

/** /api/orders/{id} with { id: "12" } -> /api/orders/12 (segments are URL-encoded). */
export function urlFor(op: Pick<ApiOperation, "path">, params: Record<string, string> = {}, query = "") {
  const filled = op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (!(name in params)) throw new Error(`missing path parameter ${name} for ${op.path}`);
    return encodeURIComponent(params[name]);
  });
  return `${filled}${query ? `?${query}` : ""}`;
}

export function buildRequest(op: Pick<ApiOperation, "method" | "path">, call: ApiCall = {}): Request {
  const method = op.method.toUpperCase();
  const hasBody = call.rawBody !== undefined || call.body !== undefined;
  const headers = new Headers({ Origin: ORIGIN });
  if (hasBody) headers.set("Content-Type", "application/json");
  for (const [name, value] of Object.entries(call.headers ?? {})) {
    if (value === "") headers.delete(name);
    else headers.set(name, value);
  }
  return new Request(`${ORIGIN}${urlFor(op, call.params, call.query)}`, {
    method,
    headers,
    body: hasBody ? (call.rawBody ?? JSON.stringify(call.body)) : undefined,
  });
}

export async function callOperation(op: Pick<ApiOperation, "method" | "path" | "file">, call: ApiCall = {}): Promise<ApiResult> {
  const mod = await routeModule(op.file);
  const handler = op.method === "get" ? mod.loader : mod.action;
  if (!handler) throw new Error(`${op.file} has no ${op.method === "get" ? "loader" : "action"}`);
  // Remix hands route modules the decoded segment.
  const params = Object.fromEntries(Object.entries(call.params ?? {}).map(([k, v]) => [k, v]));
  const response = await handler({ request: buildRequest(op, call), params, context: {} });
  const text = await response.text();
  let body: unknown = undefined;
  if (text !== "") {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  return { status: response.status, headers: response.headers, text, body };
}

/** The API's one error shape: { error: "<French message>", issues: [{ path, message }] }. */
export function isErrorShape(body: unknown): boolean {
  if (!body || typeof body !== "object" || Array.isArray(body)) return false;
  const { error, issues } = body as { error?: unknown; issues?: unknown };
  return (
    typeof error === "string" &&
    error.trim().length > 0 &&
    Array.isArray(issues) &&
    issues.every(
      (i) =>
        i &&
        typeof i === "object" &&
        typeof (i as { path?: unknown }).path === "string" &&
        typeof (i as { message?: unknown }).message === "string",
    )
  );
}

/** Keys and values that must never appear in a response: passwords and their hashes. */
export function secretLeaks(result: Pick<ApiResult, "text" | "body">): string[] {
  const leaks: string[] = [];
  if (/scrypt\$/.test(result.text)) leaks.push("scrypt hash in the body");
  const walk = (value: unknown, at: string) => {
    if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${at}[${i}]`));
    else if (value && typeof value === "object") {
      for (const [key, inner] of Object.entries(value)) {
        if (/password|hash/i.test(key)) leaks.push(`${at}.${key}`);
        walk(inner, `${at}.${key}`);
      }
    }
  };
  walk(result.body, "$");
  return leaks;
}
