import http from "node:http";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { api, placeOrder, stripeEmulator } from "./shop-api";
import { logLines, spawnShop, type ShopProcess } from "./shop-process";

/**
 * What whoever runs the shop sees of it, on the production entry: /healthz, /readyz (503 during
 * the graceful stop), /metrics (its token, the figures of every worker), the request ids, and
 * logs that a machine reads and that hold no personal data.
 */

const METRICS_TOKEN = "jeton-des-metriques-0123456789";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const started: ShopProcess[] = [];
async function shop(env: Record<string, string> = {}) {
  const process = await spawnShop({ SHOP_MODE: "demo", ...env });
  started.push(process);
  await process.ready();
  return process;
}
afterEach(async () => {
  await Promise.all(started.splice(0).map((p) => p.dispose()));
});

async function exitWithin(shop: ShopProcess, ms: number) {
  const timeout = new Promise<never>((_, reject) =>
    setTimeout(() => reject(new Error(`still running after ${ms} ms:\n${shop.stdout()}\n${shop.stderr()}`)), ms).unref(),
  );
  return Promise.race([shop.exited, timeout]);
}

/** One GET on a connection of `agent` (or a new one). */
function get(url: string, agent?: http.Agent, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    http
      .get(url, { agent, headers }, (response) => {
        let body = "";
        response.on("data", (chunk: Buffer) => (body += chunk.toString()));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
      })
      .on("error", reject);
  });
}

/**
 * A POST whose body is sent in two parts: the server holds the request (in flight) until
 * `finish()` sends the rest.
 */
function requestInFlight(url: string, body: unknown) {
  const text = JSON.stringify(body);
  const half = Math.floor(text.length / 2);
  const request = http.request(url, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "Content-Length": Buffer.byteLength(text),
      Origin: new URL(url).origin,
      Connection: "close",
    },
  });
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    request.on("response", (response) => {
      let received = "";
      response.on("data", (chunk: Buffer) => (received += chunk.toString()));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body: received }));
    });
    request.on("error", reject);
  });
  request.write(text.slice(0, half));
  return { answer, finish: () => request.end(text.slice(half)) };
}

/** The value of a metric's line (name and labels as written), or undefined. */
function metric(text: string, line: string): number | undefined {
  const found = text.split("\n").find((l) => l.startsWith(`${line} `));
  return found === undefined ? undefined : Number(found.slice(line.length + 1));
}

async function metrics(base: string) {
  const response = await fetch(`${base}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
  expect(response.status).toBe(200);
  return response.text();
}

describe("health and readiness", () => {
  it("/healthz and /readyz answer 200, never cached, telling nothing of the set-up", async () => {
    const demo = await shop();
    const health = await fetch(`${demo.url}/healthz`);
    expect(health.status).toBe(200);
    expect(health.headers.get("Cache-Control")).toBe("no-store");
    expect(await health.json()).toEqual({ status: "ok" });
    const ready = await fetch(`${demo.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(ready.headers.get("Cache-Control")).toBe("no-store");
    const text = await ready.text();
    expect(JSON.parse(text)).toEqual({ status: "prête" });
    expect(text).not.toMatch(/\d+\.\d+|\/|sqlite|node/i);
  });

  it("after SIGTERM, with a request in flight, /readyz answers 503 at once while that request ends normally", async () => {
    const demo = await shop({ SHUTDOWN_DRAIN_MS: "1500" });
    const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 1 });
    expect((await get(`${demo.url}/readyz`, keepAlive)).status).toBe(200);

    const inFlight = requestInFlight(`${demo.url}/api/contact`, {
      name: "Léa Petit",
      email: "lea@example.fr",
      subject: "Livraison",
      message: "Bonjour, livrez-vous en Belgique ?",
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const since = Date.now();
    demo.child.kill("SIGTERM");
    // On the connection the load balancer keeps, and on a new one: 503 with its reason, straight away.
    await expect.poll(async () => (await get(`${demo.url}/readyz`, keepAlive)).status, { interval: 20 }).toBe(503);
    const fresh = await get(`${demo.url}/readyz`);
    expect(fresh.status).toBe(503);
    expect(JSON.parse(fresh.body)).toEqual({ status: "indisponible", raison: "La boutique s'arrête." });
    expect(Date.now() - since).toBeLessThan(1_000);
    // Still alive and serving what comes until the drain ends.
    expect((await get(`${demo.url}/healthz`)).status).toBe(200);

    inFlight.finish();
    const answered = await inFlight.answer;
    expect(answered.status).toBe(201);
    expect(await exitWithin(demo, 8_000)).toMatchObject({ code: 0, signal: null });
    keepAlive.destroy();
  });
});

describe("request ids", () => {
  it("every answer carries its own id, a cached page too, and a trusted proxy's id is kept only when plain", async () => {
    const direct = await shop();
    const first = await fetch(`${direct.url}/`);
    const second = await fetch(`${direct.url}/`);
    expect(second.headers.get("X-Cache")).toBe("HIT");
    expect(first.headers.get("X-Request-Id")).toMatch(UUID);
    expect(second.headers.get("X-Request-Id")).toMatch(UUID);
    expect(second.headers.get("X-Request-Id")).not.toBe(first.headers.get("X-Request-Id"));
    // Without a trusted proxy, a client does not choose its id.
    const chosen = await fetch(`${direct.url}/`, { headers: { "X-Request-Id": "abc-123" } });
    expect(chosen.headers.get("X-Request-Id")).toMatch(UUID);

    const proxied = await shop({ TRUST_PROXY: "1" });
    const kept = await fetch(`${proxied.url}/`, { headers: { "X-Request-Id": "lb-7f3a.42:1" } });
    expect(kept.headers.get("X-Request-Id")).toBe("lb-7f3a.42:1");
    expect(kept.headers.get("X-Cache")).not.toBeNull();
    const again = await fetch(`${proxied.url}/`);
    expect(again.headers.get("X-Request-Id")).toMatch(UUID);
    const unsafe = await fetch(`${proxied.url}/healthz`, { headers: { "X-Request-Id": "<script>alert(1)</script>" } });
    expect(unsafe.headers.get("X-Request-Id")).toMatch(UUID);
    const long = await fetch(`${proxied.url}/healthz`, { headers: { "X-Request-Id": "a".repeat(65) } });
    expect(long.headers.get("X-Request-Id")).toMatch(UUID);
  });
});

describe("/metrics", () => {
  it("does not exist without METRICS_TOKEN", async () => {
    const demo = await shop();
    const response = await fetch(`${demo.url}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(response.status).toBe(404);
  });

  it("asks for its token, then gives the requests, the page cache, the orders, the refusals and the outbox, never cached", async () => {
    const demo = await shop({ METRICS_TOKEN, TRUST_PROXY: "1" });
    const missing = await fetch(`${demo.url}/metrics`);
    expect(missing.status).toBe(401);
    expect(missing.headers.get("WWW-Authenticate")).toMatch(/^Bearer/);
    expect((await missing.json()).error).toMatch(/^Jeton d'accès aux métriques manquant ou invalide/);
    const wrong = await fetch(`${demo.url}/metrics`, { headers: { Authorization: "Bearer jeton-faux-0123456789abcd" } });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).not.toContain("shop_");

    const home = 'shop_http_request_duration_seconds_count{route="/",method="GET",status="200"}';
    // The start's own check asked for / already.
    const homeBefore = metric(await metrics(demo.url), home) ?? 0;
    await fetch(`${demo.url}/`);
    await fetch(`${demo.url}/`);
    await fetch(`${demo.url}/product/1`);
    await placeOrder(demo.url, "camille.martin@example.fr", 1);
    // Unknown order numbers from one address: refused past the limit.
    let refused = 0;
    for (let i = 0; i < 25 && refused === 0; i++) {
      const lookup = await api(demo.url, `/api/orders/${900000 + i}`, { shopper: 42 });
      if (lookup.status === 429) refused++;
    }
    expect(refused).toBe(1);

    const response = await fetch(`${demo.url}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    expect(response.headers.get("Content-Type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    expect(metric(text, home)).toBe(homeBefore + 2);
    expect(metric(text, 'shop_http_request_duration_seconds_count{route="/metrics",method="GET",status="200"}')).toBe(1);
    expect(metric(text, 'shop_http_request_duration_seconds_count{route="/metrics",method="GET",status="401"}')).toBe(2);
    expect(metric(text, 'shop_http_request_duration_seconds_count{route="/product/:id",method="GET",status="200"}')).toBe(1);
    expect(metric(text, 'shop_http_request_duration_seconds_count{route="/api/orders",method="POST",status="201"}')).toBe(1);
    expect(metric(text, 'shop_page_cache_answers_total{outcome="hit"}')).toBeGreaterThanOrEqual(1);
    expect(metric(text, 'shop_page_cache_answers_total{outcome="miss"}')).toBeGreaterThanOrEqual(1);
    expect(metric(text, "shop_orders_created_total")).toBe(1);
    expect(metric(text, "shop_orders_paid_total")).toBe(0);
    expect(metric(text, 'shop_rate_limit_refusals_total{limit="order-lookup"}')).toBe(1);
    expect(metric(text, 'shop_emails{status="queued"}')).toBeGreaterThanOrEqual(0);
    expect(metric(text, "shop_email_oldest_queued_age_seconds")).toBeGreaterThanOrEqual(0);
    expect(metric(text, "shop_webhook_oldest_unprocessed_age_seconds")).toBe(0);
    expect(metric(text, "nodejs_eventloop_lag_seconds")).toBeGreaterThanOrEqual(0);
  });

  it("with two workers, gives the requests of both, aggregated by the primary", async () => {
    const cluster = await shop({ METRICS_TOKEN, WEB_CONCURRENCY: "2", SHOP_EXPOSE_WORKER: "1" });
    await expect.poll(() => cluster.stdout(), { timeout: 30_000 }).toMatch(/^Boutique en mode /m);
    // New connections: the cluster hands them to both workers in turn.
    // The last worker started may still be warming up: asked until both have answered.
    const answered = new Map<string, number>();
    let asked = 0;
    const deadline = Date.now() + 20_000;
    while ((answered.size < 2 || asked < 20) && Date.now() < deadline) {
      const answer = await get(`${cluster.url}/healthz`, undefined, { Connection: "close" });
      expect(answer.status).toBe(200);
      asked++;
      const worker = String(answer.headers["x-worker"]);
      answered.set(worker, (answered.get(worker) ?? 0) + 1);
    }
    expect(answered.size).toBe(2);
    const text = await metrics(cluster.url);
    expect(metric(text, 'shop_http_request_duration_seconds_count{route="/healthz",method="GET",status="200"}')).toBe(asked);
  });
});

describe("logs", () => {
  it("a purchase with every request logged writes JSON lines with the request's id, and neither the buyer's email nor street", async () => {
    const email = "heloise.vasseur@exemple-client.fr";
    const street = "37 impasse des Glycines";
    const demo = await shop({ LOG_REQUESTS: "1", LOG_LEVEL: "debug", TRUST_PROXY: "1" });
    const stripe = stripeEmulator(`http://127.0.0.1:${demo.emulatorPort}`, demo.dataDir);

    const order = await api(demo.url, "/api/orders", {
      body: {
        customerEmail: email,
        customerName: "Héloïse Vasseur",
        shippingAddress: street,
        shippingPostalCode: "69003",
        shippingCity: "Lyon",
        items: [{ productId: 1, packId: 2, quantity: 1 }],
      },
      shopper: 3,
    });
    expect(order.status, JSON.stringify(order.body)).toBe(201);
    const orderId = order.body.id as number;
    const token = order.body.token as string;
    const start = await api(demo.url, "/api/payments/start", { body: { orderId, mode: "one_off", token }, shopper: 3 });
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    await stripe.payWithCard(start.body.paymentIntentId as string);
    const paid = await api(demo.url, "/api/payments/confirm", { body: { orderId, token }, shopper: 3 });
    expect(paid.body).toMatchObject({ paid: true });
    // The order looked up with its email and token in the query string.
    const tracked = await fetch(`${demo.url}/api/orders/${orderId}?token=${token}&email=${encodeURIComponent(email)}`);
    expect(tracked.status).toBe(200);
    // The webhook of the payment and the confirmation emails (demo mailbox) go through too.
    await expect.poll(() => demo.stdout(), { timeout: 15_000 }).toMatch(/POST \/api\/stripe\/webhook 200/);

    demo.child.kill("SIGTERM");
    expect(await exitWithin(demo, 8_000)).toMatchObject({ code: 0 });
    const output = demo.stdout() + demo.stderr();
    expect(output).not.toContain(email);
    expect(output).not.toContain(encodeURIComponent(email));
    expect(output).not.toContain(street);
    expect(output).not.toContain(token);
    expect(output).not.toContain("Vasseur");

    // One JSON line per request, with its id, route, status and duration.
    const lines = logLines(demo.stdout());
    const created = lines.find((line) => line.route === "/api/orders" && line.method === "POST");
    expect(created).toMatchObject({
      level: "info",
      status: 201,
      reqId: order.headers.get("X-Request-Id"),
      msg: expect.stringMatching(/^POST \/api\/orders 201 \d+\.\d ms$/),
    });
    expect(typeof created?.durationMs).toBe("number");
    expect(typeof created?.time).toBe("string");
  });

  it("an unexpected error page shows the request's id as its reference, and the error's log line has it", async () => {
    const demo = await shop();
    // The settings every page reads vanish from under the running shop: an unexpected failure.
    const db = new Database(path.join(demo.dataDir, "shop.db"));
    db.exec("ALTER TABLE site_settings RENAME TO site_settings_hidden");
    db.close();
    const response = await fetch(`${demo.url}/faq`);
    expect(response.status).toBe(500);
    const id = response.headers.get("X-Request-Id");
    expect(id).toMatch(UUID);
    const html = await response.text();
    expect(html).toContain("Une erreur est survenue");
    expect(html).toMatch(new RegExp(`Référence de l(?:'|&#x27;)erreur : <span class="font-mono">${id}</span>`));
    await expect.poll(() => logLines(demo.stderr()).some((line) => line.reqId === id && line.level === "error")).toBe(true);
  });
});
