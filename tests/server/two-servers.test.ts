import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import type { ParsedMail } from "mailparser";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HANDLED_WEBHOOK_EVENTS } from "../../app/services/payments/webhook-events.js";
import { postgresBinaries, startPostgres, type TestPostgres } from "../helpers/postgres";
import { startSmtpInbox, type SmtpInbox } from "../helpers/smtp-inbox";
import { api, placeOrder, stripeEmulator, type StripeEmulator } from "./shop-api";
import { freePort, spawnShop, type ShopProcess } from "./shop-process";

/**
 * Two shop servers (two production processes, each on its own port) on one PostgreSQL database,
 * behind a load balancer that hands each request to the next server in turn, as a shop that
 * outgrew one machine runs: the shoppers, the Stripe webhooks (the emulator of demo mode, run by
 * the first server, sends them to the balancer's address) and the emails (one SMTP inbox) see
 * one shop. Then one server is killed in the middle of a run of checkouts.
 */

type Balancer = {
  url: string;
  /** Each request answered: its path and the server (0 or 1) that answered it. */
  log: Array<{ path: string; server: number }>;
  close(): Promise<void>;
};

/**
 * Round robin over the servers. A server that refuses the connection (it is dead) is taken out
 * and the request, which it never received, goes to the other; a request a server dies in the
 * middle of gets a 502, as a real balancer answers.
 */
async function startBalancer(servers: string[] = []): Promise<Balancer & { servers: string[] }> {
  const log: Balancer["log"] = [];
  const down = new Set<number>();
  let turn = 0;
  const proxy = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks);
      const forward = (tries: number) => {
        const alive = servers.map((_, i) => i).filter((i) => !down.has(i));
        const server = alive[turn++ % alive.length];
        const upstream = http.request(
          new URL(request.url!, servers[server]),
          { method: request.method, headers: request.headers, agent: false },
          (answer) => {
            log.push({ path: request.url!, server });
            response.writeHead(answer.statusCode!, answer.headers);
            answer.pipe(response);
          },
        );
        upstream.on("error", (error: NodeJS.ErrnoException) => {
          if (error.code === "ECONNREFUSED" && tries < servers.length) {
            down.add(server);
            forward(tries + 1);
          } else if (!response.headersSent) {
            response.writeHead(502, { "Content-Type": "text/plain" }).end("Bad Gateway");
          } else response.destroy();
        });
        upstream.end(body);
      };
      forward(1);
    });
  });
  const port = await freePort();
  await new Promise<void>((resolve) => proxy.listen(port, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${port}`, servers, log, close: () => new Promise((resolve) => proxy.close(() => resolve())) };
}

const recipients = (mail: ParsedMail) =>
  (Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : []).flatMap((to) => to.value.map((v) => v.address));

describe.skipIf(!postgresBinaries())("two servers, one PostgreSQL database", () => {
  let database: TestPostgres;
  let inbox: SmtpInbox;
  let balancer: Balancer;
  let shared: string;
  let db: pg.Pool;
  const servers: ShopProcess[] = [];
  let stripe: StripeEmulator;

  beforeAll(async () => {
    database = await startPostgres();
    inbox = await startSmtpInbox();
    db = new pg.Pool({ connectionString: database.url, max: 2 });
    // The demo's secrets (cookies, webhooks, the emulator's key) are the same on both servers.
    shared = mkdtempSync(path.join(os.tmpdir(), "shop-two-servers-"));
    const emulatorPort = await freePort();
    const balanced = await startBalancer();
    balancer = balanced;
    const env = {
      SHOP_MODE: "demo",
      DATABASE_URL: database.url,
      DATA_DIR: shared,
      PUBLIC_URL: balancer.url,
      SMTP_URL: inbox.url,
      TRUST_PROXY: "1",
      STRIPE_EMULATOR_PORT: String(emulatorPort),
    };
    // The first server runs the emulator; the second uses it, as both would use Stripe.
    servers.push(await spawnShop(env));
    await servers[0].ready();
    servers.push(await spawnShop({ ...env, SHOP_STRIPE_EMULATOR_SHARED: "1" }));
    await servers[1].ready();
    balanced.servers.push(servers[0].url, servers[1].url);
    stripe = stripeEmulator(`http://127.0.0.1:${emulatorPort}`, shared);
  }, 120_000);

  afterAll(async () => {
    // What the servers reported, to tell a failure's cause.
    for (const [i, server] of servers.entries())
      if (server.stderr()) console.log(`Serveur ${i} :\n${server.stderr().slice(-4000)}`);
    await Promise.all(servers.map((server) => server.dispose()));
    await balancer?.close();
    await inbox?.close();
    await db?.end();
    await database?.stop();
    if (shared) rmSync(shared, { recursive: true, force: true });
  });

  /** A shopper's request through the balancer; `retries`: tries again after a 502. */
  const call = (pathname: string, body: unknown, shopper: number, retries = 0) =>
    api(balancer.url, pathname, { body, shopper, retries });

  const acknowledged = { orders: [] as number[], paid: [] as number[] };

  /** A shopper's whole checkout: the order, the payment's start, the card at Stripe, the shop's check. */
  async function checkout(email: string, shopper: number, retries = 0) {
    const order = await placeOrder(balancer.url, email, shopper, retries);
    const orderId = order.id;
    acknowledged.orders.push(orderId);
    let start = await call("/api/payments/start", { orderId, mode: "one_off", token: order.token }, shopper, retries);
    if (retries > 0 && start.status === 409 && start.body.code === "resource_already_exists") {
      // The start was under way on the server that died: its lock on the order expires after
      // 2 minutes (moved forward here), then the shopper's next try starts the payment.
      await db.query("UPDATE leases SET expires_at = 0 WHERE name = $1", [`payment-start:${orderId}`]);
      start = await call("/api/payments/start", { orderId, mode: "one_off", token: order.token }, shopper, retries);
    }
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    await stripe.payWithCard(start.body.paymentIntentId as string);
    const paid = await call("/api/payments/confirm", { orderId, token: order.token }, shopper, retries);
    expect(paid.body, JSON.stringify(paid.body)).toMatchObject({ paid: true, paymentStatus: "paid" });
    acknowledged.paid.push(orderId);
    return orderId;
  }

  const stock = async () => Number((await db.query("SELECT stock FROM products WHERE id = 1")).rows[0].stock);

  /** Stripe's events so far, oldest first, each with the shop's answer to each of its deliveries. */
  const stripeEvents = async () =>
    (await stripe.get("/__emulator/events")).data as Array<{ type: string; deliveries: Array<{ status: number }> }>;

  it("50 checkouts at once over both servers: 50 orders, each paid once, the stock down once each, one confirmation email each", async () => {
    // One checkout first: what one order takes from the stock.
    const before = await stock();
    await checkout("deux-serveurs-0@example.fr", 0);
    const perOrder = before - (await stock());
    expect(perOrder).toBeGreaterThan(0);

    const served = balancer.log.length;
    const emails = Array.from({ length: 50 }, (_, i) => `deux-serveurs-${i + 1}@example.fr`);
    const ids = await Promise.all(emails.map((email, i) => checkout(email, i + 1)));
    expect(new Set(ids).size).toBe(50);
    // Both servers took part, in checkouts and in Stripe's webhooks. Stripe sends its events on
    // its own time, after the payments: one per payment (payment_intent.succeeded; the endpoint is
    // subscribed to the events the shop handles only).
    const webhooksOfRun = () => balancer.log.slice(served).filter((r) => r.path === "/api/stripe/webhook");
    await expect.poll(() => webhooksOfRun().length, { timeout: 30_000 }).toBeGreaterThanOrEqual(50);
    const run = balancer.log.slice(served);
    expect(new Set(run.filter((r) => r.path.startsWith("/api/orders")).map((r) => r.server))).toEqual(new Set([0, 1]));
    expect(new Set(webhooksOfRun().map((r) => r.server))).toEqual(new Set([0, 1]));

    const orders = await db.query("SELECT id, payment_status FROM orders WHERE id = ANY($1)", [ids]);
    expect(orders.rows).toHaveLength(50);
    expect(orders.rows.every((o) => o.payment_status === "paid")).toBe(true);
    const invoices = await db.query(
      "SELECT order_id, count(*)::int AS n FROM invoices WHERE kind = 'invoice' AND order_id = ANY($1) GROUP BY order_id",
      [ids],
    );
    expect(invoices.rows).toHaveLength(50);
    expect(invoices.rows.every((row) => row.n === 1)).toBe(true);
    const numbers = await db.query("SELECT count(DISTINCT number)::int AS n FROM invoices WHERE order_id = ANY($1)", [ids]);
    expect(numbers.rows[0].n).toBe(50);
    expect(await stock()).toBe(before - 51 * perOrder);

    // Each shopper's confirmation arrives once, though both servers run an email sender. Nothing
    // more leaves for these orders once none of their emails (queued with the payment) waits or is
    // being sent: a sent email is never taken again, and the inbox holds each message before the
    // sender hears it was accepted and marks it sent.
    const unsent = async () => {
      const waiting = "SELECT count(*)::int AS n FROM emails WHERE order_id = ANY($1) AND status IN ('pending', 'sending')";
      return (await db.query(waiting, [ids])).rows[0].n as number;
    };
    await expect.poll(unsent, { timeout: 60_000 }).toBe(0);
    const confirmationsOf = (email: string) =>
      inbox.messages.filter((m) => recipients(m).includes(email) && /Commande/i.test(m.subject ?? ""));
    expect(emails.filter((email) => confirmationsOf(email).length !== 1)).toEqual([]);
    const queued = await db.query(
      "SELECT order_id, count(*)::int AS n FROM emails WHERE kind = 'order_confirmation' AND order_id = ANY($1) GROUP BY order_id",
      [ids],
    );
    expect(queued.rows.every((row) => row.n === 1)).toBe(true);
  }, 180_000);

  /**
   * The most write transactions seen open at once while `run` runs: sessions that have written
   * (they hold a transaction id) and wait, between two statements, for the next one of their
   * transaction. A statement outside a transaction is never in that state.
   */
  async function mostWritersAtOnce(run: () => Promise<unknown>) {
    const sampler = new pg.Client({ connectionString: database.url });
    await sampler.connect();
    let most = 0;
    let running = true;
    const sampling = (async () => {
      while (running) {
        const { rows } = await sampler.query(
          `SELECT count(*)::int AS n FROM pg_stat_activity
            WHERE datname = current_database() AND backend_xid IS NOT NULL AND state = 'idle in transaction'`,
        );
        most = Math.max(most, rows[0].n as number);
      }
    })();
    try {
      await run();
    } finally {
      running = false;
      await sampling;
      await sampler.end();
    }
    return most;
  }

  it("50 payments of different orders at once on both servers write side by side; invoice numbers stay gapless and unique", async () => {
    // 50 orders whose payment is started (10 shoppers at a time: this is not what is measured).
    const orders: Array<{ id: number; token: string; shopper: number; paymentIntentId: string }> = [];
    for (let batch = 0; batch < 5; batch++) {
      await Promise.all(
        Array.from({ length: 10 }, async (_, i) => {
          const shopper = 500 + batch * 10 + i;
          const order = await placeOrder(balancer.url, `ensemble-${shopper}@example.fr`, shopper);
          const start = await call("/api/payments/start", { orderId: order.id, mode: "one_off", token: order.token }, shopper);
          expect(start.status, JSON.stringify(start.body)).toBe(200);
          orders.push({ ...order, shopper, paymentIntentId: start.body.paymentIntentId as string });
        }),
      );
    }
    const before = await stock();
    const served = balancer.log.length;
    // The 50 shoppers pay at once: the card at Stripe (whose webhooks reach both servers), then the shop's confirmation.
    const most = await mostWritersAtOnce(async () => {
      const answers = await Promise.all(
        orders.map(async (order) => {
          await stripe.payWithCard(order.paymentIntentId);
          return await call("/api/payments/confirm", { orderId: order.id, token: order.token }, order.shopper);
        }),
      );
      expect(answers.map((answer) => answer.body.paid)).toEqual(orders.map(() => true));
    });
    // Both servers confirmed payments, and at some moment at least two payments were writing at once.
    const confirms = balancer.log.slice(served).filter((r) => r.path === "/api/payments/confirm");
    expect(new Set(confirms.map((r) => r.server))).toEqual(new Set([0, 1]));
    expect(most).toBeGreaterThanOrEqual(2);

    const ids = orders.map((order) => order.id);
    const paid = await db.query("SELECT count(*)::int AS n FROM orders WHERE id = ANY($1) AND payment_status = 'paid'", [ids]);
    expect(paid.rows[0].n).toBe(50);
    // Every invoice of the shop so far: numbers 1 to n, each once; one per order of this run.
    const numbering = await db.query(
      "SELECT count(*)::int AS n, count(DISTINCT number)::int AS numbers, max(sequence) AS last FROM invoices WHERE kind = 'invoice'",
    );
    expect(numbering.rows[0]).toEqual({ n: numbering.rows[0].n, numbers: numbering.rows[0].n, last: numbering.rows[0].n });
    const perOrder = await db.query(
      "SELECT count(*)::int AS n FROM invoices WHERE kind = 'invoice' AND order_id = ANY($1) GROUP BY order_id HAVING count(*) <> 1",
      [ids],
    );
    expect(perOrder.rows).toEqual([]);
    expect(
      (await db.query("SELECT count(DISTINCT order_id)::int AS n FROM invoices WHERE order_id = ANY($1)", [ids])).rows[0].n,
    ).toBe(50);
    // The stock, down once per order whatever the webhooks that follow (one per payment).
    const webhooks = () => balancer.log.slice(served).filter((r) => r.path === "/api/stripe/webhook").length;
    await expect.poll(webhooks, { timeout: 30_000 }).toBeGreaterThanOrEqual(50);
    const sold = await db.query(
      "SELECT coalesce(sum(quantity), 0)::int AS n FROM order_items WHERE product_id = 1 AND order_id = ANY($1)",
      [ids],
    );
    expect(await stock()).toBe(before - sold.rows[0].n);
  }, 120_000);

  it("a subscription's webhooks reach both servers; its renewal becomes one order, paid once", async () => {
    const order = await placeOrder(balancer.url, "abonnee.deux-serveurs@example.fr", 900);
    const orderId = order.id;
    const served = balancer.log.length;
    const eventsBefore = (await stripeEvents()).length;
    const started = await call("/api/create-subscription", { orderId, token: order.token }, 900);
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    await stripe.payWithCard(String(started.body.clientSecret).split("_secret_")[0]);
    await expect
      .poll(async () => (await db.query("SELECT payment_status FROM orders WHERE id = $1", [orderId])).rows[0].payment_status, {
        timeout: 20_000,
      })
      .toBe("paid");

    // Stripe's next period, on the customer's test clock: the renewal's invoice is paid at Stripe.
    const subscription = (await stripe.get(`/v1/subscriptions/${started.body.subscriptionId}`)) as {
      customer: string;
      current_period_end?: number;
      items?: { data: Array<{ current_period_end: number }> };
    };
    const customer = (await stripe.get(`/v1/customers/${subscription.customer}`)) as { test_clock: string };
    const periodEnd = subscription.current_period_end ?? subscription.items!.data[0].current_period_end;
    await stripe.post(`/v1/test_helpers/test_clocks/${customer.test_clock}/advance`, { frozen_time: String(periodEnd + 3600) });
    const renewals = () =>
      db.query(
        "SELECT id, payment_status FROM orders WHERE subscription_id = (SELECT subscription_id FROM orders WHERE id = $1) AND id <> $1",
        [orderId],
      );
    await expect.poll(async () => (await renewals()).rows.map((r) => r.payment_status), { timeout: 30_000 }).toEqual(["paid"]);

    const webhooks = balancer.log.slice(served).filter((r) => r.path === "/api/stripe/webhook");
    expect(webhooks.length).toBeGreaterThanOrEqual(4);
    expect(new Set(webhooks.map((r) => r.server))).toEqual(new Set([0, 1]));
    // Replays change nothing: still one renewal, one invoice for it, once Stripe has nothing more
    // to send. The clock's advance ran in one go (its renewal is paid), and each of its events has
    // been answered by the shop, which answers once it has applied the event (the events its
    // endpoint is subscribed to: Stripe sends no other).
    const unanswered = async () =>
      (await stripeEvents())
        .slice(eventsBefore)
        .filter((event) => HANDLED_WEBHOOK_EVENTS.includes(event.type as (typeof HANDLED_WEBHOOK_EVENTS)[number]))
        .filter((event) => !event.deliveries.some((delivery) => delivery.status >= 200 && delivery.status < 300))
        .map((event) => event.type);
    await expect.poll(unanswered, { timeout: 30_000 }).toEqual([]);
    const [renewal] = (await renewals()).rows;
    expect((await renewals()).rows).toHaveLength(1);
    expect(
      (await db.query("SELECT count(*)::int AS n FROM invoices WHERE kind = 'invoice' AND order_id = $1", [renewal.id])).rows[0]
        .n,
    ).toBe(1);
  }, 120_000);

  it("a server killed in the middle of checkouts loses no order it acknowledged", async () => {
    acknowledged.orders.length = 0;
    acknowledged.paid.length = 0;
    const run = Promise.allSettled(Array.from({ length: 30 }, (_, i) => checkout(`coupure-${i}@example.fr`, 1000 + i, 3)));
    await expect.poll(() => acknowledged.paid.length, { timeout: 60_000 }).toBeGreaterThanOrEqual(5);
    servers[1].child.kill("SIGKILL");
    const results = await run;
    // The shoppers who got a 502 in the middle tried again on the living server.
    const failed = results.filter((r) => r.status === "rejected").map((r) => String((r as PromiseRejectedResult).reason));
    expect(failed).toEqual([]);
    const orders = await db.query("SELECT id, payment_status FROM orders WHERE id = ANY($1)", [acknowledged.orders]);
    expect(orders.rows.map((o) => o.id).sort()).toEqual([...new Set(acknowledged.orders)].sort());
    const paid = new Set(orders.rows.filter((o) => o.payment_status === "paid").map((o) => o.id));
    expect(acknowledged.paid.filter((id) => !paid.has(id))).toEqual([]);
    expect(acknowledged.paid).toHaveLength(30);
  }, 120_000);
});
