import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { and, eq } from "drizzle-orm";
import type Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { getConfig } from "~/config.server";
import { getDb } from "~/db/client.server";
import { emails, orderItems, orders, subscriptions } from "~/db/schema";
import { renewalLabel } from "~/lib/renewals";
import { formatDate } from "~/lib/dates";
import { invoiceRenewalDate } from "~/services/payments/renewals.server";
import { action as createSubscriptionAction } from "~/routes/api.create-subscription";
import { listAdminOrders } from "~/services/admin-orders.server";
import { renderEmail } from "~/services/email/render.server";
import { checkInvoicePayLink } from "~/services/invoice-link.server";
import { getStripe } from "~/services/stripe.server";
import {
  browserCreatePaymentMethod,
  browserPay,
  CARDS,
  createTestOrder,
  getOrder,
  ownerRequest,
  productStock,
  replayEvent,
  routeArgs,
} from "./payments-fixtures";
import { setUpTestEmulator } from "./emulator-fixtures";
import { findInvoice } from "~/services/invoices.server";

const MIGRATIONS = path.resolve(process.cwd(), "drizzle");

/** A fresh in-memory database with the migrations before `name` applied, as drizzle would. */
function databaseBefore(name: string) {
  const sqlite = new Database(":memory:");
  sqlite.pragma("foreign_keys = ON");
  const files = readdirSync(MIGRATIONS)
    .filter((f) => f.endsWith(".sql"))
    .sort();
  for (const file of files) {
    if (file === name) break;
    runMigration(sqlite, file);
  }
  return sqlite;
}

function runMigration(sqlite: Database.Database, file: string) {
  for (const statement of readFileSync(path.join(MIGRATIONS, file), "utf8").split("--> statement-breakpoint")) {
    if (statement.trim()) sqlite.exec(statement);
  }
}

describe("the subscriptions migration", () => {
  it("moves today's subscription orders into subscriptions, and links each order to its subscription", () => {
    const sqlite = databaseBefore("0007_subscriptions.sql");
    const order = sqlite.prepare(
      `INSERT INTO orders (id, status, payment_status, subtotal_cents, total_cents, customer_email, customer_name, shipping_address,
         shipping_postal_code, shipping_city, shipping_country, is_subscription, stripe_customer_id, stripe_subscription_id, paid_at,
         subscription_canceled_at, created_at, updated_at)
       VALUES (?, 'pending', ?, 2590, 2590, 'camille.martin@example.fr', 'Camille Martin', '12 rue des Lilas', '75011', 'Paris', 'France',
         ?, 'cus_1', ?, ?, ?, '2026-10-01T10:00:00.000Z', '2026-10-01T10:00:00.000Z')`,
    );
    order.run(111111111, "paid", 1, "sub_active", "2026-10-01T10:05:00.000Z", null);
    order.run(222222222, "paid", 1, "sub_canceled", "2026-10-02T10:05:00.000Z", "2026-10-20T08:00:00.000Z");
    order.run(333333333, "unpaid", 1, "sub_incomplete", null, null);
    order.run(444444444, "paid", 0, null, "2026-10-03T10:05:00.000Z", null); // a one-off purchase
    sqlite
      .prepare(
        `INSERT INTO order_items (order_id, product_id, pack_id, quantity, unit_price_cents, product_name, variant_name, created_at, updated_at)
         VALUES (?, NULL, 2, 1, 2590, 'Masque Hydrogel au Collagène', '6 masques + 2 offerts', 'x', 'x')`,
      )
      .run(111111111);

    runMigration(sqlite, "0007_subscriptions.sql");

    const rows = sqlite.prepare("SELECT * FROM subscriptions ORDER BY first_order_id").all() as Array<Record<string, unknown>>;
    expect(rows.map((r) => [r.first_order_id, r.stripe_subscription_id, r.status])).toEqual([
      [111111111, "sub_active", "active"],
      [222222222, "sub_canceled", "canceled"],
      [333333333, "sub_incomplete", "incomplete"],
    ]);
    expect(rows[0]).toMatchObject({
      customer_email: "camille.martin@example.fr",
      customer_name: "Camille Martin",
      pack_id: 2,
      quantity: 1,
      variant_name: "6 masques + 2 offerts",
      amount_cents: 2590,
      stripe_customer_id: "cus_1",
      started_at: "2026-10-01T10:05:00.000Z",
      current_period_end: "2026-10-31T10:05:00.000Z",
      renewal_count: 0,
      canceled_at: null,
      shipping_name: "Camille Martin",
      shipping_address: "12 rue des Lilas",
      shipping_postal_code: "75011",
      shipping_city: "Paris",
      shipping_country: "France",
      unpaid_invoice_id: null,
    });
    expect(rows[1]).toMatchObject({ canceled_at: "2026-10-20T08:00:00.000Z", current_period_end: null });

    const links = sqlite
      .prepare(
        "SELECT o.id, s.stripe_subscription_id AS sub FROM orders o LEFT JOIN subscriptions s ON s.id = o.subscription_id ORDER BY o.id",
      )
      .all();
    expect(links).toEqual([
      { id: 111111111, sub: "sub_active" },
      { id: 222222222, sub: "sub_canceled" },
      { id: 333333333, sub: "sub_incomplete" },
      { id: 444444444, sub: null },
    ]);
    sqlite.close();
  });
});

// ---------------------------------------------------------------------------------------------
// Renewals, through the emulator and the signed webhook route

const { emulator, withWebhooks } = setUpTestEmulator();

/** A subscription whose first invoice is paid at Stripe (its webhooks delivered or not). */
async function subscribed(options: { webhooks?: boolean } = {}) {
  const orderId = await createTestOrder();
  const response = await createSubscriptionAction(routeArgs(ownerRequest("/api/create-subscription", { orderId })));
  const created = (await response.json()) as { subscriptionId: string; clientSecret: string };
  const pay = () => browserPay(created.clientSecret, CARDS.success);
  const paid = options.webhooks === false ? await pay() : await withWebhooks(pay);
  expect(paid.body.status).toBe("succeeded");
  return { orderId, subscriptionId: created.subscriptionId, paymentMethodId: paid.paymentMethodId };
}

/** The next period at Stripe: its invoice charged to the subscription's card (the emulator's helper). */
async function renew(subscriptionId: string): Promise<Stripe.Invoice> {
  const response = await fetch(`${emulator().url}/v1/test_helpers/emulator/subscriptions/${subscriptionId}/renew`, {
    method: "POST",
    headers: { Authorization: `Bearer ${getConfig().stripe.secretKey}` },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Stripe.Invoice;
}

async function record(subscriptionId: string) {
  return (await getDb().select().from(subscriptions).where(eq(subscriptions.stripeSubscriptionId, subscriptionId)).limit(1))[0];
}

async function renewalOrders(recordId: number) {
  return (
    await getDb()
      .select()
      .from(orders)
      .where(and(eq(orders.subscriptionId, recordId)))
  ).filter((o) => o.renewalNumber !== null);
}

async function emailsOf(kind: (typeof emails.$inferSelect)["kind"], orderId: number) {
  return await getDb()
    .select()
    .from(emails)
    .where(and(eq(emails.kind, kind), eq(emails.orderId, orderId)));
}

function eventsFor(type: string, objectId: string) {
  return emulator().events.filter((e) => e.type === type && (e.data.object as { id: string }).id === objectId);
}

describe("subscription renewals", () => {
  it("activates the record at the first payment", async () => {
    const { orderId, subscriptionId } = await subscribed();
    const row = (await record(subscriptionId))!;
    expect(row).toMatchObject({
      status: "active",
      firstOrderId: orderId,
      amountCents: 2590,
      quantity: 1,
      packId: 2,
      variantName: "6 masques + 2 offerts",
      customerEmail: "camille.martin@example.fr",
      shippingAddress: "12 rue des Lilas",
      shippingCity: "Paris",
      renewalCount: 0,
    });
    expect((await getOrder(orderId)).subscriptionId).toBe(row.id);
    // The next renewal: day 30 after the first payment.
    const days = (new Date(row.currentPeriodEnd!).getTime() - new Date(row.startedAt!).getTime()) / 86_400_000;
    expect(Math.round(days)).toBe(30);
  });

  it("makes one order of a paid renewal, however often its webhook arrives, with one stock decrement and its emails", async () => {
    const { orderId, subscriptionId } = await subscribed();
    const stockBefore = await productStock();
    const invoice = await withWebhooks(() => renew(subscriptionId));
    expect(invoice).toMatchObject({ status: "paid", billing_reason: "subscription_cycle" });

    const row = (await record(subscriptionId))!;
    const made = await renewalOrders(row.id);
    expect(made).toHaveLength(1);
    const [renewal] = made;
    expect(renewal.id).not.toBe(orderId);
    expect(String(renewal.id)).toMatch(/^[1-9]\d{8}$/);
    expect(renewal).toMatchObject({
      status: "pending",
      paymentStatus: "paid",
      totalCents: 2590,
      customerEmail: "camille.martin@example.fr",
      customerName: "Camille Martin",
      shippingAddress: "12 rue des Lilas",
      shippingPostalCode: "75011",
      stripeInvoiceId: invoice.id,
      renewalNumber: 1,
      subscriptionId: row.id,
      termsVersion: (await getOrder(orderId)).termsVersion,
    });
    expect(await getDb().select().from(orderItems).where(eq(orderItems.orderId, renewal.id))).toMatchObject([
      { productId: 1, packId: 2, quantity: 1, unitPriceCents: 2590, variantName: "6 masques + 2 offerts" },
    ]);
    expect(await productStock()).toBe(stockBefore - 1);
    // The renewal's own invoice, issued with it; the first order has its own, numbered before.
    const [first, second] = [(await findInvoice(orderId, "invoice"))!, (await findInvoice(renewal.id, "invoice"))!];
    expect(second.totalIncludingCents).toBe(2590);
    expect(Number(second.number.slice(-6))).toBeGreaterThan(Number(first.number.slice(-6)));
    // The next renewal: the end of the period the invoice pays (its line; the invoice's own period looks back, as at Stripe).
    const paidPeriodEnd = Math.max(...invoice.lines.data.map((l) => l.period.end));
    expect(paidPeriodEnd - invoice.period_end).toBe(28 * 24 * 3600);
    expect(row).toMatchObject({
      status: "active",
      renewalCount: 1,
      currentPeriodEnd: new Date(paidPeriodEnd * 1000).toISOString(),
    });

    // Replayed twice (Stripe retries): nothing more.
    const [paidEvent] = eventsFor("invoice.paid", invoice.id!);
    for (let i = 0; i < 2; i++) {
      const again = structuredClone(paidEvent);
      again.id = `${paidEvent.id}_retry${i}`;
      expect((await replayEvent(emulator(), again)).status).toBe(200);
    }
    expect(await renewalOrders(row.id)).toHaveLength(1);
    expect(await productStock()).toBe(stockBefore - 1);
    expect((await record(subscriptionId))!.renewalCount).toBe(1);

    // The receipt (with the tracking link of the new order) and the shop's notice, once each.
    const receipts = await emailsOf("renewal_receipt", renewal.id);
    expect(receipts).toHaveLength(1);
    expect(await emailsOf("shop_new_order", renewal.id)).toHaveLength(1);
    const rendered = await renderEmail(receipts[0]);
    expect(rendered.subject).toBe(`Votre abonnement : renouvellement n°1 payé (commande n°${renewal.id})`);
    expect(rendered.text).toContain("25,90€");
    expect(rendered.text).toContain("6 masques + 2 offerts");
    expect(rendered.text).toContain(`/track-order?id=${renewal.id}&cle=`);
    expect(rendered.html).toContain(`commande n°${renewal.id}`);
    // The renewal's invoice, with the order's view link (it opens for the customer, no account needed).
    expect(rendered.text).toMatch(new RegExp(`Votre facture n°F\\d{4}-\\d{6} : http\\S+/facture/${renewal.id}\\?cle=[\\w-]{43}`));
    expect(rendered.html).toContain(`/facture/${renewal.id}?cle=`);

    // The admin's list marks it.
    const listed = (await listAdminOrders({ q: String(renewal.id) })).orders;
    expect(listed).toMatchObject([{ id: renewal.id, renewalNumber: 1 }]);
    expect(renewalLabel(listed[0].renewalNumber)).toBe("Renouvellement n°1");
    expect((await listAdminOrders({ q: String(orderId) })).orders).toMatchObject([{ id: orderId, renewalNumber: null }]);

    // The second renewal is number 2.
    await withWebhooks(() => renew(subscriptionId));
    expect((await renewalOrders(row.id)).map((o) => o.renewalNumber).sort()).toEqual([1, 2]);
    expect((await record(subscriptionId))!.renewalCount).toBe(2);
  });

  it("records a renewal paid before the first payment's webhook, from the order", async () => {
    const { orderId, subscriptionId } = await subscribed({ webhooks: false });
    expect((await getOrder(orderId)).paymentStatus).toBe("unpaid");
    expect(await record(subscriptionId)).toBeUndefined();

    const invoice = await withWebhooks(() => renew(subscriptionId));
    const row = (await record(subscriptionId))!;
    expect(row).toMatchObject({ status: "active", firstOrderId: orderId, renewalCount: 1, amountCents: 2590 });
    expect(await renewalOrders(row.id)).toMatchObject([{ stripeInvoiceId: invoice.id, renewalNumber: 1 }]);

    // The first payment's webhook, late: the first order paid, the record kept as it is.
    const firstInvoicePaid = emulator().events.find(
      (e) =>
        e.type === "invoice.paid" &&
        (e.data.object as unknown as Stripe.Invoice).billing_reason === "subscription_create" &&
        (e.data.object as unknown as Stripe.Invoice).parent?.subscription_details?.subscription === subscriptionId,
    )!;
    expect((await replayEvent(emulator(), firstInvoicePaid)).status).toBe(200);
    expect(await getOrder(orderId)).toMatchObject({ paymentStatus: "paid", subscriptionId: row.id });
    expect(await record(subscriptionId)).toMatchObject({
      status: "active",
      renewalCount: 1,
      currentPeriodEnd: row.currentPeriodEnd,
    });
  });

  it("puts a failed renewal past due with one email and a pay link; paying it makes the order and reactivates", async () => {
    const { orderId, subscriptionId } = await subscribed();
    const stripe = await getStripe();
    const declined = await browserCreatePaymentMethod(CARDS.declined);
    const sub = await stripe.subscriptions.retrieve(subscriptionId);
    await stripe.paymentMethods.attach(declined, { customer: sub.customer as string });
    await stripe.subscriptions.update(subscriptionId, { default_payment_method: declined });

    const invoice = await withWebhooks(() => renew(subscriptionId));
    expect(invoice.status).toBe("open");
    const row = (await record(subscriptionId))!;
    expect(row).toMatchObject({ status: "past_due", unpaidInvoiceId: invoice.id, renewalCount: 0 });
    expect(await renewalOrders(row.id)).toHaveLength(0);

    // One email, even when Stripe sends the failure again.
    const [failedEvent] = eventsFor("invoice.payment_failed", invoice.id!);
    const again = structuredClone(failedEvent);
    again.id = `${failedEvent.id}_retry`;
    expect((await replayEvent(emulator(), again)).status).toBe(200);
    const sent = await emailsOf("renewal_payment_failed", orderId);
    expect(sent).toHaveLength(1);
    const payUrl = (sent[0].payload as { payUrl: string }).payUrl;
    const link = new URL(payUrl);
    expect(link.pathname).toBe("/abonnement/payer");
    expect(link.searchParams.get("facture")).toBe(invoice.id);
    expect(checkInvoicePayLink(link.searchParams)).toEqual({ ok: true, invoiceId: invoice.id, legacy: false });
    link.searchParams.set("facture", "in_other");
    expect(checkInvoicePayLink(link.searchParams)).toEqual({ ok: false, reason: "invalid" });
    const rendered = await renderEmail(sent[0]);
    expect(rendered.text).toContain(payUrl);
    expect(rendered.text).toContain("25,90€");
    // It names the renewal and its date, never the subscription's first order.
    const renewalDate = formatDate(invoiceRenewalDate(invoice));
    expect(rendered.subject).toBe(`Votre abonnement : le paiement du renouvellement n°1 du ${renewalDate} n'a pas abouti`);
    expect(rendered.text).toContain(
      `Le paiement du renouvellement n°1 du ${renewalDate} de votre abonnement, 25,90€, n'a pas abouti`,
    );
    expect(rendered.text).not.toContain(`commande n°${orderId}`);

    // Paid with another card: the renewal's order, active again.
    const good = await browserCreatePaymentMethod(CARDS.success);
    const open = await stripe.invoices.retrieve(invoice.id!, { expand: ["confirmation_secret"] });
    const piId = open.confirmation_secret!.client_secret.split("_secret_")[0];
    await withWebhooks(() => stripe.paymentIntents.confirm(piId, { payment_method: good }));
    expect(await record(subscriptionId)).toMatchObject({ status: "active", unpaidInvoiceId: null, renewalCount: 1 });
    expect(await renewalOrders(row.id)).toMatchObject([{ stripeInvoiceId: invoice.id, renewalNumber: 1, paymentStatus: "paid" }]);
  });

  it("ends the subscription when Stripe gives up, with one cancellation email", async () => {
    const { orderId, subscriptionId } = await subscribed();
    const sub = (await (await getStripe()).subscriptions.retrieve(subscriptionId)) as Stripe.Subscription;
    const unpaid = {
      id: `evt_unpaid_${subscriptionId}`,
      object: "event",
      type: "customer.subscription.updated",
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      api_version: eventsFor("customer.subscription.updated", subscriptionId)[0]?.["api_version" as never] ?? null,
      data: { object: { ...sub, status: "unpaid" }, previous_attributes: { status: "past_due" } },
    };
    expect((await replayEvent(emulator(), unpaid)).status).toBe(200);
    const row = (await record(subscriptionId))!;
    expect(row.status).toBe("canceled");
    expect(row.canceledAt).not.toBeNull();
    const sent = await emailsOf("subscription_canceled", orderId);
    expect(sent).toHaveLength(1);
    expect(sent[0].payload).toMatchObject({ canceledBy: "payment_failure" });
    expect((await getOrder(orderId)).subscriptionCanceledAt).toBe(row.canceledAt);

    // Then deleted at Stripe: still one email, the first date kept.
    await withWebhooks(() => getStripe().then((stripe) => stripe.subscriptions.cancel(subscriptionId)));
    expect(await emailsOf("subscription_canceled", orderId)).toHaveLength(1);
    expect(await record(subscriptionId)).toMatchObject({ status: "canceled", canceledAt: row.canceledAt });
  });
});
