// @ts-check
import { timingSafeEqual } from "node:crypto";

/**
 * The endpoints of whoever runs the shop, answered before the page cache, the cross-site check
 * and Remix (no session, no rate limit, no cache):
 *
 * - GET /healthz: 200 as long as the process serves; touches no database.
 * - GET /readyz: 200 when the database answers within a second with every migration applied,
 *   else 503 with a short reason in JSON; 503 at once from the moment the process is told to
 *   stop (SIGTERM), so that a load balancer sends nothing more before it closes.
 * - GET /metrics: Prometheus's text, for `Authorization: Bearer <METRICS_TOKEN>` (401 without
 *   it); without METRICS_TOKEN the endpoint does not exist (Remix's 404 page).
 *
 * Neither tells a version, a path or a setting. Every answer is `Cache-Control: no-store`.
 *
 * @typedef {{
 *   readiness(): Promise<{ ready: true } | { ready: false, reason: string }>,
 *   metrics(): Promise<{ contentType: string, text: string }>,
 *   metricsToken: string | undefined,
 *   stopping(): boolean,
 *   onError(error: unknown): void,
 * }} Operations
 */

const PATHS = new Set(["/healthz", "/readyz", "/metrics"]);

/**
 * @param {import("node:http").ServerResponse} res
 * @param {number} status
 * @param {unknown} body
 * @param {Record<string, string>} [headers]
 */
function json(res, status, body, headers = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(text),
    "Cache-Control": "no-store",
    ...headers,
  });
  res.end(text);
}

/** @param {string | undefined} header @param {string} token */
function bearerMatches(header, token) {
  const given = Buffer.from(header?.startsWith("Bearer ") ? header.slice(7).trim() : "");
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * A request listener that answers the three paths and hands any other request to `next`.
 *
 * @param {Operations} operations
 * @param {import("node:http").RequestListener} next
 * @returns {import("node:http").RequestListener}
 */
export function withOperations(operations, next) {
  return (req, res) => {
    const url = req.url ?? "/";
    const mark = url.indexOf("?");
    const path = mark === -1 ? url : url.slice(0, mark);
    if (!PATHS.has(path) || (req.method !== "GET" && req.method !== "HEAD")) return next(req, res);
    if (path === "/metrics" && !operations.metricsToken) return next(req, res);
    void answer(operations, path, req, res).catch((error) => {
      operations.onError(error);
      if (!res.headersSent) json(res, 500, { error: "Réponse impossible pour le moment." });
      else res.destroy();
    });
  };
}

/**
 * @param {Operations} operations
 * @param {string} path
 * @param {import("node:http").IncomingMessage} req
 * @param {import("node:http").ServerResponse} res
 */
async function answer(operations, path, req, res) {
  if (path === "/healthz") return json(res, 200, { status: "ok" });
  if (path === "/readyz") {
    if (operations.stopping()) return json(res, 503, { status: "indisponible", raison: "La boutique s'arrête." });
    const state = await operations.readiness();
    if (operations.stopping()) return json(res, 503, { status: "indisponible", raison: "La boutique s'arrête." });
    return state.ready ? json(res, 200, { status: "prête" }) : json(res, 503, { status: "indisponible", raison: state.reason });
  }
  if (!bearerMatches(req.headers.authorization, /** @type {string} */ (operations.metricsToken))) {
    return json(
      res,
      401,
      { error: "Jeton d'accès aux métriques manquant ou invalide (en-tête Authorization: Bearer …)." },
      { "WWW-Authenticate": 'Bearer realm="metrics"' },
    );
  }
  const { contentType, text } = await operations.metrics();
  res.writeHead(200, { "Content-Type": contentType, "Content-Length": Buffer.byteLength(text), "Cache-Control": "no-store" });
  res.end(text);
}
