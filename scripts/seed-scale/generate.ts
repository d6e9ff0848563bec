import { randomInt } from "node:crypto";
import type Database from "better-sqlite3";
import { compressText } from "~/db/compressed-text";
import { DEMO_LEGAL_IDENTITY } from "~/db/seed.server";
import { formatInvoiceNumber, invoiceYear } from "~/services/invoices.server";
import { vatLine, vatTotals } from "~/lib/vat";
import { CURRENT_TERMS_VERSION } from "~/legal/terms-of-sale";
import { orderConfirmationEmail } from "~/emails/OrderConfirmationEmail";

/**
 * Two years of a shop that works, written straight into a migrated and seeded SQLite file
 * (npm run seed:scale, and the query plans' test). See scripts/seed-scale.ts.
 */

const DAY_MS = 86_400_000;
const SPAN_DAYS = 730;
const FIRST_NAMES = ["Camille", "Léa", "Manon", "Chloé", "Inès", "Julie", "Sarah", "Emma", "Lucie", "Anaïs", "Hugo", "Louis"];
const LAST_NAMES = ["Martin", "Bernard", "Dubois", "Thomas", "Robert", "Richard", "Petit", "Durand", "Leroy", "Moreau"];
const CITIES = [
  ["75011", "Paris"],
  ["69003", "Lyon"],
  ["13006", "Marseille"],
  ["31000", "Toulouse"],
  ["33000", "Bordeaux"],
  ["59000", "Lille"],
] as const;

export class SeedRefusal extends Error {}

type Pack = { id: number; name: string; priceCents: number; masks: number; trial: number };
type Customer = {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  postalCode: string;
  city: string;
  address: string;
};

const pick = <T>(list: readonly T[]) => list[randomInt(list.length)];

/**
 * An email's content as the shop keeps it (services/email/retention.server.ts): the HTML and
 * text of the emails sent within the retention (90 days, the default), gzipped
 * (db/compressed-text.ts); nothing for the older ones, which say after how many days it was
 * deleted. The terms of sale are a reference, never a copy. A confirmation is the shop's own,
 * rendered once from its template and given each order's number and first name.
 */
const RETENTION_DAYS = 90;
const SAMPLE_ID = 987654321;
const SAMPLE_NAME = "Prénomtémoin";

function sampleConfirmation(seller: Record<string, string>) {
  const paidAt = new Date().toISOString();
  return orderConfirmationEmail({
    shop: {
      name: seller.site_name,
      email: seller.site_email,
      address: seller.site_address,
      phone: seller.site_phone,
      publicUrl: "https://boutique.example",
      legal: DEMO_LEGAL_IDENTITY,
    },
    order: {
      id: SAMPLE_ID,
      createdAt: paidAt,
      paidAt,
      customerName: `${SAMPLE_NAME} Martin`,
      customerFirstName: SAMPLE_NAME,
      customerEmail: "prenom.martin@exemple.fr",
      shippingAddress: "12 rue des Lilas",
      shippingPostalCode: "75011",
      shippingCity: "Paris",
      shippingCountry: "France",
      isSubscription: false,
      lines: [{ name: "Masques au collagène – 6 masques + 2 offerts", quantity: 1, unitPriceCents: 2590, lineTotalCents: 2590 }],
      subtotalCents: 2590,
      shippingCents: 0,
      totalCents: 2590,
      trackingUrl: `https://boutique.example/track-order?id=${SAMPLE_ID}&cle=0123456789abcdefghijkl`,
    },
    termsVersion: CURRENT_TERMS_VERSION,
    termsFileName: `CGV-Maison-Eclat-${CURRENT_TERMS_VERSION}.html`,
    firstRenewalAt: null,
    subscriptionUrl: null,
    invoice: { number: "F-2026-000001", url: `https://boutique.example/facture?id=${SAMPLE_ID}` },
  });
}

function emailContent(sentAtMs: number, now: number, html: () => string, text: () => string) {
  if (now - sentAtMs > RETENTION_DAYS * DAY_MS) return { html: null, text: null, purgedAfterDays: RETENTION_DAYS };
  return { html: compressText(html()), text: compressText(text()), purgedAfterDays: null };
}
const TERMS_REF = JSON.stringify([{ kind: "terms_of_sale", version: CURRENT_TERMS_VERSION }]);

/** `count` distinct random 9-digit order numbers, as the checkout makes them. */
function orderIds(count: number): number[] {
  const ids = new Set<number>();
  while (ids.size < count) ids.add(randomInt(100_000_000, 1_000_000_000));
  return [...ids];
}

function statements(sqlite: Database.Database) {
  const insert = (table: string, columns: string[]) =>
    sqlite.prepare(`insert into ${table} (${columns.join(", ")}) values (${columns.map(() => "?").join(", ")})`);
  return {
    user: insert("users", [
      "username",
      "email",
      "first_name",
      "last_name",
      "address",
      "city",
      "postal_code",
      "country",
      "created_at",
      "updated_at",
    ]),
    order: insert("orders", [
      "id",
      "status",
      "payment_status",
      "subtotal_cents",
      "shipping_cents",
      "total_cents",
      "user_id",
      "customer_email",
      "customer_name",
      "customer_first_name",
      "customer_last_name",
      "shipping_address",
      "shipping_postal_code",
      "shipping_city",
      "shipping_country",
      "is_subscription",
      "stripe_payment_intent_id",
      "stripe_subscription_id",
      "paid_at",
      "stock_decremented_at",
      "subscription_id",
      "stripe_invoice_id",
      "renewal_number",
      "tracking_number",
      "tracking_carrier",
      "created_at",
      "updated_at",
    ]),
    item: insert("order_items", [
      "order_id",
      "product_id",
      "pack_id",
      "quantity",
      "unit_price_cents",
      "product_name",
      "variant_name",
      "created_at",
      "updated_at",
    ]),
    invoice: insert("invoices", [
      "kind",
      "number",
      "year",
      "sequence",
      "order_id",
      "issued_at",
      "total_excluding_cents",
      "total_vat_cents",
      "total_including_cents",
      "document",
    ]),
    counter: sqlite.prepare(
      "insert into invoice_counters (kind, year, last) values (?, ?, ?) on conflict (kind, year) do update set last = excluded.last",
    ),
    subscription: insert("subscriptions", [
      "user_id",
      "customer_email",
      "customer_name",
      "product_id",
      "pack_id",
      "quantity",
      "product_name",
      "variant_name",
      "amount_cents",
      "stripe_subscription_id",
      "stripe_customer_id",
      "status",
      "started_at",
      "current_period_end",
      "renewal_count",
      "canceled_at",
      "shipping_name",
      "shipping_address",
      "shipping_postal_code",
      "shipping_city",
      "shipping_country",
      "created_at",
      "updated_at",
    ]),
    firstOrder: sqlite.prepare("update subscriptions set first_order_id = ? where id = ?"),
    refund: insert("refunds", [
      "order_id",
      "amount_cents",
      "reason",
      "status",
      "stripe_refund_id",
      "idempotency_key",
      "actor_name",
      "created_at",
      "updated_at",
    ]),
    creditNote: insert("invoices", [
      "kind",
      "number",
      "year",
      "sequence",
      "order_id",
      "credited_invoice_id",
      "refund_id",
      "issued_at",
      "total_excluding_cents",
      "total_vat_cents",
      "total_including_cents",
      "document",
    ]),
    withdrawal: insert("withdrawal_requests", ["order_id", "requested_at", "reason", "email", "created_at", "updated_at"]),
    contact: insert("contact_requests", ["name", "email", "subject", "message", "status", "created_at", "updated_at"]),
    email: insert("emails", [
      "kind",
      "dedupe_key",
      "order_id",
      "contact_request_id",
      "to_address",
      "payload",
      "status",
      "attempts",
      "next_attempt_at",
      "sent_at",
      "transport",
      "subject",
      "html",
      "text",
      "attachment_refs",
      "content_purged_after_days",
      "created_at",
      "updated_at",
    ]),
  };
}

export function seedScale(sqlite: Database.Database, count: number, now = Date.now()) {
  if ((sqlite.prepare("select count(*) as n from orders").get() as { n: number }).n > 0) {
    throw new SeedRefusal("Cette base contient déjà des commandes : seed:scale remplit une base neuve.");
  }
  const packs = sqlite
    .prepare("select id, name, price_cents as priceCents, masks, trial from packs order by position")
    .all() as Pack[];
  const product = sqlite.prepare("select id, name from products order by id limit 1").get() as { id: number; name: string };
  const seller = sqlite.prepare("select * from site_settings limit 1").get() as Record<string, string>;
  const s = statements(sqlite);
  const confirmation = sampleConfirmation(seller);
  const at = (ms: number) => new Date(ms).toISOString();
  const customers: Customer[] = [];
  const stats = {
    customers: 0,
    orders: 0,
    paid: 0,
    subscriptions: 0,
    invoices: 0,
    emails: 0,
    contacts: 0,
    refunds: 0,
    withdrawals: 0,
  };

  for (let i = 1; i <= Math.max(1, Math.round(count / 5)); i++) {
    const firstName = pick(FIRST_NAMES);
    const lastName = pick(LAST_NAMES);
    const [postalCode, city] = pick(CITIES);
    const email = `${firstName}.${lastName}.${i}@exemple.fr`
      .toLowerCase()
      .normalize("NFD")
      .replace(/[\u0300-\u036f]/g, "");
    const address = `${1 + randomInt(120)} rue de la République`;
    const created = at(now - SPAN_DAYS * DAY_MS + ((i * 7919) % (SPAN_DAYS * DAY_MS)));
    const { lastInsertRowid } = s.user.run(
      `client-${i}`,
      email,
      firstName,
      lastName,
      address,
      city,
      postalCode,
      "France",
      created,
      created,
    );
    customers.push({ id: Number(lastInsertRowid), email, firstName, lastName, postalCode, city, address });
  }
  stats.customers = customers.length;

  // Who buys what and when: one-off orders and subscriptions with their renewals every 28 days.
  type Planned = { at: number; customer: Customer; pack: Pack; subscription?: { index: number; renewal: number } };
  const planned: Planned[] = [];
  const subscriptionCount = Math.floor(count / 20);
  const subscriptionStarts: number[] = [];
  for (let k = 0; k < subscriptionCount && planned.length < count; k++) {
    const start = now - randomInt(SPAN_DAYS) * DAY_MS - randomInt(DAY_MS);
    subscriptionStarts.push(start);
    const customer = customers[k % customers.length];
    const pack = packs.find((p) => !p.trial) ?? packs[0];
    const renewals = Math.min(Math.floor((now - start - 30 * DAY_MS) / (28 * DAY_MS)) + 1, 8);
    for (let r = 0; r <= Math.max(0, renewals) && planned.length < count / 2; r++) {
      planned.push({
        at: start + (r === 0 ? 0 : (30 + (r - 1) * 28) * DAY_MS),
        customer,
        pack,
        subscription: { index: k, renewal: r },
      });
    }
  }
  while (planned.length < count) {
    planned.push({ at: now - randomInt(SPAN_DAYS * DAY_MS), customer: pick(customers), pack: pick(packs) });
  }
  planned.sort((a, b) => a.at - b.at);

  const subscriptionIds: number[] = [];
  for (let k = 0; k < subscriptionStarts.length; k++) {
    const customer = customers[k % customers.length];
    const pack = packs.find((p) => !p.trial) ?? packs[0];
    const start = subscriptionStarts[k];
    const canceled = k % 4 === 0;
    const renewals = Math.max(0, Math.min(Math.floor((now - start - 30 * DAY_MS) / (28 * DAY_MS)) + 1, 8));
    const periodEnd = start + (30 + renewals * 28) * DAY_MS;
    const { lastInsertRowid } = s.subscription.run(
      customer.id,
      customer.email,
      `${customer.firstName} ${customer.lastName}`,
      product.id,
      pack.id,
      1,
      product.name,
      pack.name,
      pack.priceCents,
      `sub_scale_${k}`,
      `cus_scale_${customer.id}`,
      canceled ? "canceled" : "active",
      at(start),
      at(periodEnd),
      renewals,
      canceled ? at(Math.min(now, periodEnd)) : null,
      `${customer.firstName} ${customer.lastName}`,
      customer.address,
      customer.postalCode,
      customer.city,
      "France",
      at(start),
      at(start),
    );
    subscriptionIds.push(Number(lastInsertRowid));
  }
  stats.subscriptions = subscriptionIds.length;

  const ids = orderIds(planned.length);
  const sequences = new Map<number, number>();
  const creditSequences = new Map<number, number>();
  for (const [n, plan] of planned.entries()) {
    const id = ids[n];
    const { customer, pack } = plan;
    const created = at(plan.at);
    const ageDays = (now - plan.at) / DAY_MS;
    const unpaid = !plan.subscription && n % 8 === 3;
    const refunded = !unpaid && n % 97 === 5;
    const payment = unpaid ? (n % 16 === 3 ? "failed" : "unpaid") : refunded ? "refunded" : "paid";
    const status = unpaid || refunded ? "pending" : ageDays > 7 ? "delivered" : ageDays > 2 ? "shipped" : "processing";
    const paidAt = unpaid ? null : at(plan.at + 60_000);
    const subscriptionId = plan.subscription ? subscriptionIds[plan.subscription.index] : null;
    const renewal = plan.subscription && plan.subscription.renewal > 0 ? plan.subscription.renewal : null;
    const name = `${customer.firstName} ${customer.lastName}`;
    s.order.run(
      id,
      status,
      payment,
      pack.priceCents,
      0,
      pack.priceCents,
      customer.id,
      customer.email,
      name,
      customer.firstName,
      customer.lastName,
      customer.address,
      customer.postalCode,
      customer.city,
      "France",
      plan.subscription ? 1 : 0,
      renewal ? null : `pi_scale_${id}`,
      plan.subscription ? `sub_scale_${plan.subscription.index}` : null,
      paidAt,
      paidAt,
      subscriptionId,
      renewal ? `in_scale_${id}` : null,
      renewal,
      status === "shipped" || status === "delivered" ? `6A${id}` : null,
      status === "shipped" || status === "delivered" ? "colissimo" : null,
      created,
      paidAt ?? created,
    );
    if (plan.subscription?.renewal === 0) s.firstOrder.run(id, subscriptionId);
    s.item.run(id, product.id, pack.id, 1, pack.priceCents, product.name, pack.name, created, created);
    stats.orders++;
    if (unpaid) continue;
    stats.paid++;

    const issued = new Date(plan.at + 60_000);
    const year = invoiceYear(issued);
    const sequence = (sequences.get(year) ?? 0) + 1;
    sequences.set(year, sequence);
    const lines = [vatLine({ label: product.name, detail: pack.name, quantity: 1, unitIncludingCents: pack.priceCents })];
    const totals = vatTotals(lines);
    const document = {
      seller: {
        legalName: seller.legal_name || DEMO_LEGAL_IDENTITY.legalName,
        address: seller.site_address,
        siren: (seller.siret ?? "").slice(0, 9),
        siret: seller.siret,
        vatNumber: seller.vat_number,
        email: seller.site_email,
        phone: seller.site_phone,
      },
      buyer: {
        name,
        email: customer.email,
        address: customer.address,
        postalCode: customer.postalCode,
        city: customer.city,
        country: "France",
      },
      orderId: id,
      orderedAt: created,
      paidAt,
      lines,
      totals,
    };
    const invoice = s.invoice.run(
      "invoice",
      formatInvoiceNumber("invoice", year, sequence),
      year,
      sequence,
      id,
      issued.toISOString(),
      totals.excludingCents,
      totals.vatCents,
      totals.includingCents,
      JSON.stringify(document),
    );
    stats.invoices++;
    const subject = `Confirmation de votre commande n°${id}`;
    const mine = (body: string) => body.replaceAll(String(SAMPLE_ID), String(id)).replaceAll(SAMPLE_NAME, customer.firstName);
    const content = emailContent(
      plan.at + 60_000,
      now,
      () => mine(confirmation.html),
      () => mine(confirmation.text),
    );
    s.email.run(
      "order_confirmation",
      `order_confirmation:order:${id}`,
      id,
      null,
      customer.email,
      "{}",
      "sent",
      1,
      paidAt,
      paidAt,
      "demo",
      subject,
      content.html,
      content.text,
      TERMS_REF,
      content.purgedAfterDays,
      paidAt,
      paidAt,
    );
    stats.emails++;
    if (refunded) {
      const refund = s.refund.run(
        id,
        pack.priceCents,
        "Retour du client",
        "succeeded",
        `re_scale_${id}`,
        `scale-${id}`,
        "admin",
        paidAt,
        paidAt,
      );
      const creditSequence = (creditSequences.get(year) ?? 0) + 1;
      creditSequences.set(year, creditSequence);
      const number = formatInvoiceNumber("invoice", year, sequence);
      const credit = {
        ...document,
        invoiceNumber: number,
        invoiceIssuedAt: issued.toISOString(),
        refund: { amountCents: pack.priceCents, reason: "Retour du client", partial: false },
      };
      s.creditNote.run(
        "credit_note",
        formatInvoiceNumber("credit_note", year, creditSequence),
        year,
        creditSequence,
        id,
        invoice.lastInsertRowid,
        refund.lastInsertRowid,
        issued.toISOString(),
        totals.excludingCents,
        totals.vatCents,
        totals.includingCents,
        JSON.stringify(credit),
      );
      stats.refunds++;
    } else if (n % 199 === 7) {
      s.withdrawal.run(id, at(plan.at + 3 * DAY_MS), null, customer.email, at(plan.at + 3 * DAY_MS), at(plan.at + 3 * DAY_MS));
      stats.withdrawals++;
    }
  }
  for (const [year, last] of sequences) s.counter.run("invoice", year, last);
  for (const [year, last] of creditSequences) s.counter.run("credit_note", year, last);

  const statuses = ["traite", "traite", "traite", "lu", "en_cours", "non_lu"];
  for (let i = 0; i < Math.floor(count / 20); i++) {
    const customer = pick(customers);
    const created = at(now - randomInt(SPAN_DAYS * DAY_MS));
    const { lastInsertRowid } = s.contact.run(
      `${customer.firstName} ${customer.lastName}`,
      customer.email,
      "Question sur ma commande",
      "Bonjour, quand ma commande sera-t-elle expédiée ? Merci.",
      pick(statuses),
      created,
      created,
    );
    const ack = emailContent(
      Date.parse(created),
      now,
      () => "<p>Nous avons bien reçu votre message.</p>",
      () => "Nous avons bien reçu votre message.",
    );
    s.email.run(
      "contact_ack",
      `contact_ack:contact:${lastInsertRowid}`,
      null,
      lastInsertRowid,
      customer.email,
      "{}",
      "sent",
      1,
      created,
      created,
      "demo",
      "Nous avons bien reçu votre message",
      ack.html,
      ack.text,
      "[]",
      ack.purgedAfterDays,
      created,
      created,
    );
    stats.contacts++;
    stats.emails++;
  }
  return stats;
}
