import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

/** The build the global setup makes for these tests (build-vitest/server/ and build-vitest/client/). */
export const SERVER_TEST_BUILD = "build-vitest";

/** An order of pack 2 for POST /api/orders, as an API client sends it. */
export const API_ORDER = {
  customerEmail: "camille.martin@example.fr",
  customerName: "Camille Martin",
  shippingAddress: "12 rue des Lilas",
  shippingPostalCode: "75011",
  shippingCity: "Paris",
  items: [{ productId: 1, packId: 2, quantity: 1 }],
};

/** The JSON lines of a shop's log (stdout or stderr), other lines left out. */
export function logLines(output: string): Record<string, unknown>[] {
  return output
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/** True when nothing listens on 127.0.0.1:port any more. */
export function canBind(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

export type ShopProcess = {
  child: ChildProcess;
  url: string;
  port: number;
  emulatorPort: number;
  dataDir: string;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (or signal) once the process has ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Waits until GET / answers 200; fails with the process output if it exits first. */
  ready(): Promise<void>;
  /** Kills the process if it still runs and removes its data folder. */
  dispose(): Promise<void>;
};

/**
 * `node server/index.js build-vitest/server/index.js` with NODE_ENV=production, free ports, a fresh data
 * folder, and only the variables given (every shop variable is set, empty by default, so a
 * developer's .env cannot change the test).
 */
export async function spawnShop(env: Record<string, string> = {}): Promise<ShopProcess> {
  const port = await freePort();
  const emulatorPort = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "shop-server-"));
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ["server/index.js", `${SERVER_TEST_BUILD}/server/index.js`], {
    cwd: process.cwd(),
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      PATH: process.env.PATH ?? "",
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      PUBLIC_URL: url,
      DATABASE_URL: path.join(dataDir, "shop.db"),
      DATA_DIR: dataDir,
      STRIPE_EMULATOR_PORT: String(emulatorPort),
      SHOP_MODE: "",
      SESSION_SECRET: "",
      ADMIN_USERNAME: "admin",
      ADMIN_PASSWORD: "",
      STRIPE_SECRET_KEY: "",
      STRIPE_PUBLISHABLE_KEY: "",
      STRIPE_WEBHOOK_SECRET: "",
      LOG_REQUESTS: "",
      SMTP_URL: "",
      MAIL_FROM: "",
      // One process unless a test asks for more (tests/server/cluster.test.ts).
      WEB_CONCURRENCY: "1",
      SHOP_EXPOSE_WORKER: "",
      TRUST_PROXY: "",
      METRICS_TOKEN: "",
      LOG_FORMAT: "",
      LOG_LEVEL: "",
      SHUTDOWN_DRAIN_MS: "",
      ...env,
    },
  });
  let out = "";
  let err = "";
  child.stdout!.on("data", (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  let hasExited = false;
  void exited.then(() => (hasExited = true));

  return {
    child,
    url,
    port,
    emulatorPort: Number(env.STRIPE_EMULATOR_PORT ?? emulatorPort),
    dataDir,
    stdout: () => out,
    stderr: () => err,
    exited,
    async ready() {
      const deadline = Date.now() + 45_000;
      while (Date.now() < deadline) {
        if (hasExited) throw new Error(`The shop exited during its start:\n${out}\n${err}`);
        const status = await fetch(`${url}/`).then(
          (r) => r.status,
          () => 0,
        );
        if (status === 200) return;
        await new Promise((r) => setTimeout(r, 150));
      }
      throw new Error(`The shop did not answer within 45 s:\n${out}\n${err}`);
    },
    async dispose() {
      if (!hasExited) {
        child.kill("SIGKILL");
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
