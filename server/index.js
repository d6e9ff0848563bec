// @ts-check
import path from "node:path";
import { pathToFileURL } from "node:url";
import { installGlobals } from "@remix-run/node";
import { createApp, listen } from "./app.js";

/**
 * Production entry: `node server/index.js [build/index.js]` (npm run serve).
 * 1. loads the Remix build and starts the shop (configuration check, database, and in demo
 *    mode the Stripe emulator) before taking any request; a bad configuration stops here with
 *    one French message and exit code 1;
 * 2. listens on HOST (default 0.0.0.0) and PORT;
 * 3. on SIGTERM or SIGINT: stops taking connections, finishes the requests in flight (at most
 *    SHUTDOWN_DEADLINE_MS), stops the emulator, closes the database and exits 0.
 */

const SHUTDOWN_DEADLINE_MS = 10_000;

/**
 * What app/entry.server.tsx exports besides Remix's own handlers.
 * @typedef {{
 *   startShop(): Promise<{ mode: "demo" | "live", port: number }>,
 *   stopShop(): Promise<void>,
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

async function main() {
  const buildPath = path.resolve(process.argv[2] ?? "build/index.js");
  /** @type {import("@remix-run/node").ServerBuild} */
  const build = await import(pathToFileURL(buildPath).href);
  installGlobals({ nativeFetch: build.future.v3_singleFetch });
  const shop = /** @type {ShopLifecycle} */ (/** @type {unknown} */ (build.entry.module));

  const { mode, port } = await shop.startShop().catch(startFailure);
  const host = process.env.HOST || "0.0.0.0";
  const app = createApp(build, { logRequests: process.env.LOG_REQUESTS === "1" });
  const server = await listen(app, { host, port }).catch(async (error) => {
    await shop.stopShop().catch(() => undefined);
    if (error?.code !== "EADDRINUSE") return startFailure(error);
    const taken = new Error(`Le port ${port} de la boutique est déjà utilisé (${host}). Choisissez un autre PORT.`);
    return startFailure(Object.assign(taken, { name: "ConfigError" }));
  });
  console.log(`Boutique en mode ${mode === "demo" ? "démo" : "production"} : http://${host}:${server.port}`);

  let stopping = false;
  /** @param {NodeJS.Signals} signal */
  async function shutdown(signal) {
    if (stopping) return;
    stopping = true;
    console.log(`${signal} : arrêt de la boutique…`);
    // Whatever happens, the process does not outlive the deadline by much.
    setTimeout(() => {
      console.error("Arrêt forcé : la fermeture a dépassé le délai.");
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS + 5_000).unref();
    try {
      await server.close({ deadlineMs: SHUTDOWN_DEADLINE_MS });
      await shop.stopShop();
      process.exit(0);
    } catch (error) {
      console.error(error);
      process.exit(1);
    }
  }
  process.on("SIGTERM", shutdown);
  process.on("SIGINT", shutdown);
}

await main();
