import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { postgresBinaries, startPostgres, type TestPostgres } from "../helpers/postgres";
import { adminCookie, api, placeOrder, stripeEmulator } from "./shop-api";
import { spawnShop, type ShopProcess } from "./shop-process";

/**
 * Moving a shop: a demo shop on SQLite takes orders (paid, refunded, unpaid), a subscription and
 * a contact request, and sends their emails; it is stopped, copied into an empty PostgreSQL
 * database with `npm run db:copy-to-postgres`, and started again on PostgreSQL. Its
 * administrator and its customers read the same through the API.
 */

const run = promisify(execFile);

/** The array a list answer is, or holds (`{ emails: [...] }`...). */
function listOf(body: Record<string, unknown>): Array<Record<string, unknown>> {
  const list = Array.isArray(body) ? body : Object.values(body).find(Array.isArray);
  expect(list, JSON.stringify(body).slice(0, 300)).toBeDefined();
  return list as Array<Record<string, unknown>>;
}

/** Everything the API tells of the shop's data, read by its administrator and by a customer. */
async function readShop(base: string, customer: { id: number; token: string }) {
  const cookie = await adminCookie(base);
  const get = async (pathname: string) => {
    const answer = await api(base, pathname, { cookie, shopper: 4242 });
    expect(answer.status, `${pathname}: ${JSON.stringify(answer.body).slice(0, 300)}`).toBe(200);
    return answer.body;
  };
  const orders = listOf(await get("/api/orders?view=all"));
  const subscriptions = listOf(await get("/api/admin/subscriptions"));
  const emails = listOf(await get("/api/admin/emails"));
  return {
    orders,
    details: await Promise.all(
      orders.map(async ({ id }) => ({
        order: await get(`/api/orders/${id}`),
        items: await get(`/api/orders/${id}/items`),
        refunds: await get(`/api/admin/orders/${id}/refunds`),
      })),
    ),
    subscriptions,
    emails,
    emailDetails: await Promise.all(emails.map(({ id }) => get(`/api/admin/emails/${id}`))),
    contacts: await get("/api/admin/contacts"),
    // The revenue and the packs' sales, from the hourly totals PostgreSQL recomputes as the invoices are copied.
    analytics: await get("/api/admin/analytics"),
    products: (await api(base, "/api/products")).body,
    settings: (await api(base, "/api/settings")).body,
    // What the customer with the order's token reads.
    customerView: (await api(base, `/api/orders/${customer.id}?token=${customer.token}`)).body,
  };
}

describe.skipIf(!postgresBinaries())("a SQLite shop copied to PostgreSQL", () => {
  const shops: ShopProcess[] = [];
  let database: TestPostgres | undefined;
  const shared = mkdtempSync(path.join(os.tmpdir(), "shop-copy-"));
  afterAll(async () => {
    await Promise.all(shops.map((shop) => shop.dispose()));
    await database?.stop();
    rmSync(shared, { recursive: true, force: true });
  });

  it("reads the same through the API: orders, refunds, subscription, emails, contact requests, analytics", async () => {
    // The demo's secrets (the emulator's key, the cookies') stay with the shop when it moves.
    const onSqlite = await spawnShop({ SHOP_MODE: "demo", DATA_DIR: shared, TRUST_PROXY: "1" });
    shops.push(onSqlite);
    await onSqlite.ready();
    const stripe = stripeEmulator(`http://127.0.0.1:${onSqlite.emulatorPort}`, shared);
    const base = onSqlite.url;

    const paid = [];
    for (let i = 0; i < 3; i++) {
      const order = await placeOrder(base, `copie-${i}@example.fr`, i + 1);
      const start = await api(base, "/api/payments/start", {
        body: { orderId: order.id, mode: "one_off", token: order.token },
        shopper: i + 1,
      });
      expect(start.status, JSON.stringify(start.body)).toBe(200);
      await stripe.payWithCard(start.body.paymentIntentId as string);
      const confirmed = await api(base, "/api/payments/confirm", {
        body: { orderId: order.id, token: order.token },
        shopper: i + 1,
      });
      expect(confirmed.body).toMatchObject({ paid: true });
      paid.push(order);
    }
    const cookie = await adminCookie(base);
    const partial = await api(base, `/api/admin/orders/${paid[0].id}/refunds`, {
      body: { amount: "5,00", reason: "Geste commercial" },
      cookie,
      shopper: 7777,
    });
    expect(partial.status, JSON.stringify(partial.body)).toBe(201);
    const whole = await api(base, `/api/admin/orders/${paid[1].id}/refunds`, {
      body: { reason: "Colis perdu" },
      cookie,
      shopper: 7777,
    });
    expect(whole.status, JSON.stringify(whole.body)).toBe(201);
    await placeOrder(base, "panier-abandonne@example.fr", 10);
    const subscribed = await placeOrder(base, "abonnee.copie@example.fr", 11);
    const started = await api(base, "/api/create-subscription", {
      body: { orderId: subscribed.id, token: subscribed.token },
      shopper: 11,
    });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    await stripe.payWithCard(String(started.body.clientSecret).split("_secret_")[0]);
    const contact = await api(base, "/api/contact", {
      body: {
        name: "Léa Petit",
        email: "lea.copie@example.fr",
        subject: "Livraison",
        message: "Bonjour, livrez-vous en Belgique ?",
      },
      shopper: 12,
    });
    expect(contact.status, JSON.stringify(contact.body)).toBe(201);

    // Every email sent (the demo mailbox), the subscription paid: nothing changes any more.
    await expect
      .poll(
        async () => {
          const emails = listOf((await api(base, "/api/admin/emails", { cookie, shopper: 7777 })).body);
          const order = (await api(base, `/api/orders/${subscribed.id}?token=${subscribed.token}`)).body;
          return emails.length >= 8 && emails.every((e) => e.status === "sent") && order.paymentStatus === "paid";
        },
        { timeout: 30_000 },
      )
      .toBe(true);
    const before = await readShop(base, paid[2]);
    expect(before.orders.length).toBe(5);
    expect(before.subscriptions.length).toBe(1);

    // Stopped (SIGTERM: its database closed), copied, started again on PostgreSQL.
    onSqlite.child.kill("SIGTERM");
    expect(await onSqlite.exited).toMatchObject({ code: 0 });
    database = await startPostgres();
    const copied = await run(process.execPath, [
      "scripts/db-copy-to-postgres.js",
      path.join(onSqlite.dataDir, "shop.db"),
      database.url,
    ]);
    expect(copied.stdout).toMatch(/orders/);
    const onPostgres = await spawnShop({ SHOP_MODE: "demo", DATA_DIR: shared, TRUST_PROXY: "1", DATABASE_URL: database.url });
    shops.push(onPostgres);
    await onPostgres.ready();

    expect(await readShop(onPostgres.url, paid[2])).toEqual(before);
  }, 120_000);
});
