import { asResponses } from "../helpers/route-response";
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { orders, users } from "~/db/schema";
import { loader as adminOrderLoaderRoute } from "~/routes/admin.orders.$id";
import { loader as csvLoader } from "~/routes/admin.orders.export[.]csv";
import { loader as invoiceLoaderRoute } from "~/routes/admin_.orders.$id.invoice";
import { action as postOrder } from "~/routes/api.orders";
import { action as putOrder, loader as getOrder } from "~/routes/api.orders.$id";
import { action as cartActionRoute, loader as cartLoaderRoute } from "~/routes/panier";
import { addToCart, type CartView } from "~/services/cart.server";
import { resetAllRateLimits } from "~/services/limits.server";
import { getCartCookie } from "~/services/cart-session.server";
import { snapshotDatabase } from "../helpers/api-db";
import { formRequest, fromAddress, getRequest, jsonRequest, routeArgs } from "../helpers/requests";
import { adminCookie, cookieFrom } from "./admin-helpers";
import { markOrderPaid } from "~/services/payments/payment-state.server";

const adminOrderLoader = asResponses(adminOrderLoaderRoute);
const invoiceLoader = asResponses(invoiceLoaderRoute);
const cartAction = asResponses(cartActionRoute);
const cartLoader = asResponses(cartLoaderRoute);

// Every test here creates orders from one client address: the per-address limit is not what they test.
beforeEach(async () => await resetAllRateLimits());

/**
 * Customers' data: an anonymous checkout never changes an existing customer, every page reads
 * the order's own copy of the name and address, and an order number alone shows no name,
 * street or email. The buyer's browser (cart or `orders` cookie), the order token and an
 * administrator see everything.
 */

let seq = 0;
const unique = () => `${Date.now().toString(36)}${++seq}`;

const VICTIM = {
  firstName: "Victoire",
  lastName: "Durand",
  address: "7 allée des Tilleuls",
  postalCode: "33000",
  city: "Bordeaux",
};

async function newCartCookie(packId = 2) {
  const cartId = crypto.randomUUID();
  await addToCart(cartId, { productId: 1, packId });
  return { cartId, cookie: (await getCartCookie().serialize(cartId)).split(";")[0] };
}

async function deliver(cookie: string, fields: Record<string, string>) {
  const response = await cartAction(
    routeArgs(formRequest("/panier", { intent: "delivery", ...fields }, { headers: { Cookie: cookie } })),
  );
  expect(response.status).toBe(200);
  return { response, body: (await response.json()) as { ok: boolean; orderId: number } };
}

async function createApiOrder(body: Record<string, unknown>) {
  const response = await postOrder(routeArgs(jsonRequest("/api/orders", "POST", body)));
  expect(response.status).toBe(201);
  return { response, body: (await response.json()) as { id: number; token: string } };
}

async function readOrder(id: number, headers: Record<string, string> = {}, query = "") {
  const response = await getOrder(routeArgs(getRequest(`/api/orders/${id}${query}`, headers), { id: String(id) }));
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function update(id: number, body: unknown, headers: Record<string, string> = {}) {
  const response = await putOrder(routeArgs(jsonRequest(`/api/orders/${id}`, "PUT", body, headers), { id: String(id) }));
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("an existing customer is never changed by someone else's checkout", () => {
  it("keeps the victim's name and address after orders with their email (API and delivery form); each page shows each order's own name", async () => {
    const email = `victime.${unique()}@example.fr`;
    const victimCart = await newCartCookie();
    const victimOrder = (await deliver(victimCart.cookie, { ...VICTIM, email })).body.orderId;
    const account = (await getDb().select().from(users).where(eq(users.email, email)).limit(1))[0]!;
    expect(account).toMatchObject({ firstName: "Victoire", lastName: "Durand", address: VICTIM.address, city: "Bordeaux" });

    const api = await createApiOrder({
      customerEmail: email,
      customerName: "Malo Intrus",
      shippingAddress: "1 impasse du Piège",
      shippingPostalCode: "13001",
      shippingCity: "Marseille",
      items: [{ productId: 1, quantity: 1, packId: 2 }],
    });
    const intruderCart = await newCartCookie();
    const formOrder = (
      await deliver(intruderCart.cookie, {
        firstName: "Malo",
        lastName: "Intrus",
        email,
        address: "1 impasse du Piège",
        postalCode: "13001",
        city: "Marseille",
      })
    ).body.orderId;

    // The account is untouched; the foreign orders are linked to it, each with its own copy.
    expect((await getDb().select().from(users).where(eq(users.id, account.id)).limit(1))[0]).toEqual(account);
    for (const id of [api.body.id, formOrder]) {
      expect((await getDb().select().from(orders).where(eq(orders.id, id)).limit(1))[0]).toMatchObject({
        userId: account.id,
        customerName: "Malo Intrus",
        shippingAddress: "1 impasse du Piège",
        shippingCity: "Marseille",
      });
    }

    // The back office, the invoice and the CSV read each order's own copy.
    const cookie = await adminCookie();
    const adminPage = async (id: number) =>
      (
        (await (
          await adminOrderLoader(routeArgs(getRequest(`/admin/orders/${id}`, { Cookie: cookie }), { id: String(id) }))
        ).json()) as { order: Record<string, unknown> }
      ).order;
    expect(await adminPage(victimOrder)).toMatchObject({
      customer: "Victoire Durand",
      email,
      shippingAddress: VICTIM.address,
      shippingCity: "Bordeaux",
    });
    expect(await adminPage(formOrder)).toMatchObject({
      customer: "Malo Intrus",
      shippingAddress: "1 impasse du Piège",
      shippingCity: "Marseille",
    });
    // Once paid, its invoice bills the order's own name and address.
    await markOrderPaid(victimOrder, { paymentIntentId: `pi_${victimOrder}` });
    const invoice = (await (
      await invoiceLoader(
        routeArgs(getRequest(`/admin/orders/${victimOrder}/invoice`, { Cookie: cookie }), { id: String(victimOrder) }),
      )
    ).json()) as {
      invoice: { document: { buyer: Record<string, unknown> } };
    };
    expect(invoice.invoice.document.buyer).toMatchObject({ name: "Victoire Durand", address: VICTIM.address });
    const csv = await (
      await csvLoader(
        routeArgs(getRequest(`/admin/orders/export.csv?view=all&q=${encodeURIComponent(email)}`, { Cookie: cookie })),
      )
    ).text();
    const line = (id: number) => csv.split("\r\n").find((l) => l.startsWith(`"${id}"`))!;
    expect(line(victimOrder)).toContain('"Victoire Durand"');
    expect(line(victimOrder)).toContain(`"${VICTIM.address}"`);
    expect(line(api.body.id)).toContain('"Malo Intrus"');
    expect(line(api.body.id)).not.toContain("Victoire");
  });

  it("never prefills the delivery form from an account matching a typed email", async () => {
    const email = `prefill.${unique()}@example.fr`;
    await deliver((await newCartCookie()).cookie, { ...VICTIM, email });
    // A stranger types the victim's email with their own name: the form shows back what they typed, nothing else.
    const stranger = await newCartCookie();
    await deliver(stranger.cookie, {
      firstName: "Jean",
      lastName: "Passant",
      email,
      address: "2 rue Neuve",
      postalCode: "75002",
      city: "Paris",
    });
    const page = (await (
      await cartLoader(routeArgs(getRequest("/panier?etape=livraison", { Cookie: stranger.cookie })))
    ).json()) as {
      cart: CartView;
    };
    expect(page.cart.checkout?.delivery).toEqual({
      firstName: "Jean",
      lastName: "Passant",
      email,
      address: "2 rue Neuve",
      address2: "",
      postalCode: "75002",
      city: "Paris",
      phone: "",
      // The order's own box, unticked: never an account's.
      reminderConsent: false,
    });
    expect(JSON.stringify(page)).not.toMatch(/Victoire|Durand|Tilleuls|Bordeaux/);
  });
});

describe("GET /api/orders/{id}: who sees the name, the street and the email", () => {
  const body = () => ({
    customerEmail: `prive.${unique()}@example.fr`,
    customerName: "Camille Secret",
    shippingAddress: "9 rue Cachée",
    shippingPostalCode: "69004",
    shippingCity: "Lyon",
    items: [{ productId: 1, quantity: 1, packId: 3 }],
  });

  it("hides them from the order number alone, and shows them to the token, the browser's cookies and an administrator", async () => {
    const { response, body: created } = await createApiOrder(body());
    const anonymous = await readOrder(created.id);
    expect(anonymous.status).toBe(200);
    expect(anonymous.body).toMatchObject({
      access: "public",
      customerName: null,
      customerEmail: null,
      shippingAddress: null,
      shippingPostalCode: "69004",
      shippingCity: "Lyon",
      total: "32.90",
    });
    expect(JSON.stringify(anonymous.body)).not.toMatch(/Secret|Cachée|prive\./);

    const full = {
      access: "owner",
      customerName: "Camille Secret",
      shippingAddress: "9 rue Cachée",
      customerEmail: expect.stringMatching(/^prive\./),
    };
    expect((await readOrder(created.id, { "X-Order-Token": created.token })).body).toMatchObject(full);
    expect((await readOrder(created.id, {}, `?token=${created.token}`)).body).toMatchObject(full);
    expect((await readOrder(created.id, { Cookie: cookieFrom(response, "orders")! })).body).toMatchObject(full);
    expect((await readOrder(created.id, { Cookie: await adminCookie() })).body).toMatchObject(full);

    // Someone else's token, or a made-up one, proves nothing.
    const other = await createApiOrder(body());
    expect((await readOrder(created.id, { "X-Order-Token": other.body.token })).body).toMatchObject({
      access: "public",
      shippingAddress: null,
    });
    expect((await readOrder(created.id, { "X-Order-Token": "a".repeat(43) })).body).toMatchObject({ access: "public" });
  });

  it("shows them to the browser that went through checkout (cart cookie, orders cookie), not to another", async () => {
    const cart = await newCartCookie();
    const { response, body: delivered } = await deliver(cart.cookie, {
      firstName: "Lina",
      lastName: "Privé",
      email: `lina.${unique()}@example.fr`,
      address: "4 rue Intime",
      postalCode: "31000",
      city: "Toulouse",
    });
    const ordersCookie = cookieFrom(response, "orders");
    expect(ordersCookie).toBeTruthy();
    expect(response.headers.getSetCookie().find((c) => c.startsWith("orders="))).toMatch(/HttpOnly/i);
    expect((await readOrder(delivered.orderId, { Cookie: cart.cookie })).body).toMatchObject({
      access: "owner",
      shippingAddress: "4 rue Intime",
      customerName: "Lina Privé",
    });
    expect((await readOrder(delivered.orderId, { Cookie: ordersCookie! })).body).toMatchObject({ access: "owner" });
    expect((await readOrder(delivered.orderId, { Cookie: (await newCartCookie()).cookie })).body).toMatchObject({
      access: "public",
      shippingAddress: null,
    });
    // A forged orders cookie (not signed with our secret) is ignored.
    const forged = `orders=${Buffer.from(JSON.stringify([delivered.orderId])).toString("base64")}`;
    expect((await readOrder(delivered.orderId, { Cookie: forged })).body).toMatchObject({ access: "public" });
  });

  it("the orders cookie keeps the latest 20 orders of the browser", async () => {
    let cookie = "";
    const ids: number[] = [];
    for (let i = 0; i < 22; i++) {
      // From two client addresses: 22 orders from one would pass its limit of API orders.
      const response = await postOrder(
        routeArgs(
          jsonRequest("/api/orders", "POST", body(), cookie ? { Cookie: cookie } : {}),
          {},
          fromAddress(`198.51.100.${i % 2}`),
        ),
      );
      ids.push(((await response.json()) as { id: number }).id);
      cookie = cookieFrom(response, "orders")!;
    }
    expect((await readOrder(ids[0], { Cookie: cookie })).body.access).toBe("public");
    expect((await readOrder(ids[1], { Cookie: cookie })).body.access).toBe("public");
    expect((await readOrder(ids[2], { Cookie: cookie })).body.access).toBe("owner");
    expect((await readOrder(ids[21], { Cookie: cookie })).body.access).toBe("owner");
  });
});

describe("PUT /api/orders/{id}: the spec's checkout fields for the token holder", () => {
  const specBody = {
    total: "25.90",
    status: "pending",
    userId: 3,
    shippingAddress: "12 rue des Lilas",
    shippingCity: "Paris",
    shippingPostalCode: "75011",
    shippingCountry: "France",
    items: [{ productId: 1, quantity: 1, price: "25.90" }],
  };

  it("sets the email and the name while unpaid; status 'confirmed' and isSubscription never mark it paid", async () => {
    const { body: created } = await createApiOrder(specBody);
    const email = `checkout.${unique()}@example.fr`;
    const updated = await update(
      created.id,
      {
        customerEmail: email,
        customerName: "Sacha Martin",
        status: "confirmed",
        isSubscription: false,
        stripeSubscriptionId: "sub_fake",
      },
      { "X-Order-Token": created.token },
    );
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      id: created.id,
      access: "owner",
      customerEmail: email,
      customerName: "Sacha Martin",
      status: "pending",
      paymentStatus: "unpaid",
    });
    const stored = (await getDb().select().from(orders).where(eq(orders.id, created.id)).limit(1))[0]!;
    expect(stored).toMatchObject({
      customerEmail: email,
      customerName: "Sacha Martin",
      customerFirstName: "Sacha",
      customerLastName: "Martin",
      paymentStatus: "unpaid",
      isSubscription: false,
      stripeSubscriptionId: null,
    });
    // The email's customer is created (or found) and linked.
    expect((await getDb().select().from(users).where(eq(users.id, stored.userId!)).limit(1))[0]).toMatchObject({
      email,
      firstName: "Sacha",
      isAdmin: false,
    });
    // ?token= works too.
    const viaQuery = await putOrder(
      routeArgs(jsonRequest(`/api/orders/${created.id}?token=${created.token}`, "PUT", { customerName: "Sacha Martin-Roy" }), {
        id: String(created.id),
      }),
    );
    expect(viaQuery.status).toBe(200);
  });

  it("refuses without the token (401), with a wrong one (404 like an unknown order), the tracking number (403), once paid (409), and a subscription of the trial pack (422)", async () => {
    const { body: created } = await createApiOrder(specBody);
    const before = await snapshotDatabase();
    expect((await update(created.id, { customerName: "Intrus Total" })).status).toBe(401);
    const wrong = await update(created.id, { customerName: "Intrus Total" }, { "X-Order-Token": "b".repeat(43) });
    const unknown = await update(123456789, { customerName: "Intrus Total" }, { "X-Order-Token": "b".repeat(43) });
    expect(wrong).toEqual({ status: 404, body: { error: "Commande introuvable", issues: [] } });
    expect(unknown).toEqual(wrong);
    expect((await update(created.id, { trackingNumber: "6A123" }, { "X-Order-Token": created.token })).status).toBe(403);
    expect(await snapshotDatabase()).toBe(before);

    const trial = await createApiOrder({ ...specBody, total: "0.99", items: [{ productId: 1, quantity: 1, price: "0.99" }] });
    const subscription = await update(trial.body.id, { isSubscription: true }, { "X-Order-Token": trial.body.token });
    expect(subscription.status).toBe(422);
    expect(subscription.body.issues).toEqual([
      { path: "isSubscription", message: expect.stringContaining("uniquement en achat unique") },
    ]);

    await getDb().update(orders).set({ paymentStatus: "paid" }).where(eq(orders.id, created.id));
    const paid = await update(created.id, { customerEmail: `tard.${unique()}@example.fr` }, { "X-Order-Token": created.token });
    expect(paid.status).toBe(409);
  });

  it("keeps the administrator's update (status, tracking number) working once paid, and lets them set the checkout fields before", async () => {
    const { body: created } = await createApiOrder(specBody);
    const cookie = await adminCookie();
    const early = await update(created.id, { status: "Expédiée", trackingNumber: "6A12345678901" }, { Cookie: cookie });
    expect(early.status).toBe(409);
    const invalid = await update(created.id, { status: "payée" }, { Cookie: cookie });
    expect(invalid.status).toBe(422);
    const checkout = await update(created.id, { customerName: "Nom Corrigé" }, { Cookie: cookie });
    expect(checkout.body).toMatchObject({ customerName: "Nom Corrigé" });
    await markOrderPaid(created.id, { paymentIntentId: `pi_${created.id}` });
    const adminUpdate = await update(created.id, { status: "Expédiée", trackingNumber: "6A12345678901" }, { Cookie: cookie });
    expect(adminUpdate.status).toBe(200);
    expect(adminUpdate.body).toMatchObject({
      id: created.id,
      status: "shipped",
      trackingNumber: "6A12345678901",
      paymentStatus: "paid",
    });
  });
});
