// @ts-check
import cluster from "node:cluster";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { installGlobals } from "@remix-run/node";
import { createApp, listen } from "./app.js";

/**
 * Production entry: `node server/index.js [build/server/index.js]` (npm run serve).
 *
 * One process per core by default (WEB_CONCURRENCY; 1: a single process). Every process uses
 * the same SQLite file, which holds all that outlives a request (sessions are cookies; carts,
 * orders, rate limits, idempotency keys, the payment start locks and the outbox are rows).
 *
 * Single process:
 * 1. loads the Remix build and starts the shop (configuration check, database, and in demo
 *    mode the Stripe emulator) before taking any request; a bad configuration stops here with
 *    one French message and exit code 1;
 * 2. listens on HOST (default 0.0.0.0) and PORT;
 * 3. on SIGTERM or SIGINT (even during step 1: the start ends first): stops taking connections, finishes the requests in flight (at most
 *    SHUTDOWN_DEADLINE_MS), stops the emulator, closes the database and exits 0.
 *
 * Several processes (node:cluster): the primary checks the configuration, applies the
 * migrations once and, in demo mode, runs the one Stripe emulator, then starts the workers,
 * which all listen on PORT. The first worker starts alone, so that a start-up failure (a port
 * already in use) is told once; the others follow. A worker that dies is replaced after a
 * growing delay. On SIGTERM or SIGINT the primary asks every worker to stop (each finishes its
 * requests as above), then stops the emulator and exits 0. The email sender and the
 * subscriptions' scheduler run in every worker, but only the holder of their lease works.
 */

const SHUTDOWN_DEADLINE_MS = 10_000;
/** A worker replaced after dying waits this long, doubled at each death in a row, up to RESTART_MAX_MS. */
const RESTART_FIRST_MS = 500;
const RESTART_MAX_MS = 30_000;
/** A worker that lived this long was healthy: the delay starts over. */
const HEALTHY_AFTER_MS = 60_000;

/**
 * What app/entry.server.tsx exports besides Remix's own handlers.
 * @typedef {{
 *   shopProcessCount(): number,
 *   startPrimary(): Promise<{ mode: "demo" | "live", port: number, processes: number }>,
 *   stopPrimary(): Promise<void>,
 *   startShop(): Promise<{ mode: "demo" | "live", port: number }>,
 *   stopShop(): Promise<void>,
 *   log: import("pino").Logger,
 *   operationsSettings(): { trustProxy: number, metricsToken: string | undefined, shutdownDrainMs: number },
 *   startMetricsAggregation(): void,
 *   clusterMetrics(): Promise<{ contentType: string, text: string }>,
 * }} ShopLifecycle
 */

/**
 * @param {unknown} error
 * @returns {never}
 */
function startFailure(error) {
  // Configuration problems carry a message for the person starting the shop: no stack trace.
  if (error instanceof Error && error.name === "ConfigError") console.error(error.message);
  else console.error(error);
  process.exit(1);
}

/** @param {"demo" | "live"} mode @param {string} host @param {number} port */
function startLine(mode, host, port, processes = 1) {
  return `Boutique en mode ${mode === "demo" ? "démo" : "production"} : http://${host}:${port} (${processes} processus)`;
}

/**
 * Starts the shop in this process and serves it: the single process, or one worker.
 * @param {import("@remix-run/node").ServerBuild} build
 * @param {ShopLifecycle} shop
 */
async function serve(build, shop) {
  const worker = cluster.isWorker;
  /** @type {Awaited<ReturnType<typeof listen>> | undefined} */
  let server;
  /** @type {ReturnType<ShopLifecycle["startShop"]> | undefined} */
  let starting;
  let stopping = false;
  /** @param {NodeJS.Signals} signal */
  async function shutdown(signal) {
    if (stopping) return;
    // From now on /readyz answers 503 (server/operations.js).
    stopping = true;
    if (!worker) shop.log.info(`${signal} : arrêt de la boutique…`);
    const drainMs = server ? drainDelay(shop) : 0;
    // Whatever happens, the process does not outlive the deadline by much.
    setTimeout(
      () => {
        shop.log.error("Arrêt forcé : la fermeture a dépassé le délai.");
        process.exit(1);
      },
      drainMs + SHUTDOWN_DEADLINE_MS + 5_000,
    ).unref();
    try {
      // A load balancer asking /readyz sees the 503 and stops sending requests; those that still come are served.
      if (drainMs > 0) await new Promise((resolve) => setTimeout(resolve, drainMs));
      if (server) await server.close({ deadlineMs: SHUTDOWN_DEADLINE_MS });
      // A signal during the start: the start ends first (database opened, emulator listening), then all stops.
      await starting?.catch(() => undefined);
      await shop.stopShop();
      process.exit(0);
    } catch (error) {
      shop.log.error(error);
      process.exit(1);
    }
  }
  // The handlers before anything starts: a SIGTERM during the start stops the shop as cleanly as after it.
  process.on("SIGTERM", shutdown);
  process.on("SIGINT", shutdown);

  starting = shop.startShop();
  const { mode, port } = await starting.catch(startFailure);
  if (stopping) return;
  const host = process.env.HOST || "0.0.0.0";
  const app = createApp(build, {
    logRequests: process.env.LOG_REQUESTS === "1",
    stopping: () => stopping,
    // A worker's /metrics are those of every worker, aggregated by the primary.
    metrics: worker ? askPrimaryForMetrics : undefined,
  });
  // For the server tests only: which process answered.
  const exposeWorker = process.env.SHOP_EXPOSE_WORKER === "1";
  /** @type {import("node:http").RequestListener} */
  const listener = exposeWorker
    ? (req, res) => {
        res.setHeader("X-Worker", String(process.pid));
        app(req, res);
      }
    : app;
  server = await listen(listener, { host, port }).catch(async (error) => {
    await shop.stopShop().catch(() => undefined);
    if (error?.code !== "EADDRINUSE") return startFailure(error);
    const taken = new Error(`Le port ${port} de la boutique est déjà utilisé (${host}). Choisissez un autre PORT.`);
    return startFailure(Object.assign(taken, { name: "ConfigError" }));
  });
  // Stopped while it began to listen: the shutdown under way closes the shop; the server closes with the process.
  if (stopping) return;
  // A worker's start is told by the primary, once for all. A plain line, for the person starting the shop.
  if (!worker) console.log(startLine(mode, host, server.port));
}

/** SHUTDOWN_DRAIN_MS, once the configuration is known. @param {ShopLifecycle} shop */
function drainDelay(shop) {
  try {
    return shop.operationsSettings().shutdownDrainMs;
  } catch {
    return 0;
  }
}

let metricsAsked = 0;
/**
 * In a worker: the metrics of all workers, from the primary (which asks each of them through
 * prom-client's cluster support).
 * @returns {Promise<{ contentType: string, text: string }>}
 */
function askPrimaryForMetrics() {
  const id = ++metricsAsked;
  return new Promise((resolve, reject) => {
    /** @param {any} message */
    const onMessage = (message) => {
      if (message?.shop !== "metrics" || message.id !== id) return;
      clearTimeout(timer);
      process.off("message", onMessage);
      if (message.error) reject(new Error(message.error));
      else resolve({ contentType: message.contentType, text: message.text });
    };
    const timer = setTimeout(() => {
      process.off("message", onMessage);
      reject(new Error("Les métriques des processus n'ont pas été reçues à temps."));
      // Longer than prom-client's own wait for the workers (5 s): its error comes first.
    }, 7_000);
    process.on("message", onMessage);
    process.send?.({ shop: "metrics-request", id });
  });
}

/**
 * The primary of a multi-process start: serves nothing itself.
 * @param {ShopLifecycle} shop
 */
async function runPrimary(shop) {
  const host = process.env.HOST || "0.0.0.0";
  // The workers use the primary's emulator (app/services/stripe.server.ts).
  const workerEnv = { SHOP_STRIPE_EMULATOR_SHARED: "1" };
  /** @type {Map<number, number>} worker id → start time */
  const startedAt = new Map();
  let stopping = false;
  let deathsInARow = 0;
  /** @type {Set<NodeJS.Timeout>} */
  const restarts = new Set();

  // The signal handlers before anything starts: a SIGTERM during the start (the emulator
  // starting, the workers forked one by one) stops what has started and exits 0, like later.
  process.on("SIGTERM", shutdown);
  process.on("SIGINT", shutdown);
  const primaryStarted = shop.startPrimary();
  const { mode, port, processes } = await primaryStarted.catch(startFailure);
  if (stopping) return;

  function fork() {
    const worker = cluster.fork(workerEnv);
    startedAt.set(worker.id, Date.now());
    return worker;
  }

  /** Resolves true once the worker listens, false if it ends first. @param {import("node:cluster").Worker} worker */
  function listening(worker) {
    return new Promise((resolve) => {
      worker.once("listening", () => resolve(true));
      worker.once("exit", () => resolve(false));
    });
  }

  async function giveUp() {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGKILL");
    await shop.stopPrimary().catch(() => undefined);
    process.exit(1);
  }

  // A worker asked for /metrics: those of every worker, aggregated (prom-client asks each one).
  shop.startMetricsAggregation();
  cluster.on("message", (from, message) => {
    if (message?.shop !== "metrics-request") return;
    shop.clusterMetrics().then(
      (metrics) => from.isConnected() && from.send({ shop: "metrics", id: message.id, ...metrics }),
      (error) => from.isConnected() && from.send({ shop: "metrics", id: message.id, error: String(error?.message ?? error) }),
    );
  });

  // An email queued in one worker wakes the others' senders (app/services/email/sender.server.ts).
  cluster.on("message", (from, message) => {
    if (message?.shop !== "email-queued") return;
    for (const worker of Object.values(cluster.workers ?? {})) {
      if (worker && worker !== from && worker.isConnected()) worker.send(message);
    }
  });

  // The first worker alone: a failure it reports (port taken, database unreadable) is told once.
  // Once stopping, no worker is forked any more, and the ones stopped are no failure: shutdown() ends the process.
  const firstListens = await listening(fork());
  if (stopping) return;
  if (!firstListens) return giveUp();
  const others = Array.from({ length: processes - 1 }, () => listening(fork()));
  const othersListen = await Promise.all(others);
  if (stopping) return;
  if (othersListen.includes(false)) return giveUp();
  // A plain line, for the person starting the shop.
  console.log(startLine(mode, host, port, processes));

  cluster.on("exit", (worker, code, signal) => {
    const lived = Date.now() - (startedAt.get(worker.id) ?? 0);
    startedAt.delete(worker.id);
    if (stopping) return;
    deathsInARow = lived >= HEALTHY_AFTER_MS ? 1 : deathsInARow + 1;
    const delay = Math.min(RESTART_FIRST_MS * 2 ** (deathsInARow - 1), RESTART_MAX_MS);
    const why = signal ? `signal ${signal}` : `code ${code}`;
    shop.log.warn(`Processus ${worker.process.pid} arrêté (${why}) : remplacé dans ${(delay / 1000).toLocaleString("fr-FR")} s.`);
    const timer = setTimeout(() => {
      restarts.delete(timer);
      if (!stopping) fork();
    }, delay);
    restarts.add(timer);
  });

  /** @param {NodeJS.Signals} signal */
  async function shutdown(signal) {
    if (stopping) return;
    stopping = true;
    shop.log.info(`${signal} : arrêt de la boutique…`);
    for (const timer of restarts) clearTimeout(timer);
    setTimeout(
      () => {
        shop.log.error("Arrêt forcé : la fermeture a dépassé le délai.");
        for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGKILL");
        process.exit(1);
      },
      drainDelay(shop) + SHUTDOWN_DEADLINE_MS + 5_000,
    ).unref();
    // A signal during the primary's own start: that start ends first (a failure exits 1 there), then is undone.
    await primaryStarted.catch(() => new Promise(() => undefined));
    const workers = Object.values(cluster.workers ?? {}).filter((w) => w !== undefined);
    const codes = await Promise.all(
      workers.map(
        (worker) =>
          /** @type {Promise<number>} */ (
            new Promise((resolve) => {
              if (worker.isDead()) return resolve(0);
              worker.once("exit", (code) => resolve(code ?? 0));
              worker.process.kill("SIGTERM");
            })
          ),
      ),
    );
    try {
      await shop.stopPrimary();
    } catch (error) {
      shop.log.error(error);
      process.exit(1);
    }
    process.exit(codes.every((code) => code === 0) ? 0 : 1);
  }
}

async function main() {
  const buildPath = path.resolve(process.argv[2] ?? "build/server/index.js");
  /** @type {import("@remix-run/node").ServerBuild} */
  const build = await import(pathToFileURL(buildPath).href);
  installGlobals({ nativeFetch: build.future.v3_singleFetch });
  const shop = /** @type {ShopLifecycle} */ (/** @type {unknown} */ (build.entry.module));

  if (cluster.isWorker) return serve(build, shop);
  /** @type {number} */
  let processes = 1;
  try {
    processes = shop.shopProcessCount();
  } catch (error) {
    startFailure(error);
  }
  return processes > 1 ? runPrimary(shop) : serve(build, shop);
}

await main();
