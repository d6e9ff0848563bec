// @ts-check
// Starts the shop from the production build (build/server/index.js, made by `npm run build`) in demo
// mode, on a free port of 127.0.0.1, with a throwaway data folder, for the speed measures.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

export const ROOT = path.resolve(import.meta.dirname, "../..");

/** @returns {Promise<number>} a port nothing listens on, on 127.0.0.1 */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/**
 * startShop(), or its reason for failing in one message (no build, the shop refused to start)
 * and exit code 1.
 * @param {{ env?: Record<string, string>, nodeArgs?: string[] }} [options]
 * @returns {Promise<RunningShop>}
 */
export function startShopOrExit(options) {
  return startShop(options).catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}

/**
 * @typedef {{
 *   url: string,
 *   port: number,
 *   emulatorUrl: string, // the demo's Stripe emulator (in the primary process when WEB_CONCURRENCY > 1)
 *   databaseUrl: string,
 *   pid: number | undefined,
 *   output(): string,
 *   stop(): Promise<void>,
 * }} RunningShop
 */

/**
 * `node server/index.js build/server/index.js` with NODE_ENV=production and SHOP_MODE=demo. Only the
 * variables given here reach it (a developer's .env changes nothing), plus WEB_CONCURRENCY
 * when set, so that a server running several processes is measured as it runs.
 * `nodeArgs` go to node before the server's script (e.g. `--cpu-prof`, which NODE_OPTIONS refuses).
 * @param {{ env?: Record<string, string>, nodeArgs?: string[] }} [options]
 * @returns {Promise<RunningShop>}
 */
export async function startShop(options = {}) {
  // SHOP_BUILD_NAME: the build folder, as for vite.config.ts (several builds side by side).
  const buildIndex = path.join(ROOT, process.env.SHOP_BUILD_NAME || "build", "server/index.js");
  if (!existsSync(buildIndex)) {
    throw new Error("No production build (build/server/index.js): run `npm run build` first.");
  }
  const port = await freePort();
  const emulatorPort = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "shop-bench-"));
  // DATABASE_URL naming PostgreSQL (node scripts/postgres/throwaway.js npm run bench): the shop runs on it.
  const postgresUrl = /^postgres(ql)?:\/\//i.test(process.env.DATABASE_URL ?? "") ? process.env.DATABASE_URL : undefined;
  const databaseUrl = postgresUrl ?? path.join(dataDir, "shop.db");
  const url = `http://127.0.0.1:${port}`;
  /** @type {NodeJS.ProcessEnv} */
  const env = {
    PATH: process.env.PATH ?? "",
    NODE_ENV: "production",
    HOST: "127.0.0.1",
    PORT: String(port),
    PUBLIC_URL: url,
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    STRIPE_EMULATOR_PORT: String(emulatorPort),
    SHOP_MODE: "demo",
    SESSION_SECRET: "",
    ADMIN_USERNAME: "admin",
    ADMIN_PASSWORD: "",
    STRIPE_SECRET_KEY: "",
    STRIPE_PUBLISHABLE_KEY: "",
    STRIPE_WEBHOOK_SECRET: "",
    LOG_REQUESTS: "",
    SMTP_URL: "",
    MAIL_FROM: "",
    ...(process.env.WEB_CONCURRENCY ? { WEB_CONCURRENCY: process.env.WEB_CONCURRENCY } : {}),
    ...options.env,
  };
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), "server/index.js", buildIndex], {
    cwd: ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (/** @type {Buffer} */ chunk) => (out += chunk.toString()));
  child.stderr.on("data", (/** @type {Buffer} */ chunk) => (out += chunk.toString()));
  /** @type {Promise<void>} */
  const exited = new Promise((resolve) => child.once("exit", () => resolve()));
  let hasExited = false;
  void exited.then(() => (hasExited = true));

  const stop = async () => {
    if (!hasExited) {
      // SIGTERM: the shop finishes its requests and closes its database (and its workers).
      child.kill("SIGTERM");
      const killer = setTimeout(() => child.kill("SIGKILL"), 15_000);
      await exited;
      clearTimeout(killer);
    }
    rmSync(dataDir, { recursive: true, force: true });
  };

  const deadline = Date.now() + 60_000;
  for (;;) {
    if (hasExited) {
      await stop();
      throw new Error(`The shop exited during its start:\n${out}`);
    }
    const status = await fetch(`${url}/`).then(
      (r) => r.arrayBuffer().then(() => r.status),
      () => 0,
    );
    if (status === 200) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`The shop did not answer within 60 s:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { url, port, emulatorUrl: `http://127.0.0.1:${emulatorPort}`, databaseUrl, pid: child.pid, output: () => out, stop };
}
