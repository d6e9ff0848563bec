// @ts-check
// Starts the shop from the production build (build/server/index.js, made by `npm run build`; or
// the folder SHOP_BUILD_NAME names) in demo mode, on a free port of 127.0.0.1, with a throwaway
// data folder, for the speed measures. The demo's Stripe emulator runs in a `node` process of its
// own (scripts/bench/emulator.js), on its own port, the shop pointed to it
// (STRIPE_EMULATOR_PORT, SHOP_STRIPE_EMULATOR_SHARED=1): its work is not counted as the shop's.
import { fork, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { NODE_FLAGS } from "../../server/node-flags.js";

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
 *   emulatorUrl: string, // the demo's Stripe emulator, in its own process
 *   emulatorPid: number | undefined, // undefined: in the shop's primary process (BENCH_EMULATOR=shop)
 *   emulatorCounts(): Promise<EmulatorCounts | null>,
 *   databaseUrl: string,
 *   pid: number | undefined,
 *   output(): string,
 *   stop(): Promise<void>,
 * }} RunningShop
 * @typedef {{ api: Record<string, number>, webhooks: number, events: Record<string, number> }} EmulatorCounts
 */

/**
 * scripts/bench/emulator.js in its own process, listening on `port`, its webhooks sent to `shopUrl`.
 * @param {{ port: number, secretKey: string, webhookSecret: string, shopUrl: string }} options
 */
async function startEmulator({ port, secretKey, webhookSecret, shopUrl }) {
  const child = fork(
    path.join(ROOT, "scripts/bench/emulator.js"),
    [JSON.stringify({ port, secretKey, webhookSecret, servers: [shopUrl] })],
    {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? "", NODE_ENV: "production" },
      stdio: ["ignore", "pipe", "pipe", "ipc"],
    },
  );
  let out = "";
  /** @type {Promise<void>} */
  const exited = new Promise((resolve) => child.once("exit", () => resolve()));
  await new Promise((resolve, reject) => {
    child.stdout?.on("data", (/** @type {Buffer} */ chunk) => {
      out += chunk.toString();
      if (out.includes("ready")) resolve(undefined);
    });
    child.stderr?.on("data", (/** @type {Buffer} */ chunk) => (out += chunk.toString()));
    void exited.then(() => reject(new Error(`The Stripe emulator exited during its start:\n${out}`)));
  });
  /** @returns {Promise<EmulatorCounts>} */
  const counts = () =>
    new Promise((resolve) => {
      /** @param {any} message */
      const onMessage = (message) => {
        if (!message?.counts) return;
        child.off("message", onMessage);
        resolve(message.counts);
      };
      child.on("message", onMessage);
      child.send("counts");
    });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
  };
  return { pid: child.pid, counts, stop };
}

/**
 * `node <server/node-flags.js> server/index.js build/server/index.js` with NODE_ENV=production and SHOP_MODE=demo. Only the
 * variables given here reach it (a developer's .env changes nothing), plus WEB_CONCURRENCY
 * when set, so that a server running several processes is measured as it runs.
 * `nodeArgs` go to node before the server's script (e.g. `--cpu-prof`, which NODE_OPTIONS refuses).
 * @param {{ env?: Record<string, string>, nodeArgs?: string[] }} [options]
 * @returns {Promise<RunningShop>}
 */
export async function startShop(options = {}) {
  // SHOP_BUILD_NAME: the build folder, as for vite.config.ts (several builds side by side).
  const buildName = process.env.SHOP_BUILD_NAME || "build";
  const buildIndex = path.join(ROOT, buildName, "server/index.js");
  if (!existsSync(buildIndex)) {
    throw new Error(`No production build (${buildName}/server/index.js): run \`npm run build\` first.`);
  }
  const port = await freePort();
  const emulatorPort = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "shop-bench-"));
  // DATABASE_URL naming PostgreSQL (node scripts/postgres/throwaway.js npm run bench): the shop runs on it.
  const postgresUrl = /^postgres(ql)?:\/\//i.test(process.env.DATABASE_URL ?? "") ? process.env.DATABASE_URL : undefined;
  const databaseUrl = postgresUrl ?? path.join(dataDir, "shop.db");
  const url = `http://127.0.0.1:${port}`;
  // The demo's secrets, which the shop reads from its data folder, shared with the emulator.
  const secretKey = `sk_test_emulator_bench${Date.now()}`;
  const webhookSecret = `whsec_bench${Date.now()}`;
  writeFileSync(path.join(dataDir, ".stripe-emulator-key"), secretKey, { mode: 0o600 });
  writeFileSync(path.join(dataDir, ".webhook-secret"), webhookSecret, { mode: 0o600 });
  // BENCH_EMULATOR=shop: the emulator in the shop's primary process, as `npm start` runs it
  // (to compare with the measures made that way).
  const emulatorInShop = process.env.BENCH_EMULATOR === "shop";
  const emulator = emulatorInShop
    ? { pid: undefined, counts: async () => null, stop: async () => undefined }
    : await startEmulator({ port: emulatorPort, secretKey, webhookSecret, shopUrl: url });
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
    ...(emulatorInShop ? {} : { SHOP_STRIPE_EMULATOR_SHARED: "1" }),
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
  // BENCH_CPU_PROF=<folder>: each shop process (the workers inherit the flags) writes its V8 CPU
  // profile there when it stops; open the .cpuprofile files in Chrome's DevTools.
  const profile = process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(process.env.BENCH_CPU_PROF)}`] : [];
  // The flags production starts node with (server/node-flags.js), then the measure's own.
  const child = spawn(process.execPath, [...NODE_FLAGS, ...profile, ...(options.nodeArgs ?? []), "server/index.js", buildIndex], {
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
    await emulator.stop();
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
  return {
    url,
    port,
    emulatorUrl: `http://127.0.0.1:${emulatorPort}`,
    emulatorPid: emulator.pid,
    emulatorCounts: emulator.counts,
    databaseUrl,
    pid: child.pid,
    output: () => out,
    stop,
  };
}
