import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { backupTime } from "~/services/backups/files.server";
import { postgresBinaries, startPostgres, type TestPostgres } from "../helpers/postgres";
import { api, placeOrder, stripeEmulator, type StripeEmulator } from "./shop-api";
import { SERVER_TEST_BUILD, spawnShop, type ShopProcess } from "./shop-process";

/**
 * The restore drill: a shop takes 200 orders under load (some paid, so that invoices are
 * issued); `npm run db:backup` runs in the middle of it; the shop is stopped; the snapshot is
 * restored with `npm run db:restore` into a new data folder (a new database on PostgreSQL) and a
 * shop started on it. Every order acknowledged before the snapshot's time is there, paid when
 * its payment was acknowledged, the database is sound, and the next invoice takes the next
 * number.
 */

const ORDERS = 200;
const AT_ONCE = 20;
/** One order in PAID_EVERY is paid. */
const PAID_EVERY = 5;

type Run = { code: number | null; stdout: string; stderr: string };

/** `npm run <script> -- args` as the person running the shop types it, with the shop's variables. */
function npmRun(script: string, args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn("npm", ["run", "--silent", script, "--", ...args], {
      cwd: process.cwd(),
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? os.tmpdir(),
        SHOP_BUILD_NAME: SERVER_TEST_BUILD,
        ...env,
      } as unknown as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

type Acknowledged = { id: number; at: number; paidAt?: number };

/** One shopper's order, paid through the emulator for one in PAID_EVERY: what the shop acknowledged, and when. */
async function shop(base: string, stripe: StripeEmulator, n: number, log: Acknowledged[]) {
  const order = await placeOrder(base, `exercice-${n}@example.fr`, n + 1, 2);
  const acknowledged: Acknowledged = { id: order.id, at: Date.now() };
  log.push(acknowledged);
  if (n % PAID_EVERY !== 0) return;
  const start = await api(base, "/api/payments/start", {
    body: { orderId: order.id, mode: "one_off", token: order.token },
    shopper: n + 1,
  });
  expect(start.status, JSON.stringify(start.body)).toBe(200);
  await stripe.payWithCard(start.body.paymentIntentId as string);
  const paid = await api(base, "/api/payments/confirm", { body: { orderId: order.id, token: order.token }, shopper: n + 1 });
  expect(paid.body, JSON.stringify(paid.body)).toMatchObject({ paid: true });
  acknowledged.paidAt = Date.now();
}

type Engine = {
  name: "sqlite" | "postgresql";
  /** The shop's DATABASE_URL in `dataDir` (SQLite) or a new database (PostgreSQL). */
  database(dataDir: string, label: string): Promise<string>;
  /** Rows of a query on the database (read-only use). */
  query(url: string, sql: string): Promise<Array<Record<string, unknown>>>;
  /** The engine's own check of the restored database. */
  check(url: string): Promise<void>;
};

let postgres: TestPostgres | undefined;
const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await postgres?.stop();
});

const sqlite: Engine = {
  name: "sqlite",
  database: async (dataDir) => path.join(dataDir, "shop.db"),
  async query(url, sql) {
    const db = new Database(url, { readonly: true, fileMustExist: true });
    try {
      return db.prepare(sql).all() as Array<Record<string, unknown>>;
    } finally {
      db.close();
    }
  },
  async check(url) {
    expect(await this.query(url, "PRAGMA integrity_check")).toEqual([{ integrity_check: "ok" }]);
  },
};

const postgresql: Engine = {
  name: "postgresql",
  async database(_dataDir, label) {
    postgres ??= await startPostgres();
    const url = new URL(postgres.url);
    const admin = new pg.Client({ connectionString: postgres.url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${label}`);
    await admin.end();
    url.pathname = `/${label}`;
    return url.toString();
  },
  async query(url, sql) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query(sql)).rows;
    } finally {
      await client.end();
    }
  },
  async check(url) {
    // Every table readable, row by row: a restore that lost a page or a row would fail here.
    const tables = await this.query(url, "SELECT tablename FROM pg_tables WHERE schemaname = 'public'");
    expect(tables.length).toBeGreaterThan(10);
    for (const { tablename } of tables) await this.query(url, `SELECT * FROM "${String(tablename)}"`);
  },
};

const engines = [sqlite, ...(postgresBinaries() ? [postgresql] : [])];

describe.each(engines)("restore drill on $name", (engine) => {
  const folder = (name: string) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), `shop-drill-${name}-`));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    return dir;
  };
  const started: ShopProcess[] = [];
  cleanups.push(() => Promise.all(started.map((s) => s.dispose())).then(() => undefined));

  it("every order acknowledged before the snapshot is restored, the database is sound and invoice numbers go on", async () => {
    // The running shop: its data folder and its backups folder.
    const dataDir = folder("data");
    const backups = folder("backups");
    const databaseUrl = await engine.database(dataDir, "boutique");
    const env = {
      SHOP_MODE: "demo",
      TRUST_PROXY: "1",
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      BACKUP_DIR: backups,
      BACKUP_EVERY: "0",
    };
    const running = await spawnShop(env);
    started.push(running);
    await running.ready();
    const stripe = stripeEmulator(`http://127.0.0.1:${running.emulatorPort}`, dataDir);

    // 200 shoppers, 20 at a time; the backup starts once half of them have their order. The
    // last 20 wait for the backup to end, so that some orders always come after its snapshot,
    // however fast the others go.
    const log: Acknowledged[] = [];
    let next = 0;
    let releaseLast!: () => void;
    const backupEnded = new Promise<void>((resolve) => (releaseLast = resolve));
    const worker = async () => {
      while (next < ORDERS) {
        if (next >= ORDERS - AT_ONCE) await backupEnded;
        if (next >= ORDERS) break;
        await shop(running.url, stripe, next++, log);
      }
    };
    const load = Promise.all(Array.from({ length: AT_ONCE }, worker));
    await expect.poll(() => log.length, { timeout: 120_000, interval: 50 }).toBeGreaterThanOrEqual(ORDERS / 2);
    const backup = await npmRun("db:backup", [], { ...env, NODE_ENV: "production" });
    releaseLast();
    await load;
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stdout).toMatch(/^Sauvegarde écrite : .*shop-.* \(.*, .* s\)\nSHA-256 : [0-9a-f]{64}\n$/);
    const [file] = readdirSync(backups).filter((name) => backupTime(name));
    const snapshotAt = backupTime(file)!.getTime();
    // The backup ran in the middle of the load: orders were acknowledged before and after it.
    const before = log.filter((order) => order.at < snapshotAt);
    expect(before.length).toBeGreaterThanOrEqual(ORDERS / 2);
    expect(log.length - before.length).toBeGreaterThan(0);
    expect(log).toHaveLength(ORDERS);

    // The restore is refused while the shop runs.
    const refused = await npmRun("db:restore", [path.join(backups, file)], { ...env, NODE_ENV: "production" });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/arrêtez la boutique \(tous ses processus\) avant de restaurer\. Rien n'a été restauré\./);

    running.child.kill("SIGTERM");
    expect(await running.exited).toEqual({ code: 0, signal: null });

    // A new data folder (a new database on PostgreSQL): the snapshot restored there, a shop started on it.
    const restoredDir = folder("restored");
    const restoredUrl =
      engine.name === "sqlite" ? path.join(restoredDir, "shop.db") : await engine.database(restoredDir, "restauree");
    const restoredEnv = { ...env, DATA_DIR: restoredDir, DATABASE_URL: restoredUrl };
    const restore = await npmRun("db:restore", [path.join(backups, file)], { ...restoredEnv, NODE_ENV: "production" });
    expect(restore.code, restore.stderr).toBe(0);
    expect(restore.stdout).toMatch(/Sauvegarde vérifiée \(SHA-256 [0-9a-f]{64}\) et restaurée\./);
    await engine.check(restoredUrl);

    const orders = new Map(
      (await engine.query(restoredUrl, "SELECT id, payment_status FROM orders")).map((row) => [
        Number(row.id),
        row.payment_status,
      ]),
    );
    expect(before.filter((order) => !orders.has(order.id)).map((order) => order.id)).toEqual([]);
    const paidBefore = log.filter((order) => order.paidAt !== undefined && order.paidAt < snapshotAt);
    expect(paidBefore.length).toBeGreaterThan(0);
    expect(paidBefore.filter((order) => orders.get(order.id) !== "paid").map((order) => order.id)).toEqual([]);

    const restored = await spawnShop(restoredEnv);
    started.push(restored);
    await restored.ready();
    // The restored shop takes and is paid for a new order: its invoice takes the next number.
    const restoredStripe = stripeEmulator(`http://127.0.0.1:${restored.emulatorPort}`, restoredDir);
    const newOrder: Acknowledged[] = [];
    await shop(restored.url, restoredStripe, 5000, newOrder);
    expect(newOrder[0].paidAt).toBeDefined();
    const sequences = (
      await engine.query(restoredUrl, "SELECT sequence, number FROM invoices WHERE kind = 'invoice' ORDER BY sequence")
    ).map((row) => Number(row.sequence));
    expect(sequences.length).toBeGreaterThanOrEqual(paidBefore.length + 1);
    // 1, 2, 3… n: no gap, no duplicate, the new invoice last.
    expect(sequences).toEqual(Array.from({ length: sequences.length }, (_, i) => i + 1));
    const [newInvoice] = await engine.query(restoredUrl, `SELECT sequence FROM invoices WHERE order_id = ${newOrder[0].id}`);
    expect(Number(newInvoice.sequence)).toBe(sequences.length);
    restored.child.kill("SIGTERM");
    expect(await restored.exited).toEqual({ code: 0, signal: null });
  }, 300_000);
});

describe("the shop's own snapshots", () => {
  it("a shop started with BACKUP_EVERY takes one at its scheduler's first tick, and one only", async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "shop-scheduled-"));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const backups = path.join(dataDir, "sauvegardes");
    const running = await spawnShop({
      SHOP_MODE: "demo",
      DATA_DIR: dataDir,
      DATABASE_URL: path.join(dataDir, "shop.db"),
      BACKUP_DIR: backups,
      BACKUP_EVERY: "24",
    });
    cleanups.push(() => running.dispose());
    await running.ready();
    const finished = () => readdirSync(backups, { withFileTypes: true }).filter((entry) => entry.name.endsWith(".sha256")).length;
    await expect
      .poll(() => running.stdout(), { timeout: 30_000 })
      .toMatch(/Sauvegarde de la base : .*sauvegardes\/shop-.*\.db\.gz \(\d+ octets, SHA-256 [0-9a-f]{64}\)\./);
    expect(existsSync(backups) && finished()).toBe(1);
    running.child.kill("SIGTERM");
    expect(await running.exited).toEqual({ code: 0, signal: null });
    // Started again: the last snapshot is minutes old, none is due.
    const again = await spawnShop({
      SHOP_MODE: "demo",
      DATA_DIR: dataDir,
      DATABASE_URL: path.join(dataDir, "shop.db"),
      BACKUP_DIR: backups,
      BACKUP_EVERY: "24",
    });
    cleanups.push(() => again.dispose());
    await again.ready();
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(finished()).toBe(1);
    expect(again.stderr()).toBe("");
  }, 120_000);
});
