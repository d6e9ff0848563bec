// @ts-check
import { randomUUID } from "node:crypto";

/**
 * Every request gets an id, sent back in `X-Request-Id` on every answer (a cached page too) and
 * written in each log line of that request: the shop's logger reads it from the request's
 * context (app/log.server.ts), in which the rest of the request runs.
 * Behind trusted proxies (TRUST_PROXY > 0) the proxy's `X-Request-Id` is kept when it is short
 * and plain (letters, digits, `.`, `_`, `:`, `-`, at most 64); otherwise, and always without
 * proxy, the id is a new UUID.
 *
 * When the answer is sent, its duration goes to the metrics (by route, method and status), and
 * with LOG_REQUESTS=1 one line is logged: `GET /product/1 200 12.3 ms`, with the same fields
 * apart. The logged path has no query string (tokens travel there) and long opaque segments
 * masked.
 *
 * @typedef {{
 *   requestContext: import("node:async_hooks").AsyncLocalStorage<{ id: string }>,
 *   log: import("pino").Logger,
 *   observeRequest(route: string, method: string, status: number, seconds: number): void,
 * }} Tracing
 */

const TRUSTED_ID = /^[A-Za-z0-9._:-]{1,64}$/;
const OPAQUE_SEGMENT = /\/[A-Za-z0-9_-]{20,}(?=\/|$)/g;

/**
 * @param {import("node:http").IncomingMessage} req
 * @param {number} trustProxy
 */
export function requestIdOf(req, trustProxy) {
  if (trustProxy > 0) {
    const given = req.headers["x-request-id"];
    if (typeof given === "string" && TRUSTED_ID.test(given)) return given;
  }
  return randomUUID();
}

/**
 * @param {Tracing} tracing
 * @param {{ trustProxy: number, logRequests: boolean, routeOf(path: string): string }} options
 * @param {import("node:http").RequestListener} listener
 * @returns {import("node:http").RequestListener}
 */
export function withRequestTrace(tracing, { trustProxy, logRequests, routeOf }, listener) {
  return (req, res) => {
    const start = process.hrtime.bigint();
    const id = requestIdOf(req, trustProxy);
    res.setHeader("X-Request-Id", id);
    res.once("finish", () => {
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      const url = req.url ?? "/";
      const mark = url.indexOf("?");
      const path = mark === -1 ? url : url.slice(0, mark);
      const route = routeOf(path);
      const method = req.method ?? "GET";
      tracing.observeRequest(route, method, res.statusCode, seconds);
      if (logRequests) {
        const ms = seconds * 1000;
        tracing.log.info(
          { reqId: id, method, route, status: res.statusCode, durationMs: Math.round(ms * 10) / 10 },
          `${method} ${path.replace(OPAQUE_SEGMENT, "/…")} ${res.statusCode} ${ms.toFixed(1)} ms`,
        );
      }
    });
    tracing.requestContext.run({ id }, () => listener(req, res));
  };
}
