import { asResponses } from "../helpers/route-response";
import { eq, inArray } from "drizzle-orm";
import { getToast } from "remix-toast";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { auditLog, contactRequests, emails, invoices, orders, subscriptions, users } from "~/db/schema";
import { loader as apiDetailLoader, action as apiDetailAction } from "~/routes/api.admin.customers.$id";
import { action as apiEraseAction } from "~/routes/api.admin.customers.$id.erase";
import { loader as apiExportLoader } from "~/routes/api.admin.customers.$id.export";
import { action as pageActionRoute, loader as pageLoaderRoute } from "~/routes/admin.customers.$id";
import { loader as exportFileLoader } from "~/routes/admin_.customers.$id.export[.]json";
import { loader as usersPageLoaderRoute } from "~/routes/admin.users._index";
import { createContactRequest } from "~/services/contacts.server";
import { eraseCustomerData } from "~/services/customers/erase.server";
import { erasedEmail } from "~/services/customers/placeholders.server";
import { exportCustomerData } from "~/services/customers/export.server";
import { getCustomerData } from "~/services/customers/records.server";
import { findOrCreateCustomer } from "~/services/customers/accounts.server";
import { markOrderPaid } from "~/services/payments/payment-state.server";
import { snapshotDatabase } from "../helpers/api-db";
import { formRequest, getRequest, jsonRequest, routeArgs, thrown } from "../helpers/requests";
import { adminCookie, cookieFrom, insertOrder } from "./admin-helpers";
import { setUpTestEmulator } from "./emulator-fixtures";

// The erasure reaches Stripe: this file's own emulator, on a free port.
setUpTestEmulator();

const pageAction = asResponses(pageActionRoute);
const pageLoader = asResponses(pageLoaderRoute);
const usersPageLoader = asResponses(usersPageLoaderRoute);

/**
 * A customer's data in the back office: the page and the API show and export everything the
 * shop holds about one customer (and nothing of another), erasure anonymises what is personal
 * and keeps what the accounts need, and is refused while an order or a subscription is open.
 */

const admin = async () => (await getDb().select().from(users).where(eq(users.username, "admin")).limit(1))[0]!;
const actor = async () => ({ id: (await admin()).id, username: (await admin()).username });

let customerKey = 0;

/** A checkout customer with: a paid, delivered order (invoice and emails), an anonymous order typed with the same email in capitals, a contact request and a canceled subscription. */
async function customerWithHistory() {
  const n = ++customerKey;
  const email = `camille.rgpd${n}@example.fr`;
  const { id } = await findOrCreateCustomer(getDb(), {
    email,
    firstName: "Camille",
    lastName: `Rgpd${n}`,
    address: "8 rue des Lilas",
    postalCode: "75011",
    city: "Paris",
    country: "France",
  });
  await getDb().update(users).set({ phone: "+33612345678" }).where(eq(users.id, id));
  const paid = await insertOrder({
    userId: id,
    customerEmail: email,
    customerName: `Camille Rgpd${n}`,
    customerFirstName: "Camille",
    customerLastName: `Rgpd${n}`,
    shippingAddress: "8 rue des Lilas",
    shippingAddress2: "Bâtiment B",
    shippingPhone: "+33612345678",
    totalCents: 4990,
    subtotalCents: 4990,
  });
  await markOrderPaid(paid, { paymentIntentId: `pi_rgpd_${paid}` });
  await getDb().update(orders).set({ status: "delivered" }).where(eq(orders.id, paid));
  const anonymous = await insertOrder({
    userId: null,
    customerEmail: email.toUpperCase(),
    customerName: `Camille Rgpd${n}`,
    tokenHash: "a".repeat(64),
  });
  const contact = await createContactRequest({
    name: `Camille Rgpd${n}`,
    email,
    subject: "Ma peau sensible",
    message: "Bonjour, mon adresse est 8 rue des Lilas.",
  });
  const subscription = (
    await getDb()
      .insert(subscriptions)
      .values({
        userId: id,
        customerEmail: email,
        customerName: `Camille Rgpd${n}`,
        amountCents: 4990,
        stripeSubscriptionId: `sub_rgpd_${n}`,
        status: "canceled",
        canceledAt: new Date().toISOString(),
        firstOrderId: paid,
        shippingName: `Camille Rgpd${n}`,
        shippingAddress: "8 rue des Lilas",
        shippingPostalCode: "75011",
        shippingCity: "Paris",
        shippingCountry: "France",
        shippingPhone: "+33612345678",
      })
      .returning()
  )[0].id;
  return { id, email, name: `Rgpd${n}`, paid, anonymous, contact: contact.id, subscription };
}

type Customer = Awaited<ReturnType<typeof customerWithHistory>>;

let a: Customer;
let b: Customer;
let cookie: string;

beforeAll(async () => {
  a = await customerWithHistory();
  b = await customerWithHistory();
  cookie = await adminCookie();
});

/** Everything stored about a customer, as rows. */
async function rowsOf(c: Customer) {
  const db = getDb();
  const orderIds = [c.paid, c.anonymous];
  return {
    user: (await db.select().from(users).where(eq(users.id, c.id)).limit(1))[0]!,
    orders: await db.select().from(orders).where(inArray(orders.id, orderIds)),
    subscription: (await db.select().from(subscriptions).where(eq(subscriptions.id, c.subscription)).limit(1))[0]!,
    contact: (await db.select().from(contactRequests).where(eq(contactRequests.id, c.contact)).limit(1))[0]!,
    emails: (await db.select().from(emails)).filter(
      (e) => (e.orderId !== null && orderIds.includes(e.orderId)) || e.contactRequestId === c.contact,
    ),
    invoice: (await db.select().from(invoices).where(eq(invoices.orderId, c.paid)).limit(1))[0]!,
  };
}

async function toastOf(response: Response) {
  const toastCookie = cookieFrom(response, "toast-session");
  expect(toastCookie).not.toBeNull();
  return (await getToast(getRequest("/admin/users", { Cookie: toastCookie! }))).toast;
}

describe("what the shop holds about a customer", () => {
  it("gathers the customer's orders (by account and by email, whatever its case), subscription, emails and contact requests, and nothing of another customer", async () => {
    const data = (await getCustomerData(a.id))!;
    expect(data.customer).toMatchObject({
      id: a.id,
      email: a.email,
      lastName: a.name,
      phone: "+33612345678",
      erased: false,
      isAdmin: false,
    });
    expect(data.orders.map((o) => o.id).sort()).toEqual([a.paid, a.anonymous].sort());
    expect(data.orders.find((o) => o.id === a.paid)!.invoice?.number).toMatch(/^F\d{4}-\d{6}$/);
    expect(data.subscriptions.map((s) => s.id)).toEqual([a.subscription]);
    expect(data.contactRequests.map((r) => r.id)).toEqual([a.contact]);
    const kinds = data.emails.map((e) => e.kind).sort();
    expect(kinds).toEqual(["contact_ack", "order_confirmation", "shop_new_contact", "shop_new_order"]);
    const all = JSON.stringify(data);
    expect(all).not.toContain(b.email);
    expect(all).not.toContain(String(b.paid));
    expect(data.erasure).toEqual({ allowed: true, refusal: null, reasons: [] });
  });

  it("the page shows it, linked from the users list, which lists the last audit lines", async () => {
    const response = await pageLoader(
      routeArgs(getRequest(`/admin/customers/${a.id}`, { Cookie: cookie }), { id: String(a.id) }),
    );
    const page = await response.json();
    expect(page.customer.email).toBe(a.email);
    expect(page.orders).toHaveLength(2);
    const notFound = await thrown(
      pageLoader(routeArgs(getRequest("/admin/customers/999999", { Cookie: cookie }), { id: "999999" })),
    );
    expect(notFound.status).toBe(404);
    const signedOut = await thrown(pageLoader(routeArgs(getRequest(`/admin/customers/${a.id}`), { id: String(a.id) })));
    expect(signedOut.status).toBe(302);
    const list = await (await usersPageLoader(routeArgs(getRequest("/admin/users", { Cookie: cookie })))).json();
    expect(list.users.some((u: { id: number }) => u.id === a.id)).toBe(true);
  });
});

describe("the export", () => {
  it("downloads one JSON file with the customer's orders, subscriptions, emails and contact requests only, and no secret", async () => {
    const response = await exportFileLoader(
      routeArgs(getRequest(`/admin/customers/${a.id}/export.json`, { Cookie: cookie }), { id: String(a.id) }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
    const today = new Date().toISOString().slice(0, 10);
    expect(response.headers.get("Content-Disposition")).toBe(`attachment; filename="donnees-client-${a.id}-${today}.json"`);
    const text = await response.text();
    const file = JSON.parse(text);
    expect(file.client).toMatchObject({ id: a.id, email: a.email, prenom: "Camille", nom: a.name, telephone: "+33612345678" });
    expect(file.commandes.map((o: { numero: number }) => o.numero).sort()).toEqual([a.paid, a.anonymous].sort());
    const paid = file.commandes.find((o: { numero: number }) => o.numero === a.paid);
    expect(paid).toMatchObject({
      total: "49.90",
      statut: "Livrée",
      paiement: "Payée",
      livraison: { adresse: "8 rue des Lilas", complementAdresse: "Bâtiment B" },
    });
    expect(paid.facture.numero).toMatch(/^F/);
    expect(file.abonnements.map((s: { numero: number }) => s.numero)).toEqual([a.subscription]);
    expect(file.demandesDeContact).toEqual([
      expect.objectContaining({ id: a.contact, message: "Bonjour, mon adresse est 8 rue des Lilas.", statut: "Non lu" }),
    ]);
    expect(file.emails.length).toBe(4);
    // Another customer's data, passwords, token hashes, payment identifiers: none.
    expect(text).not.toContain(b.email);
    expect(text).not.toMatch(/password|hash|token|scrypt|pi_rgpd|sub_rgpd|stripe/i);
  });

  it("is recorded in the audit log: who, when, which customer, and no personal data", async () => {
    const before = (await getDb().select().from(auditLog).where(eq(auditLog.subjectId, b.id))).length;
    const response = await apiExportLoader(
      routeArgs(getRequest(`/api/admin/customers/${b.id}/export`, { Cookie: cookie }), { id: String(b.id) }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Disposition")).toMatch(
      new RegExp(`attachment; filename="donnees-client-${b.id}-\\d{4}-\\d{2}-\\d{2}\\.json"`),
    );
    expect((await response.json()).client.email).toBe(b.email);
    const lines = await getDb().select().from(auditLog).where(eq(auditLog.subjectId, b.id));
    expect(lines).toHaveLength(before + 1);
    const line = lines.at(-1)!;
    expect(line).toMatchObject({
      action: "customer.export",
      actorId: (await admin()).id,
      actorUsername: "admin",
      subjectId: b.id,
    });
    expect(Date.now() - Date.parse(line.at)).toBeLessThan(60_000);
    expect(JSON.stringify(line)).not.toMatch(new RegExp(`${b.email}|${b.name}|Lilas`));
  });
});

describe("the erasure is refused", () => {
  it("while a paid order is not shipped: the reason in French, a 409 with its code and details from the API, and nothing changed", async () => {
    const c = await customerWithHistory();
    const open = await insertOrder({ userId: c.id, customerEmail: c.email, paymentStatus: "paid", status: "processing" });
    const before = await snapshotDatabase();
    await expect(eraseCustomerData(c.id, await actor())).rejects.toThrow(
      `Effacement impossible : la commande n° ${open} n'est pas encore expédiée.`,
    );
    const api = await apiEraseAction(
      routeArgs(jsonRequest(`/api/admin/customers/${c.id}/erase`, "POST", undefined, { Cookie: cookie }), { id: String(c.id) }),
    );
    expect(api.status).toBe(409);
    expect(await api.json()).toEqual({
      error: `Effacement impossible : la commande n° ${open} n'est pas encore expédiée.`,
      code: "customer_order_unshipped",
      issues: [{ path: `orders.${open}`, message: `Effacement impossible : la commande n° ${open} n'est pas encore expédiée.` }],
    });
    const page = await pageAction(
      routeArgs(formRequest(`/admin/customers/${c.id}`, { intent: "erase" }, { headers: { Cookie: cookie } }), {
        id: String(c.id),
      }),
    );
    expect(page.status).toBe(302);
    expect(page.headers.get("Location")).toBe(`/admin/customers/${c.id}`);
    expect(await toastOf(page)).toMatchObject({
      type: "error",
      message: "Effacement refusé",
      description: expect.stringContaining(`la commande n° ${open}`),
    });
    expect(await snapshotDatabase()).toBe(before);
    expect((await getCustomerData(c.id))!.erasure).toMatchObject({
      allowed: false,
      reasons: [`Effacement impossible : la commande n° ${open} n'est pas encore expédiée.`],
    });

    // Shipped: the erasure goes through.
    await getDb().update(orders).set({ status: "shipped" }).where(eq(orders.id, open));
    expect((await eraseCustomerData(c.id, await actor())).customer.erased).toBe(true);
  });

  it("while a partially refunded order is not shipped, but not for a fully refunded one", async () => {
    const c = await customerWithHistory();
    const open = await insertOrder({
      userId: c.id,
      customerEmail: c.email,
      paymentStatus: "partially_refunded",
      status: "pending",
    });
    await insertOrder({ userId: c.id, customerEmail: c.email, paymentStatus: "refunded", status: "pending" });
    expect((await getCustomerData(c.id))!.erasure).toMatchObject({
      allowed: false,
      reasons: [`Effacement impossible : la commande n° ${open} n'est pas encore expédiée.`],
    });
    await getDb().update(orders).set({ status: "delivered" }).where(eq(orders.id, open));
    expect((await eraseCustomerData(c.id, await actor())).customer.erased).toBe(true);
  });

  it("while a subscription is active: cancel it first", async () => {
    const c = await customerWithHistory();
    await getDb().update(subscriptions).set({ status: "active" }).where(eq(subscriptions.id, c.subscription));
    const before = await snapshotDatabase();
    const api = await apiEraseAction(
      routeArgs(jsonRequest(`/api/admin/customers/${c.id}/erase`, "POST", undefined, { Cookie: cookie }), { id: String(c.id) }),
    );
    expect(api.status).toBe(409);
    const body = await api.json();
    expect(body).toMatchObject({
      code: "customer_subscription_active",
      error: `Effacement impossible : l'abonnement n° ${c.subscription} est actif : résiliez-le d'abord.`,
    });
    expect(await snapshotDatabase()).toBe(before);
  });

  it("for an administrator's account", async () => {
    const before = await snapshotDatabase();
    const api = await apiEraseAction(
      routeArgs(jsonRequest(`/api/admin/customers/${(await admin()).id}/erase`, "POST", undefined, { Cookie: cookie }), {
        id: String((await admin()).id),
      }),
    );
    expect(api.status).toBe(409);
    expect(await api.json()).toMatchObject({
      code: "customer_is_admin",
      error: expect.stringContaining("compte administrateur"),
    });
    expect(await snapshotDatabase()).toBe(before);
  });
});

describe("the erasure", () => {
  it("anonymises everything personal, keeps amounts, dates, numbers, statuses and invoices, and leaves other customers alone", async () => {
    // The confirmation left; the other emails are still queued: erased, they never leave.
    await getDb()
      .update(emails)
      .set({ status: "sent", sentAt: new Date().toISOString(), subject: "Confirmation", html: "<p>Camille</p>", text: "Camille" })
      .where(eq(emails.dedupeKey, `order_confirmation:order:${a.paid}`));
    const before = await rowsOf(a);
    const otherBefore = JSON.stringify(await rowsOf(b));
    const response = await pageAction(
      routeArgs(formRequest(`/admin/customers/${a.id}`, { intent: "erase" }, { headers: { Cookie: cookie } }), {
        id: String(a.id),
      }),
    );
    expect(response.status).toBe(302);
    expect(await toastOf(response)).toMatchObject({ type: "success", message: "Données effacées" });

    const after = await rowsOf(a);
    const placeholder = erasedEmail(a.id);
    expect(after.user).toMatchObject({
      email: placeholder,
      username: `efface-${a.id}`,
      passwordHash: null,
      firstName: null,
      lastName: null,
      address: null,
      city: null,
      postalCode: null,
      country: null,
      phone: null,
      isAdmin: false,
      createdAt: before.user.createdAt,
    });
    for (const order of after.orders) {
      const was = before.orders.find((o) => o.id === order.id)!;
      expect(order).toMatchObject({
        customerEmail: placeholder,
        customerName: null,
        customerFirstName: null,
        customerLastName: null,
        shippingAddress: null,
        shippingAddress2: null,
        shippingPostalCode: null,
        shippingCity: null,
        shippingPhone: null,
      });
      // What the accounts need stays.
      expect(order).toMatchObject({
        id: was.id,
        totalCents: was.totalCents,
        subtotalCents: was.subtotalCents,
        status: was.status,
        paymentStatus: was.paymentStatus,
        paidAt: was.paidAt,
        createdAt: was.createdAt,
        shippingCountry: "France",
      });
    }
    expect(after.invoice).toEqual(before.invoice);
    expect(after.subscription).toMatchObject({
      customerEmail: placeholder,
      customerName: null,
      shippingName: null,
      shippingAddress: null,
      shippingPhone: null,
      amountCents: 4990,
      status: "canceled",
      canceledAt: before.subscription.canceledAt,
    });
    expect(after.contact).toMatchObject({
      name: "[effacé]",
      email: placeholder,
      subject: "[effacé]",
      message: "[effacé]",
      createdAt: before.contact.createdAt,
    });
    expect(after.emails).toHaveLength(4);
    for (const email of after.emails) {
      const was = before.emails.find((e) => e.id === email.id)!;
      expect(email.toAddress).toBe(was.toAddress.toLowerCase() === a.email ? placeholder : was.toAddress);
      expect(email).toMatchObject({
        html: "<p>[effacé]</p>",
        text: "[effacé]",
        attachments: [],
        payload: {},
        kind: was.kind,
        createdAt: was.createdAt,
      });
    }
    for (const email of after.emails) {
      if (email.kind === "order_confirmation")
        expect(email).toMatchObject({ status: "sent", lastError: null, subject: "Confirmation" });
      else expect(email).toMatchObject({ status: "failed", lastError: "Effacé à la demande du client avant son envoi." });
    }
    expect(after.emails.some((e) => e.toAddress !== placeholder)).toBe(true); // the shop's own notices keep the shop's address
    const everything = JSON.stringify({ ...after, invoice: null });
    expect(everything).not.toContain(a.email);
    expect(everything).not.toContain(a.name);
    expect(everything).not.toContain("Lilas");
    expect(everything).not.toContain("612345678");

    expect(JSON.stringify(await rowsOf(b))).toBe(otherBefore);

    const lines = await getDb().select().from(auditLog).where(eq(auditLog.subjectId, a.id));
    const line = lines.find((l) => l.action === "customer.erase")!;
    // The order's payment id is counted for Stripe; this test's id is unknown there: nothing to erase.
    expect(line).toMatchObject({
      actorUsername: "admin",
      subjectId: a.id,
      details: { stripe: { customers: 0, paymentIntents: 1 } },
    });
    expect(lines.at(-1)).toMatchObject({
      action: "customer.erase_stripe",
      actorUsername: "admin",
      details: { stripe: { customers: 0, paymentIntents: 0, unknown: 1, attempts: 1 } },
    });
    expect(JSON.stringify(lines)).not.toMatch(new RegExp(`${a.email}|${a.name}|Lilas`));

    const page = await (
      await pageLoader(routeArgs(getRequest(`/admin/customers/${a.id}`, { Cookie: cookie }), { id: String(a.id) }))
    ).json();
    expect(page.customer).toMatchObject({ erased: true, email: placeholder });
    expect(page.orders).toHaveLength(2);
    expect(page.contactRequests).toHaveLength(1);
    expect(page.audit.map((l: { label: string }) => l.label).slice(0, 2)).toEqual([
      "Effacement chez Stripe",
      "Effacement des données personnelles",
    ]);
    expect(page.audit[1]).toMatchObject({ action: "customer.erase", actor: "admin" });
    expect(page.stripeErasure).toMatchObject({ status: "done", attempts: 1 });
  });

  it("can be repeated harmlessly, and the API answers the anonymised customer", async () => {
    // The same rows, only their time of update moves.
    const withoutUpdateTimes = async () =>
      JSON.stringify(await rowsOf(a), (key, value: unknown) => (key === "updatedAt" ? undefined : value));
    const before = await withoutUpdateTimes();
    const response = await apiEraseAction(
      routeArgs(jsonRequest(`/api/admin/customers/${a.id}/erase`, "POST", undefined, { Cookie: cookie }), { id: String(a.id) }),
    );
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.customer).toMatchObject({ id: a.id, erased: true, email: erasedEmail(a.id), firstName: null });
    expect(body.orders).toHaveLength(2);
    expect(await withoutUpdateTimes()).toBe(before);
  });
});

describe("the admin API's errors", () => {
  it("answers JSON errors for an unknown customer, a bad id, a wrong method and a missing session", async () => {
    const unknown = await apiDetailLoader(
      routeArgs(getRequest("/api/admin/customers/999999", { Cookie: cookie }), { id: "999999" }),
    );
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: "Client introuvable", issues: [] });
    const exportUnknown = await apiExportLoader(
      routeArgs(getRequest("/api/admin/customers/999999/export", { Cookie: cookie }), { id: "999999" }),
    );
    expect(exportUnknown.status).toBe(404);
    expect(await exportUnknown.json()).toMatchObject({ error: "Client introuvable", code: "customer_not_found" });
    const eraseUnknown = await apiEraseAction(
      routeArgs(jsonRequest("/api/admin/customers/999999/erase", "POST", undefined, { Cookie: cookie }), { id: "999999" }),
    );
    expect(eraseUnknown.status).toBe(404);
    const bad = await apiDetailLoader(routeArgs(getRequest("/api/admin/customers/abc", { Cookie: cookie }), { id: "abc" }));
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toBe("Identifiant invalide");
    const wrongMethod = await apiDetailAction(
      routeArgs(jsonRequest(`/api/admin/customers/${b.id}`, "DELETE", undefined, { Cookie: cookie }), { id: String(b.id) }),
    );
    expect(wrongMethod.status).toBe(405);
    const anonymous = await apiEraseAction(
      routeArgs(jsonRequest(`/api/admin/customers/${b.id}/erase`, "POST"), { id: String(b.id) }),
    );
    expect(anonymous.status).toBe(401);
    expect((await getCustomerData(b.id))!.customer.erased).toBe(false);
  });

  it("the service refuses an unknown customer with a 404", async () => {
    await expect(exportCustomerData(999999, await actor())).rejects.toThrow("Client introuvable");
  });
});
