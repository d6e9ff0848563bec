// @ts-check
import http from "node:http";
import path from "node:path";
import zlib from "node:zlib";
import { createRequestHandler } from "@remix-run/express";
import { createRequestHandler as createRemixHandler } from "@remix-run/node";
import compression from "compression";
import express from "express";
import { writableWaiter } from "./backpressure.js";
import { withOperations } from "./operations.js";
import { createPageCache } from "./page-cache.js";
import { withRequestTrace } from "./request-trace.js";
import { createRouteLabeler } from "./route-label.js";
import { crossSitePostRefusal } from "./same-origin.js";

/**
 * The shop's HTTP server: the page cache and an Express app around Remix's request handler,
 * and the listening server with its graceful close. server/index.js puts them together, in
 * each worker process.
 *
 * @typedef {import("@remix-run/node").ServerBuild} ServerBuild
 * @typedef {import("./request-trace.js").Tracing & {
 *   countPageCache(outcome: "HIT" | "STALE" | "MISS" | "BYPASS"): void,
 *   readiness(): Promise<{ ready: true } | { ready: false, reason: string }>,
 *   processMetrics(): Promise<{ contentType: string, text: string }>,
 *   operationsSettings(): { trustProxy: number, metricsToken: string | undefined },
 * }} ObservedEntry what app/entry.server.tsx exports for the logs, the metrics and the health checks
 */

/** The live answers' compression (the `compression` middleware's options). */
export const LIVE_COMPRESSION = {
  brotli: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 3 } },
  level: 4,
};

/**
 * The request listener. The public pages of every visitor but an admin or one with a toast come from the page cache
 * (server/page-cache.js) when the build gives their version and the public address
 * (`readPageCacheState` and `publicOrigin`, exported by app/entry.server.tsx), unless
 * `pageCache` is false; everything else goes to the Express app: fingerprinted build assets
 * cached for a year, the other public files for a week, the rest answered by Remix. Before
 * all that, a post from another site is refused with a 403 (server/same-origin.js). First of
 * all, every request gets its id and is measured (server/request-trace.js), and /healthz,
 * /readyz and /metrics are answered (server/operations.js). No access log unless `logRequests`.
 *
 * @param {ServerBuild} shopBuild the Remix server build (build/server/index.js)
 * @param {{
 *   logRequests?: boolean,
 *   mode?: string,
 *   pageCache?: boolean,
 *   stopping?: () => boolean, // true once the process is told to stop: /readyz answers 503
 *   metrics?: () => Promise<{ contentType: string, text: string }>, // by default this process's
 * }} [options]
 */
export function createApp(shopBuild, options = {}) {
  // A saturated database answers 503 with Retry-After on every route (app/http/busy-answers.server.ts).
  const busy = /** @type {{ withBusyAnswers?: (build: ServerBuild) => ServerBuild }} */ (shopBuild.entry.module);
  const build = busy.withBusyAnswers ? busy.withBusyAnswers(shopBuild) : shopBuild;
  const app = express();
  app.disable("x-powered-by");
  const mode = options.mode ?? process.env.NODE_ENV;
  // Live answers are compressed as they are rendered, at the levels past which one more kilobyte
  // saved on a page costs more than about 0.3 ms of processor (measured on the shop's own pages,
  // docs/architecture.md): brotli quality 3 (the library's default, 4, takes 1.7× the time for
  // 4 % fewer bytes), gzip level 4 for browsers without brotli. Cached pages keep their own,
  // compressed once at the highest levels (server/page-cache.js).
  app.use(compression(LIVE_COMPRESSION));
  // The browser's build (build/client/assets/*): file names carry a content hash.
  app.use(
    `${build.publicPath}assets`,
    express.static(path.join(build.assetsBuildDirectory, "assets"), { immutable: true, maxAge: "1y" }),
  );
  // public/ holds files only (favicon.svg, images/…): a path without an extension is a page or
  // an API call, answered without looking on disk first.
  const publicFiles = express.static("public", { maxAge: "7d" });
  app.use((req, res, next) => (path.extname(req.path) ? publicFiles(req, res, next) : next()));
  // The TCP peer: the key of the per-address rate limits (app/http/client-address.server.ts);
  // and, for a long streamed answer, a wait while the client is behind (server/backpressure.js).
  /** @param {import("express").Request} req @param {import("express").Response} res */
  const getLoadContext = (req, res) => ({ clientAddress: req.socket.remoteAddress, untilWritable: writableWaiter(res) });
  app.all("*", createRequestHandler({ build, mode, getLoadContext }));

  /** @type {http.RequestListener} */
  let listener = app;
  const entry =
    /** @type {{ readPageCacheState?: () => Promise<import("./page-cache.js").PageCacheState>, publicOrigin?: () => string }} */ (
      build.entry.module
    );
  const observed = /** @type {ObservedEntry} */ (/** @type {unknown} */ (build.entry.module));
  if (options.pageCache !== false && entry.readPageCacheState && entry.publicOrigin) {
    // Ahead of Express: a cached page is already compressed, no public page is a file of
    // public/, and a cached answer then costs little more than its bytes.
    const render = createRemixHandler(build, mode);
    const pageCache = createPageCache({
      render,
      readState: entry.readPageCacheState,
      buildVersion: build.assets.version,
      publicOrigin: entry.publicOrigin(),
      onAnswer: observed.countPageCache,
      onError: (error) => observed.log.error(error),
    });
    listener = (req, res) => {
      void pageCache(req, res, (error) => {
        // The cache failing (its version unreadable): the page is rendered live.
        if (error) observed.log.error(error);
        app(req, res);
      });
    };
  }
  // First of all: a post from another site gets its 403 here, before Remix's own check (a 500).
  const rule = /** @type {import("./same-origin.js").SameOriginRule} */ (/** @type {unknown} */ (build.entry.module));
  const refuseCrossSitePosts = crossSitePostRefusal(rule);
  const served = listener;
  listener = (req, res) => refuseCrossSitePosts(req, res, () => served(req, res));

  const { trustProxy, metricsToken } = observed.operationsSettings();
  listener = withOperations(
    {
      readiness: observed.readiness,
      metrics: options.metrics ?? observed.processMetrics,
      metricsToken,
      stopping: options.stopping ?? (() => false),
      onError: (error) => observed.log.error(error),
    },
    listener,
  );
  return withRequestTrace(
    observed,
    { trustProxy, logRequests: options.logRequests === true, routeOf: createRouteLabeler(build) },
    listener,
  );
}

/**
 * Listens on host:port. The returned `close` stops taking connections, lets the requests in
 * flight finish, and after `deadlineMs` closes whatever connection is still open.
 *
 * @param {http.RequestListener} listener
 * @param {{ host: string, port: number }} address
 */
export async function listen(listener, { host, port }) {
  const server = http.createServer();
  let closing = false;
  // Registered before the app: during a shutdown, answers say the connection ends.
  server.on("request", (_req, res) => {
    if (closing && !res.headersSent) res.setHeader("Connection", "close");
  });
  server.on("request", listener);

  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve(undefined);
    });
  });

  /**
   * @param {{ deadlineMs?: number }} [options]
   * @returns {Promise<{ forced: boolean }>} forced: some connections were cut at the deadline
   */
  function close({ deadlineMs = 10_000 } = {}) {
    closing = true;
    return new Promise((resolve) => {
      let forced = false;
      // A keep-alive connection becomes idle once its last answer is sent: close it then.
      const sweep = setInterval(() => server.closeIdleConnections(), 100);
      const deadline = setTimeout(() => {
        forced = true;
        server.closeAllConnections();
      }, deadlineMs);
      server.close(() => {
        clearInterval(sweep);
        clearTimeout(deadline);
        resolve({ forced });
      });
      server.closeIdleConnections();
    });
  }

  const bound = server.address();
  return { server, port: bound && typeof bound === "object" ? bound.port : port, close };
}
