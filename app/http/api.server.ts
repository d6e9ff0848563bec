import { CROSS_SITE_MESSAGE, isSameOriginRequest } from "./same-origin.server";
import type { TypedResponse } from "@remix-run/node";
import type { z } from "zod";
import type { ShopError } from "~/lib/shop-error";
import { toShopError } from "~/services/stripe-errors.server";
import { BUSY_CODE } from "~/lib/busy";
import { parseIdOrNull } from "~/lib/ids";
import { NO_STORE, NO_STORE_HEADERS } from "./cache-control";
import { BodyTooLargeError, readLimitedText } from "./request-body.server";
import { retryAfterHeaders } from "./retry-after";
import { log } from "~/log.server";

/**
 * The JSON API's one contract: errors are `{ error, issues: [{ path, message }] }`,
 * bodies must be JSON and small, ids are positive integers.
 */

export const MAX_BODY_BYTES = 64 * 1024;

type ApiIssue = { path: string; message: string };

/**
 * A JSON answer with its length: the server compresses only answers of 1 kB or more (a short
 * one gains nothing), and without a length it would compress them all.
 */
export function sizedJson<T>(data: T, init: ResponseInit = {}): TypedResponse<T> {
  const body = JSON.stringify(data);
  const headers = new Headers(init.headers);
  headers.set("Content-Type", "application/json; charset=utf-8");
  headers.set("Content-Length", String(Buffer.byteLength(body)));
  return new Response(body, { ...init, headers }) as TypedResponse<T>;
}

export function apiJson<T>(data: T, init: ResponseInit = {}) {
  const headers = new Headers(init.headers);
  if (!headers.has("Cache-Control")) headers.set("Cache-Control", NO_STORE);
  return sizedJson(data, { ...init, headers });
}

export function apiError(status: number, error: string, issues: ApiIssue[] = [], headers: HeadersInit = {}) {
  return sizedJson({ error, issues }, { status, headers: { ...NO_STORE_HEADERS, ...headers } });
}

export function noContent() {
  return new Response(null, { status: 204, headers: NO_STORE_HEADERS });
}

export function zodIssues(error: z.ZodError): ApiIssue[] {
  return error.issues.map((i) => ({ path: i.path.map(String).join("."), message: i.message }));
}

/** A positive integer id from a path segment, or a thrown 400. */
export function parseId(value: string | undefined, label = "Identifiant"): number {
  const id = parseIdOrNull(value);
  if (id === null) throw apiError(400, `${label} invalide`, [{ path: "id", message: "Un entier positif est attendu." }]);
  return id;
}

/** For page loaders and actions: the id of a URL segment, or a thrown plain 404 with the page's message. */
export function pageIdOr404(value: string | undefined, notFoundMessage: string): number {
  const id = parseIdOrNull(value);
  if (id === null) throw new Response(notFoundMessage, { status: 404 });
  return id;
}

/** A cart id (UUID, as the cart cookie holds it) from a path segment, or a thrown 400. */
export function parseCartId(value: string | undefined): string {
  if (!value || !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(value)) {
    throw apiError(400, "Identifiant de panier invalide", [
      { path: "id", message: "Un identifiant de panier (UUID) est attendu." },
    ]);
  }
  return value;
}

/** Checks that a mutation comes from our own pages (or a non-browser client): http/same-origin.server.ts. */
function isSameOrigin(request: Request): boolean {
  return isSameOriginRequest((name) => request.headers.get(name), new URL(request.url).host);
}

export function requireSameOriginApi(request: Request) {
  if (!isSameOrigin(request)) {
    throw apiError(403, CROSS_SITE_MESSAGE);
  }
}

/** For page actions: a plain 403 when a form is posted from another site. */
export function requireSameOriginForm(request: Request) {
  if (!isSameOrigin(request)) {
    throw new Response(CROSS_SITE_MESSAGE, { status: 403 });
  }
}

/** Reads a JSON body: 415 if not JSON, 413 if too large, 400 if malformed, 422 if invalid. */
export async function readJsonBody<S extends z.ZodType>(request: Request, schema: S): Promise<z.infer<S>> {
  requireSameOriginApi(request);
  const type = request.headers.get("Content-Type") ?? "";
  if (!/^application\/([a-z.+-]*\+)?json\b/i.test(type.trim())) {
    throw apiError(415, "Le corps de la requête doit être du JSON (Content-Type: application/json)");
  }
  let text: string;
  try {
    text = await readLimitedText(request, MAX_BODY_BYTES);
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw tooLarge();
    throw error;
  }
  let data: unknown;
  try {
    data = text.trim() === "" ? {} : JSON.parse(text);
  } catch {
    throw apiError(400, "JSON mal formé");
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    throw apiError(422, "Données invalides", zodIssues(parsed.error));
  }
  return parsed.data;
}

function tooLarge() {
  return apiError(413, `Corps de requête trop volumineux (${MAX_BODY_BYTES / 1024} ko maximum)`);
}

/** 405 for a method a resource route does not offer. */
export function methodNotAllowed(allowed: string[]) {
  return apiError(405, "Méthode non autorisée", [], { Allow: allowed.join(", ") });
}

/** The JSON answer to a refusal: `{ error, issues, code }`, the issue on the error's field if it has one, and its Retry-After. */
export function shopErrorResponse(error: ShopError) {
  return apiJson(
    { error: error.message, issues: error.apiIssues(), code: error.code },
    { status: error.status, headers: retryAfterHeaders(error) },
  );
}

/**
 * Runs an API handler: thrown Responses are returned as they are; a ShopError (and a
 * saturated database, a Stripe outage or idempotency clash, see toShopError) becomes its JSON
 * answer; anything else is logged and answered with a generic 500 JSON error (no stack trace).
 */
export async function handleApi(run: () => Promise<Response> | Response): Promise<Response> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof Response) return error;
    const refusal = toShopError(error);
    if (refusal?.code === BUSY_CODE) log.warn({ err: error }, "Base de données saturée : requête refusée (503)");
    if (refusal) return shopErrorResponse(refusal);
    log.error(error);
    return apiError(500, "Erreur interne du serveur");
  }
}
