import { execFile } from "node:child_process";
import { generateTOTP } from "@epic-web/totp";
import { randomUUID } from "node:crypto";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { asc, count, eq, is, type SQL } from "drizzle-orm";
import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import { getTableConfig as pgTableConfig, PgTable } from "drizzle-orm/pg-core";
import { getTableConfig as sqliteTableConfig, type SQLiteTable } from "drizzle-orm/sqlite-core";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { dialect } from "~/db/schema";
import * as sqliteSchema from "~/db/schema.sqlite";
import * as pgSchema from "~/db/schema.pg";
import { createContactRequest } from "~/services/contacts.server";
import { addToCart } from "~/services/cart.server";
import { confirmTotpEnrolment, getTotpStatus, startTotpEnrolment } from "~/services/admin-totp.server";
import { rememberDevice } from "~/services/admin-trusted-devices.server";
import { acquireLease } from "~/services/leases.server";
import { bumpPageCacheVersion } from "~/services/page-cache-version.server";
import { refundOrder } from "~/services/payments/refunds.server";
import { databaseRateLimitStore } from "~/services/rate-limit.server";
import { requestWithdrawal } from "~/services/withdrawals.server";
import { newRefundableOrderId } from "../helpers/api-fixtures";
import { copyOrder } from "../../scripts/db-copy-to-postgres.js";
import { postgresBinaries, startPostgres, type TestPostgres } from "../helpers/postgres";
import { adminCookie } from "./admin-helpers";
import { setUpTestEmulator } from "./emulator-fixtures";
import { subscriptionDriver } from "./subscription-fixtures";

/**
 * npm run db:copy-to-postgres: a shop with a row in every table (orders, a subscription and its
 * renewal, a refund and its credit note, a withdrawal, a contact message and their emails, a
 * cart, an admin session, rate limits, a lease...), copied into a throwaway PostgreSQL server,
 * then read back through both schemas.
 */

const run = promisify(execFile);
const SCRIPT = path.resolve("scripts/db-copy-to-postgres.js");

async function copy(sqliteFile: string, url: string) {
  try {
    const { stdout, stderr } = await run(process.execPath, [SCRIPT, sqliteFile, url], { encoding: "utf8" });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

type TableKey = keyof typeof pgSchema & keyof typeof sqliteSchema;
const tableKeys = Object.keys(pgSchema).filter((key) => is(pgSchema[key as TableKey], PgTable)) as TableKey[];

/** The columns rows are sorted by: the primary key. */
function sortColumns(key: TableKey) {
  const pgTable = pgSchema[key] as PgTable;
  const sqliteTable = sqliteSchema[key] as SQLiteTable;
  const pgConfig = pgTableConfig(pgTable);
  const sqliteConfig = sqliteTableConfig(sqliteTable);
  const names =
    pgConfig.primaryKeys[0]?.columns.map((c) => c.name) ?? pgConfig.columns.filter((c) => c.primary).map((c) => c.name);
  return {
    pg: names.map((name) => asc(pgConfig.columns.find((c) => c.name === name)!)) as SQL[],
    sqlite: names.map((name) => asc(sqliteConfig.columns.find((c) => c.name === name)!)) as SQL[],
  };
}

// The copy reads the SQLite database the services wrote: in the SQLite run of the suite.
describe.skipIf(!postgresBinaries() || dialect !== "sqlite")("copying the shop into PostgreSQL", () => {
  const { emulator } = setUpTestEmulator();
  const { subscribed, renew } = subscriptionDriver(emulator);
  let server: TestPostgres;
  let pool: pg.Pool;
  let pgDb: NodePgDatabase<typeof pgSchema>;
  let first: Awaited<ReturnType<typeof copy>>;

  beforeAll(async () => {
    // The shop: the demo data, a subscription renewed once, a refunded order, a contact message.
    const { subscriptionId } = await subscribed();
    await renew(subscriptionId);
    const refunded = await newRefundableOrderId();
    await refundOrder({
      orderId: refunded,
      amountCents: 1000,
      reason: "Un masque abîmé",
      actor: { userId: null, name: "Claire Admin" },
      idempotencyKey: "copie-1",
    });
    await createContactRequest({
      name: "Camille Martin",
      email: "camille.martin@example.fr",
      subject: "Livraison",
      message: "Quand arrive ma commande ?",
    });
    expect(
      (await requestWithdrawal({ orderId: refunded, email: "camille.martin@example.fr", reason: "Changement d'avis" })).outcome,
    ).toBe("recorded");
    await addToCart(randomUUID(), { productId: 1, packId: 2 });
    await adminCookie();
    // The administrator's second factor: its secret, recovery codes and a remembered browser.
    const [admin] = await getDb()
      .select({ id: sqliteSchema.users.id, username: sqliteSchema.users.username })
      .from(sqliteSchema.users)
      .where(eq(sqliteSchema.users.username, "admin"));
    await startTotpEnrolment(admin.id);
    const enrolment = await getTotpStatus(admin);
    if (enrolment.state !== "pending") throw new Error("the enrolment did not start");
    await confirmTotpEnrolment(admin.id, (await generateTOTP({ secret: enrolment.secret, period: 30, digits: 6 })).otp);
    await rememberDevice(admin.id);
    await bumpPageCacheVersion();
    await acquireLease("copie-test", 60_000);
    // An owner's notice kept for the daily summary.
    await getDb()
      .insert(sqliteSchema.ownerNotices)
      .values({ kind: "owner_email_failed", dedupeKey: "owner_email_failed:email:copie", payload: { attempts: 6 } });
    // A promotion code, a subscriber's change, and a renewal that failed once (the analytics).
    await getDb().insert(sqliteSchema.promotions).values({ code: "COPIE10", kind: "percent", value: 10, appliesTo: "one_off" });
    const [record] = await getDb().select({ id: sqliteSchema.subscriptions.id }).from(sqliteSchema.subscriptions).limit(1);
    await getDb().insert(sqliteSchema.subscriptionEvents).values({
      subscriptionId: record.id,
      action: "skip",
      actor: "customer",
      label: "Livraison sautée",
      at: new Date().toISOString(),
    });
    await getDb()
      .insert(sqliteSchema.renewalFailures)
      .values({ stripeInvoiceId: "in_copie_echec", subscriptionId: record.id, failedAt: new Date().toISOString() });
    // An address that refused the abandoned-checkout reminders (its hash only).
    await getDb()
      .insert(sqliteSchema.reminderUnsubscribes)
      .values({ emailHash: "a".repeat(64) });
    const now = Date.now();
    await databaseRateLimitStore().increment("order-lookup:203.0.113.7", now - (now % 60_000), now, now + 120_000);
    await getDb().insert(sqliteSchema.auditLog).values({ actorUsername: "admin", action: "customer.export", subjectId: 1 });
    await getDb()
      .insert(sqliteSchema.auditLog)
      .values({
        actorUsername: "admin",
        action: "customer.erase",
        subjectId: 1,
        details: { stripe: { customers: 1, paymentIntents: 2 } },
      });
    await getDb()
      .insert(sqliteSchema.stripeErasures)
      .values({
        subjectId: 1,
        actorUsername: "admin",
        customerIds: ["cus_copie"],
        paymentIntentIds: ["pi_copie_1", "pi_copie_2"],
        attempts: 1,
        lastAttemptAt: new Date(now).toISOString(),
        nextAttemptAt: new Date(now + 60_000).toISOString(),
        lastError: "Stripe injoignable (StripeConnectionError).",
      });

    server = await startPostgres();
    pool = new pg.Pool({ connectionString: server.url, max: 2 });
    pgDb = drizzle(pool, { schema: pgSchema });
    first = await copy(process.env.DATABASE_URL!, server.url);
  }, 120_000);

  afterAll(async () => {
    await pool?.end();
    await server?.stop();
  });

  it("copies every table, printing a line per table with its row count", async () => {
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    const db = getDb();
    for (const key of tableKeys) {
      const name = sqliteTableConfig(sqliteSchema[key] as SQLiteTable).name;
      const [{ n: rows }] = await db.select({ n: count() }).from(sqliteSchema[key] as SQLiteTable);
      expect(first.stdout).toContain(`${name} : ${rows} ${rows > 1 ? "lignes" : "ligne"}\n`);
    }
    expect(first.stdout).toMatch(/Copie terminée : \d+ lignes dans 35 tables/);
  });

  it("holds the data the shop wrote, with each table's rows read back as the same values", async () => {
    const db = getDb();
    const filled: string[] = [];
    for (const key of tableKeys) {
      const order = sortColumns(key);
      const sqliteRows = await db
        .select()
        .from(sqliteSchema[key] as SQLiteTable)
        .orderBy(...order.sqlite);
      const pgRows = await pgDb
        .select()
        .from(pgSchema[key] as PgTable)
        .orderBy(...order.pg);
      expect(pgRows, key).toEqual(sqliteRows);
      if (sqliteRows.length > 0) filled.push(key);
    }
    // Every table had something to copy.
    expect(filled.sort()).toEqual([...tableKeys].sort());
  });

  it("keeps the links between tables, cycles included", async () => {
    const subscription = (await pgDb.select().from(pgSchema.subscriptions))[0];
    expect(subscription.firstOrderId).not.toBeNull();
    const renewals = await pgDb.query.orders.findMany({ where: (o, { eq }) => eq(o.renewalNumber, 1) });
    expect(renewals).toHaveLength(1);
    expect(renewals[0].subscriptionId).toBe(subscription.id);
    const creditNote = await pgDb.query.invoices.findFirst({ where: (i, { eq }) => eq(i.kind, "credit_note") });
    expect(creditNote?.creditedInvoiceId).not.toBeNull();
    expect(creditNote?.refundId).not.toBeNull();
    const refund = (await pgDb.select().from(pgSchema.refunds))[0];
    expect(refund).toMatchObject({ amountCents: 1000, reason: "Un masque abîmé", status: "succeeded" });
    const pack = (await pgDb.select().from(pgSchema.packs).orderBy(pgSchema.packs.id))[0];
    expect(typeof pack.active).toBe("boolean");
    expect(pack.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const { rows } = await pool.query(
      "SELECT pg_typeof(created_at)::text AS type, pg_typeof(active)::text AS active FROM packs LIMIT 1",
    );
    expect(rows[0]).toEqual({ type: "timestamp with time zone", active: "boolean" });
  });

  it("sets each sequence after the largest id copied: a new row takes the next id", async () => {
    for (const table of [pgSchema.contactRequests, pgSchema.emails, pgSchema.products] as const) {
      const ids = (await pgDb.select({ id: table.id }).from(table)).map((row) => row.id);
      expect(ids.length).toBeGreaterThan(0);
      const { rows } = await pool.query(
        `SELECT nextval(pg_get_serial_sequence('${pgTableConfig(table).name}', 'id'))::int AS next`,
      );
      expect(rows[0].next).toBe(Math.max(...ids) + 1);
    }
    const [created] = await pgDb
      .insert(pgSchema.contactRequests)
      .values({
        name: "Léa Dubois",
        email: "lea.dubois@example.fr",
        subject: "Question",
        message: "Les masques sont-ils vegan ?",
      })
      .returning();
    const previous = await getDb().select({ id: sqliteSchema.contactRequests.id }).from(sqliteSchema.contactRequests);
    expect(created.id).toBeGreaterThan(Math.max(...previous.map((row) => row.id)));
    expect(created.createdAt).toMatch(/Z$/);
    expect(created.status).toBe("non_lu");
  });

  it("refuses a second copy into the same database, changing nothing", async () => {
    const before = (await pool.query("SELECT count(*)::int AS n FROM orders")).rows[0].n;
    const again = await copy(process.env.DATABASE_URL!, server.url);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("contient déjà des données");
    expect(again.stderr).toContain("orders");
    expect(again.stderr).toContain("Rien n'a été copié.");
    expect(again.stderr).not.toMatch(/\n\s+at /);
    expect(again.stdout).toBe("");
    expect((await pool.query("SELECT count(*)::int AS n FROM orders")).rows[0].n).toBe(before);
  });

  it("refuses bad arguments with a clear message", async () => {
    const usage = await run(process.execPath, [SCRIPT]).catch((error: { code: number; stderr: string }) => error);
    expect(usage).toMatchObject({
      code: 1,
      stderr: expect.stringContaining("Usage : npm run db:copy-to-postgres -- <fichier SQLite> <URL PostgreSQL>"),
    });
    const missing = await copy("/nulle/part/shop.db", server.url);
    expect(missing).toMatchObject({ code: 1, stderr: expect.stringContaining("Fichier SQLite introuvable") });
    const mysql = await copy(process.env.DATABASE_URL!, "mysql://root@localhost/shop");
    expect(mysql).toMatchObject({ code: 1, stderr: expect.stringContaining("URL PostgreSQL attendue") });
    // Nothing listens on the port of a server that is not started: the password stays out of the message.
    const closed = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const unreachable = await copy(process.env.DATABASE_URL!, `postgres://boutique:secret@127.0.0.1:${closed}/boutique`);
    expect(unreachable).toMatchObject({
      code: 1,
      stderr: expect.stringContaining(`Connexion à PostgreSQL impossible (postgres://boutique:***@127.0.0.1:${closed}/boutique)`),
    });
    expect(unreachable.stderr).not.toContain("secret");
  });

  it("refuses a SQLite file from an older version, copying nothing", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "shop-old-"));
    const admin = new pg.Client({ connectionString: server.url });
    try {
      await admin.connect();
      await admin.query("CREATE DATABASE older");
      const file = path.join(dir, "old.db");
      getDb();
      globalThis.__shopDb!.sqlite!.pragma("wal_checkpoint(TRUNCATE)");
      copyFileSync(process.env.DATABASE_URL!, file);
      const old = new Database(file);
      old.exec("ALTER TABLE orders DROP COLUMN terms_version; DROP TABLE page_cache_version");
      old.close();
      const target = server.url.replace(/\/shop$/, "/older");
      const refused = await copy(file, target);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain("colonne orders.terms_version absente du fichier SQLite");
      expect(refused.stderr).toContain("table page_cache_version absente du fichier SQLite");
      expect(refused.stderr).toContain("démarrant la boutique dessus une fois");
      const other = new pg.Client({ connectionString: target });
      await other.connect();
      try {
        expect((await other.query("SELECT count(*)::int AS n FROM products")).rows[0].n).toBe(0);
      } finally {
        await other.end();
      }
    } finally {
      await admin.end();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the order of the copy", () => {
  const table = (name: string, references: { table: string; nullable: boolean }[] = []) => ({
    name,
    columns: [],
    primaryKey: ["id"],
    references: references.map((r) => ({ ...r, columns: [`${r.table}_id`] })),
  });

  it("copies each table after the tables it references", () => {
    const order = copyOrder(
      [
        table("order_items", [{ table: "orders", nullable: false }]),
        table("orders", [{ table: "users", nullable: true }]),
        table("users"),
      ],
      new Map(),
    );
    expect(order.map((step) => [step.table.name, step.deferred])).toEqual([
      ["users", []],
      ["orders", []],
      ["order_items", []],
    ]);
  });

  it("breaks a cycle at the table with fewer rows, filling in its reference afterwards, and defers references to the same table", () => {
    const tables = [
      table("orders", [{ table: "subscriptions", nullable: true }]),
      table("subscriptions", [{ table: "orders", nullable: true }]),
      table("emails", [{ table: "orders", nullable: true }]),
      table("invoices", [
        { table: "orders", nullable: false },
        { table: "invoices", nullable: true },
      ]),
    ];
    const order = copyOrder(
      tables,
      new Map([
        ["orders", 10],
        ["subscriptions", 2],
      ]),
    );
    expect(order.map((step) => [step.table.name, step.deferred])).toEqual([
      ["subscriptions", ["orders_id"]],
      ["orders", []],
      ["emails", []],
      ["invoices", ["invoices_id"]],
    ]);
  });

  it("refuses a cycle of required references", () => {
    const tables = [
      table("a", [{ table: "b", nullable: false }]),
      table("b", [{ table: "a", nullable: true }]),
      table("c", [{ table: "c", nullable: false }]),
    ];
    expect(() => copyOrder(tables, new Map())).toThrow(/Références circulaires sans colonne facultative entre les tables c/);
  });
});
