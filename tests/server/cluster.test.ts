import { readFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { startSmtpInbox } from "../helpers/smtp-inbox";
import { API_ORDER, canBind, freePort, logLines, spawnShop, type ShopProcess } from "./shop-process";

/**
 * The production entry with WEB_CONCURRENCY=2: a node:cluster primary and two workers on one
 * port and one SQLite file. SHOP_EXPOSE_WORKER=1 makes every answer say which worker gave it.
 */

const started: ShopProcess[] = [];
async function shop(env: Record<string, string> = {}) {
  const process = await spawnShop({ SHOP_MODE: "demo", WEB_CONCURRENCY: "2", SHOP_EXPOSE_WORKER: "1", ...env });
  started.push(process);
  return process;
}
afterEach(async () => {
  await Promise.all(started.splice(0).map((p) => p.dispose()));
});

/** Waits for the primary's start line: every worker listens then. */
async function allListening(server: ShopProcess) {
  await server.ready();
  await expect.poll(() => server.stdout(), { timeout: 30_000 }).toMatch(/^Boutique en mode /m);
}

/** The two workers' pids, once both take connections (the last one started may still be warming up). */
async function bothWorkers(server: ShopProcess) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const pids = await workersSeen(server, 4);
    if (pids.size === 2 || Date.now() > deadline) {
      expect(pids.size).toBe(2);
      return pids;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function exitWithin(shop: ShopProcess, ms: number) {
  const timeout = new Promise<never>((_, reject) =>
    setTimeout(() => reject(new Error(`still running after ${ms} ms:\n${shop.stdout()}\n${shop.stderr()}`)), ms).unref(),
  );
  return Promise.race([shop.exited, timeout]);
}

type Answer = { status: number; worker: number; text: string };

/**
 * One request on a new connection (no keep-alive: the cluster hands each connection to a
 * worker in turn, so successive requests meet both workers).
 */
function send(url: string, body?: unknown): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const request = http.request(
      url,
      {
        agent: false,
        method: payload === undefined ? "GET" : "POST",
        headers: payload === undefined ? {} : { "Content-Type": "application/json", Origin: new URL(url).origin },
      },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (text += chunk));
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, worker: Number(response.headers["x-worker"]), text }),
        );
      },
    );
    request.on("error", reject);
    request.end(payload);
  });
}

async function postJson(url: string, body: unknown) {
  const answer = await send(url, body);
  return { ...answer, body: JSON.parse(answer.text) as Record<string, unknown> };
}

/** The workers that answer, over a few requests. */
async function workersSeen(server: ShopProcess, requests = 8) {
  const pids = new Set<number>();
  for (let i = 0; i < requests; i++) pids.add((await send(`${server.url}/favicon.svg`)).worker);
  return pids;
}

/** The child processes of `pid` (Linux): the primary's workers. */
function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

function alive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function openShopDb(server: ShopProcess) {
  const db = new Database(path.join(server.dataDir, "shop.db"));
  db.pragma("busy_timeout = 5000");
  return db;
}

/**
 * Waits until no email waits or is being sent. Nothing more leaves then: a sent email is never
 * taken again, and the inbox holds each message before the sender hears it was accepted and marks it sent.
 */
async function nothingMoreToSend(db: Database.Database) {
  const unsent = db.prepare("select count(*) as n from emails where status in ('pending', 'sending')");
  await expect.poll(() => (unsent.get() as { n: number }).n, { timeout: 15_000 }).toBe(0);
}

function leaseHolderPid(db: Database.Database, name: string): number | undefined {
  const row = db.prepare("select holder from leases where name = ?").get(name) as { holder: string } | undefined;
  return row ? Number(row.holder.split(":")[1]) : undefined;
}

const contact = (n: number) => ({
  name: "Léa Petit",
  email: `lea${n}@example.fr`,
  // In the subject: the acknowledgement quotes it, not the message.
  subject: `Livraison (message ${n})`,
  message: `Bonjour, livrez-vous en Belgique ? (message ${n})`,
});

describe("one worker per core", () => {
  it("serves one port from two workers sharing rate limits and payment locks, and SIGTERM stops them all with exit 0", async () => {
    const demo = await shop();
    await allListening(demo);
    const startLines = demo.stdout().match(/^Boutique en mode .*$/gm);
    expect(startLines).toEqual([`Boutique en mode démo : ${demo.url} (2 processus)`]);

    const workers = await bothWorkers(demo);
    expect(workers.has(demo.child.pid!)).toBe(false);

    // Rate limits: the unknown order numbers tried through either worker add up.
    const answeredBy = new Set<number>();
    for (let i = 1; i <= 20; i++) {
      const response = await send(`${demo.url}/api/orders/${900000 + i}`);
      expect(response.status).toBe(404);
      answeredBy.add(response.worker);
    }
    expect(answeredBy.size).toBe(2);
    for (let i = 0; i < 2; i++) {
      const refused = await send(`${demo.url}/api/orders/900099`);
      expect(refused.status).toBe(429);
      answeredBy.delete(refused.worker);
    }
    // Both workers refused.
    expect(answeredBy.size).toBe(0);

    // Payment start: a lock held by another process (here, this test) is respected.
    const order = await postJson(`${demo.url}/api/orders`, API_ORDER);
    expect(order.status).toBe(201);
    const start = { orderId: order.body.id, token: order.body.token };
    const db = openShopDb(demo);
    try {
      const lock = `payment-start:${order.body.id}`;
      db.prepare("insert into leases (name, holder, expires_at) values (?, ?, ?)").run(
        lock,
        "autre-hote:1:abcd",
        Date.now() + 60_000,
      );
      for (let i = 0; i < 2; i++) {
        const refused = await postJson(`${demo.url}/api/payments/start`, start);
        expect(refused).toMatchObject({ status: 409, body: { code: "resource_already_exists" } });
      }
      // The holder died: once its lock has expired, a start takes it over.
      db.prepare("update leases set expires_at = 0 where name = ?").run(lock);
      // Starts at once on both workers: each is either refused or given the same PaymentIntent.
      const attempts = await Promise.all(Array.from({ length: 6 }, () => postJson(`${demo.url}/api/payments/start`, start)));
      expect(attempts.every((a) => a.status === 200 || (a.status === 409 && a.body.code === "resource_already_exists"))).toBe(
        true,
      );
      const secrets = new Set(attempts.filter((a) => a.status === 200).map((a) => a.body.clientSecret));
      expect(secrets.size).toBe(1);
      expect([...secrets][0]).toMatch(/^pi_/);
      // Every lock was given back.
      expect(db.prepare("select count(*) as n from leases where name = ?").get(lock)).toEqual({ n: 0 });
    } finally {
      db.close();
    }

    demo.child.kill("SIGTERM");
    expect(await exitWithin(demo, 8_000)).toMatchObject({ code: 0, signal: null });
    expect(demo.stderr()).toBe("");
    expect(demo.stdout().match(/SIGTERM/g)).toHaveLength(1);
    for (const pid of workers) expect(alive(pid)).toBe(false);
    expect(await canBind(demo.port)).toBe(true);
    expect(await canBind(demo.emulatorPort)).toBe(true);
  });

  it("sends each email once, from the lease holder; when it dies, the other worker takes over and a new worker replaces it", async () => {
    const inbox = await startSmtpInbox();
    try {
      const demo = await shop({ SMTP_URL: inbox.url });
      await allListening(demo);
      const before = await bothWorkers(demo);
      const db = openShopDb(demo);
      try {
        const sent = await postJson(`${demo.url}/api/contact`, contact(1));
        expect(sent.status).toBe(201);
        // The acknowledgement and the shop's copy, once each, though both workers run a sender;
        // sooner than the holder's 5 s poll, whichever worker queued them (the primary relays the wake-up).
        await inbox.waitFor(2, 4_000);
        const holder = leaseHolderPid(db, "email-sender")!;
        expect(before.has(holder)).toBe(true);
        await nothingMoreToSend(db);
        expect(inbox.messages).toHaveLength(2);

        // The holder dies; its lease is not renewed and expires (moved forward here).
        process.kill(holder, "SIGKILL");
        await expect.poll(() => alive(holder)).toBe(false);
        db.prepare("update leases set expires_at = 0 where name = 'email-sender'").run();
        const again = await postJson(`${demo.url}/api/contact`, contact(2));
        expect(again.status).toBe(201);
        const messages = await inbox.waitFor(4, 15_000);
        expect(messages.filter((m) => m.text?.includes("(message 2)"))).toHaveLength(2);
        const taker = leaseHolderPid(db, "email-sender");
        expect(taker).toBeDefined();
        expect(taker).not.toBe(holder);
        await nothingMoreToSend(db);
        expect(inbox.messages).toHaveLength(4);
      } finally {
        db.close();
      }

      // The primary replaced the dead worker after a short delay.
      const dead = [...before].find((pid) => !alive(pid));
      expect(logLines(demo.stderr()).map((line) => [line.level, line.msg])).toContainEqual([
        "warn",
        `Processus ${dead} arrêté (signal SIGKILL) : remplacé dans 0,5 s.`,
      ]);
      await expect
        .poll(async () => [...(await workersSeen(demo))].some((pid) => !before.has(pid)), { timeout: 20_000 })
        .toBe(true);

      demo.child.kill("SIGTERM");
      expect(await exitWithin(demo, 8_000)).toMatchObject({ code: 0, signal: null });
    } finally {
      await inbox.close();
    }
  });

  it("SIGTERM during the start, once the first worker is forked, stops the workers started and exits 0", async () => {
    const starting = await shop();
    const pid = starting.child.pid!;
    // The moment the primary forks its first worker: the emulator runs, the workers are not all listening.
    let workers: number[] = [];
    const deadline = Date.now() + 30_000;
    while (workers.length === 0 && Date.now() < deadline) {
      workers = childrenOf(pid);
      if (workers.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(workers.length).toBeGreaterThan(0);
    starting.child.kill("SIGTERM");
    expect(await exitWithin(starting, 20_000)).toMatchObject({ code: 0, signal: null });
    expect(starting.stdout()).not.toMatch(/^Boutique en mode /m);
    expect(starting.stdout().match(/SIGTERM : arrêt de la boutique/g)).toHaveLength(1);
    expect(starting.stderr()).toBe("");
    for (const worker of workers) await expect.poll(() => alive(worker)).toBe(false);
    expect(await canBind(starting.port)).toBe(true);
    expect(await canBind(starting.emulatorPort)).toBe(true);
  });

  it("tells a start-up failure once and exits 1: the shop's port taken", async () => {
    const port = await freePort();
    const squatter = net.createServer();
    await new Promise<void>((resolve) => squatter.listen(port, "127.0.0.1", resolve));
    try {
      const refused = await shop({ PORT: String(port) });
      expect(await exitWithin(refused, 30_000)).toMatchObject({ code: 1 });
      expect(refused.stderr().trim()).toBe(
        `Le port ${port} de la boutique est déjà utilisé (127.0.0.1). Choisissez un autre PORT.`,
      );
      expect(await canBind(refused.emulatorPort)).toBe(true);
    } finally {
      await new Promise((resolve) => squatter.close(resolve));
    }
  });

  it("refuses a WEB_CONCURRENCY that is not a number of processes", async () => {
    const refused = await shop({ WEB_CONCURRENCY: "0" });
    expect(await exitWithin(refused, 20_000)).toMatchObject({ code: 1 });
    expect(refused.stderr().trim()).toBe(
      "Configuration invalide :\n  - WEB_CONCURRENCY: attendu un nombre de processus, de 1 à 64",
    );
  });
});
