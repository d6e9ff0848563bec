import { existsSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import zlib from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { startSmtpInbox } from "../helpers/smtp-inbox";
import { decodeSingleFetch } from "../helpers/single-fetch";
import { API_ORDER, canBind, freePort, logLines, spawnShop, type ShopProcess } from "./shop-process";

/**
 * The production entry (server/index.js) as it really runs: a child process with
 * NODE_ENV=production on free ports, against the build of the global setup.
 */

const started: ShopProcess[] = [];
async function shop(env: Record<string, string> = {}) {
  const process = await spawnShop(env);
  started.push(process);
  return process;
}
afterEach(async () => {
  await Promise.all(started.splice(0).map((p) => p.dispose()));
});

/** Waits for the exit, failing after `ms`; gives the exit and how long it took. */
async function exitWithin(shop: ShopProcess, ms: number) {
  const since = Date.now();
  const timeout = new Promise<never>((_, reject) =>
    setTimeout(() => reject(new Error(`still running after ${ms} ms:\n${shop.stdout()}\n${shop.stderr()}`)), ms).unref(),
  );
  const exit = await Promise.race([shop.exited, timeout]);
  return { ...exit, tookMs: Date.now() - since };
}

async function postJson(url: string, body: unknown) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: new URL(url).origin },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** The body of a GET as sent, still compressed (fetch would decompress it). */
function rawBody(url: string, encoding: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { "Accept-Encoding": encoding } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve(Buffer.concat(chunks)));
        res.on("error", reject);
      })
      .on("error", reject);
  });
}

describe("start-up", () => {
  it("refuses a production start with neither SHOP_MODE nor Stripe keys: exit code 1 and one French message", async () => {
    const refused = await shop({ SHOP_MODE: "" });
    const exit = await exitWithin(refused, 20_000);
    expect(exit.code).toBe(1);
    expect(refused.stderr().trim()).toBe(
      "Mode de la boutique non défini : ni SHOP_MODE ni clés Stripe. " +
        "Pour la démo, définissez SHOP_MODE=demo (c'est ce que fait npm start) ; pour la production, " +
        "définissez SHOP_MODE=live et les clés Stripe (STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY, STRIPE_WEBHOOK_SECRET) " +
        "avec SESSION_SECRET et ADMIN_PASSWORD.",
    );
    // It never listened, nor started the emulator.
    expect(await canBind(refused.port)).toBe(true);
    expect(await canBind(refused.emulatorPort)).toBe(true);
  });

  it("in demo mode, stops with exit code 1 and a French message when the emulator's port is taken", async () => {
    const emulatorPort = await freePort();
    const squatter = net.createServer();
    await new Promise<void>((resolve) => squatter.listen(emulatorPort, "127.0.0.1", resolve));
    try {
      const refused = await shop({ SHOP_MODE: "demo", STRIPE_EMULATOR_PORT: String(emulatorPort) });
      const exit = await exitWithin(refused, 20_000);
      expect(exit.code).toBe(1);
      expect(refused.stderr().trim()).toBe(
        `Le port ${emulatorPort} de l'émulateur Stripe est déjà utilisé (127.0.0.1). ` +
          "Arrêtez l'autre instance de la boutique ou choisissez un autre STRIPE_EMULATOR_PORT.",
      );
      expect(await canBind(refused.port)).toBe(true);
    } finally {
      await new Promise((resolve) => squatter.close(resolve));
    }
  });
  it("SIGTERM during the start (its database being made) waits for the start, stops it cleanly and exits 0", async () => {
    const starting = await shop({ SHOP_MODE: "demo" });
    // The database file appears once the start is under way: the migrations are running.
    const databaseFile = path.join(starting.dataDir, "shop.db");
    const deadline = Date.now() + 30_000;
    while (!existsSync(databaseFile) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 1));
    expect(existsSync(databaseFile)).toBe(true);
    starting.child.kill("SIGTERM");
    expect(await exitWithin(starting, 20_000)).toMatchObject({ code: 0, signal: null });
    expect(starting.stdout().match(/SIGTERM : arrêt de la boutique/g)).toHaveLength(1);
    expect(starting.stderr()).toBe("");
    expect(await canBind(starting.port)).toBe(true);
    expect(await canBind(starting.emulatorPort)).toBe(true);
  });
});

describe("the demo shop", () => {
  it("serves pages and assets with their cache lifetimes, logs no request, and SIGTERM during a payment exits 0 and frees both ports", async () => {
    const demo = await shop({ SHOP_MODE: "demo" });
    await demo.ready();
    // The emulator listened before the first request was answered.
    expect(await canBind(demo.emulatorPort)).toBe(false);

    const home = await fetch(`${demo.url}/`, { headers: { "Accept-Encoding": "gzip" } });
    expect(home.status).toBe(200);
    expect(home.headers.get("Content-Encoding")).toBe("gzip");
    const html = await home.text();
    expect(html).toContain("Boutique de démonstration : les paiements sont simulés");
    const asset = html.match(/\/assets\/[^"]+\.js/)?.[0];
    expect(asset).toBeDefined();
    const script = await fetch(`${demo.url}${asset}`);
    expect(script.status).toBe(200);
    expect(script.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    const favicon = await fetch(`${demo.url}/favicon.svg`);
    expect(favicon.status).toBe(200);
    expect(favicon.headers.get("Cache-Control")).toBe("public, max-age=604800");
    // Short JSON answers go as they are (with their length), long ones compressed.
    const short = await fetch(`${demo.url}/api/orders/123456789`, { headers: { "Accept-Encoding": "br, gzip" } });
    expect(short.status).toBe(404);
    expect(short.headers.get("Content-Encoding")).toBeNull();
    expect(Number(short.headers.get("Content-Length"))).toBe(new TextEncoder().encode(await short.text()).length);
    const added = await fetch(`${demo.url}/panier.data`, {
      method: "POST",
      headers: { Origin: demo.url, "Accept-Encoding": "br, gzip", "Content-Type": "application/x-www-form-urlencoded" },
      body: "intent=add&productId=1&packId=2&redirectTo=%2Fpanier",
    });
    expect(added.headers.get("Content-Encoding")).toBeNull();
    expect(Number(added.headers.get("Content-Length"))).toBeGreaterThan(0);
    expect(await decodeSingleFetch(added.body)).toMatchObject({ data: { ok: true, count: 1 } });
    const long = await fetch(`${demo.url}/api/openapi.json`, { headers: { "Accept-Encoding": "br, gzip" } });
    expect(long.headers.get("Content-Encoding")).toBe("br");
    // Live answers are compressed at the chosen levels: brotli 3 (not the library's 4), gzip 4.
    const plain = Buffer.from(await long.arrayBuffer());
    const brotliSizes = [3, 4].map(
      (quality) => zlib.brotliCompressSync(plain, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: quality } }).length,
    );
    const sentBrotli = (await rawBody(`${demo.url}/api/openapi.json`, "br")).length;
    expect(Math.abs(sentBrotli - brotliSizes[0])).toBeLessThan(Math.abs(sentBrotli - brotliSizes[1]));
    const gzipSizes = [4, 6].map((level) => zlib.gzipSync(plain, { level }).length);
    const sentGzip = (await rawBody(`${demo.url}/api/openapi.json`, "gzip")).length;
    expect(Math.abs(sentGzip - gzipSizes[0])).toBeLessThan(Math.abs(sentGzip - gzipSizes[1]));

    // A payment started through the API: the emulator holds its PaymentIntent.
    const order = await postJson(`${demo.url}/api/orders`, API_ORDER);
    expect(order.status).toBe(201);
    const payment = await postJson(`${demo.url}/api/payments/start`, { orderId: order.body.id, token: order.body.token });
    expect(payment).toMatchObject({ status: 200, body: { paid: false, clientSecret: expect.stringMatching(/^pi_/) } });

    demo.child.kill("SIGTERM");
    const exit = await exitWithin(demo, 5_000);
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(demo.stderr()).toBe("");
    // No access log without LOG_REQUESTS=1 (the output is complete once the process has exited).
    expect(demo.stdout()).not.toMatch(/\b(GET|POST) \//);
    expect(await canBind(demo.port)).toBe(true);
    expect(await canBind(demo.emulatorPort)).toBe(true);
  });

  it("writes one line per request with LOG_REQUESTS=1, and SIGINT ends it too", async () => {
    const logged = await shop({ SHOP_MODE: "demo", LOG_REQUESTS: "1" });
    await logged.ready();
    const favicon = await fetch(`${logged.url}/favicon.svg`);
    expect(favicon.status).toBe(200);
    // One JSON line: the request's id, its route, status and duration, and a readable message.
    const line = () => logLines(logged.stdout()).find((l) => /^GET \/favicon\.svg 200 \d+\.\d ms$/.test(String(l.msg)));
    await expect.poll(line).toMatchObject({
      level: "info",
      reqId: favicon.headers.get("X-Request-Id"),
      method: "GET",
      route: "/fichier",
      status: 200,
      durationMs: expect.any(Number),
    });

    logged.child.kill("SIGINT");
    expect(await exitWithin(logged, 5_000)).toMatchObject({ code: 0, signal: null });
    expect(await canBind(logged.port)).toBe(true);
    expect(await canBind(logged.emulatorPort)).toBe(true);
  });
});

/** The status of a GET sent from a given local address (any 127.x.y.z is this machine). */
function statusFrom(localAddress: string, url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { localAddress }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      })
      .on("error", reject);
  });
}

describe("rate limits across processes", () => {
  it("two shops on one database share the limit on unknown order numbers, and a rotated X-Forwarded-For does not escape it", async () => {
    const first = await shop({ SHOP_MODE: "demo" });
    await first.ready();
    const second = await shop({ SHOP_MODE: "demo", DATABASE_URL: `${first.dataDir}/shop.db` });
    await second.ready();
    const lookup = (server: ShopProcess, i: number) =>
      fetch(`${server.url}/api/orders/${900000 + i}`, { headers: { "X-Forwarded-For": `203.0.113.${i}` } });

    for (let i = 1; i <= 20; i++) {
      const response = await lookup(i % 2 ? first : second, i);
      expect(response.status).toBe(404);
    }
    for (const server of [first, second]) {
      const refused = await lookup(server, 99);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
      expect((await refused.json()).error).toMatch(/^Trop de numéros de commande introuvables ont été essayés\./);
    }
    // Another client (another loopback address) is not refused: the key is the TCP peer.
    expect(await statusFrom("127.0.0.2", `${second.url}/api/orders/900099`)).toBe(404);
  });
});

describe("emails from the running shop", () => {
  it("a contact message sent to the API reaches its author through SMTP_URL, and SIGTERM still exits 0", async () => {
    const inbox = await startSmtpInbox();
    try {
      const demo = await shop({ SHOP_MODE: "demo", SMTP_URL: inbox.url, MAIL_FROM: "Maison Éclat <commandes@maison-eclat.fr>" });
      await demo.ready();
      const sent = await postJson(`${demo.url}/api/contact`, {
        name: "Léa Petit",
        email: "lea@example.fr",
        subject: "Livraison",
        message: "Bonjour, livrez-vous en Belgique ?",
      });
      expect(sent.status).toBe(201);
      const messages = await inbox.waitFor(2, 15_000);
      const ack = messages.find((m) => m.subject === "Nous avons bien reçu votre message")!;
      expect(ack.from?.value[0]).toMatchObject({ name: "Maison Éclat", address: "commandes@maison-eclat.fr" });
      // The subject only: the message, typed by anyone for any address, is not sent back.
      expect(ack.text).toContain("Objet : Livraison");
      expect(ack.text).not.toContain("livrez-vous en Belgique ?");

      demo.child.kill("SIGTERM");
      expect(await exitWithin(demo, 5_000)).toMatchObject({ code: 0, signal: null });
      expect(demo.stderr()).toBe("");
    } finally {
      await inbox.close();
    }
  });
});
