import { asResponses } from "../helpers/route-response";
import { createHash } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { carts, orderItems, orders, products, users } from "~/db/schema";
import { action as postOrder } from "~/routes/api.orders";
import { loader as getOrder } from "~/routes/api.orders.$id";
import { loader as confirmationByIdRoute } from "~/routes/order-confirmation.$id";
import { loader as confirmationByQueryRoute } from "~/routes/order-confirmation";
import { action as cartActionRoute, loader as cartLoaderRoute } from "~/routes/panier";
import { deliverySchema } from "~/schemas/delivery";
import { addToCart, clearCartAfterPayment, getCartLineCount, readCart, setLineQuantity } from "~/services/cart.server";
import { getCartCookie } from "~/services/cart-session.server";
import { completeCheckout, submitDelivery } from "~/services/checkout.server";
import { getOrderSummary } from "~/services/orders/summary.server";
import { OrderError } from "~/services/orders/errors.server";
import { formRequest, getRequest, jsonRequest, routeArgs } from "../helpers/requests";

const confirmationById = asResponses(confirmationByIdRoute);
const confirmationByQuery = asResponses(confirmationByQueryRoute);
const cartAction = asResponses(cartActionRoute);
const cartLoader = asResponses(cartLoaderRoute);

const delivery = {
  firstName: "Camille",
  lastName: "Martin",
  email: "Camille.Martin@example.fr",
  address: "8 rue des Fleurs",
  postalCode: "69003",
  city: "Lyon",
};

async function count(table: typeof users | typeof orders | typeof orderItems) {
  return (
    await getDb()
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(table)
      .limit(1)
  )[0]!.n;
}

async function cartWith(packId: 1 | 2 | 3) {
  const cartId = crypto.randomUUID();
  await addToCart(cartId, { productId: 1, packId });
  return { cartId, cookie: (await getCartCookie().serialize(cartId)).split(";")[0] };
}

async function markPaid(orderId: number) {
  await getDb().update(orders).set({ paymentStatus: "paid", paidAt: new Date().toISOString() }).where(eq(orders.id, orderId));
}

describe("delivery form schema", () => {
  it("gives the spec's French message for each field", () => {
    const result = deliverySchema.safeParse({
      firstName: "C",
      lastName: "",
      email: "pas-un-email",
      address: "rue",
      postalCode: "690",
      city: "L",
    });
    expect(result.success).toBe(false);
    const messages = Object.fromEntries(result.error!.issues.map((i) => [i.path[0], i.message]));
    expect(messages).toEqual({
      firstName: "Le prénom doit contenir au moins 2 caractères",
      lastName: "Le nom doit contenir au moins 2 caractères",
      email: "Adresse email invalide",
      address: "L'adresse doit contenir au moins 5 caractères",
      postalCode: "Le code postal doit contenir au moins 5 caractères",
      city: "La ville doit contenir au moins 2 caractères",
    });
  });
});

describe("checkout: the delivery form creates the order", () => {
  it("creates the customer, the order and its items in one go, priced from the pack", async () => {
    const { cartId } = await cartWith(2);
    const before = { users: await count(users), orders: await count(orders) };
    const { orderId, created } = await submitDelivery(cartId, deliverySchema.parse(delivery));
    expect(created).toBe(true);
    expect(String(orderId)).toMatch(/^[1-9]\d{8}$/);
    expect(await count(users)).toBe(before.users + 1);
    expect(await count(orders)).toBe(before.orders + 1);
    const order = (await getDb().select().from(orders).where(eq(orders.id, orderId)).limit(1))[0]!;
    expect(order).toMatchObject({
      status: "pending",
      paymentStatus: "unpaid",
      subtotalCents: 2590,
      shippingCents: 0,
      totalCents: 2590,
      customerEmail: "camille.martin@example.fr",
      customerName: "Camille Martin",
      shippingAddress: "8 rue des Fleurs",
      shippingPostalCode: "69003",
      shippingCity: "Lyon",
      shippingCountry: "France",
      cartId,
    });
    const customer = (await getDb().select().from(users).where(eq(users.id, order.userId!)).limit(1))[0]!;
    expect(customer).toMatchObject({
      email: "camille.martin@example.fr",
      passwordHash: null,
      isAdmin: false,
      country: "France",
      firstName: "Camille",
    });
    const items = await getDb().select().from(orderItems).where(eq(orderItems.orderId, orderId));
    expect(items).toEqual([
      expect.objectContaining({
        productId: 1,
        packId: 2,
        quantity: 1,
        unitPriceCents: 2590,
        variantName: "6 masques + 2 offerts",
      }),
    ]);
    expect((await getDb().select().from(carts).where(eq(carts.id, cartId)).limit(1))[0]!.checkoutOrderId).toBe(orderId);
    expect((await readCart(cartId)).checkout).toMatchObject({
      orderId,
      amountCents: 2590,
      current: true,
      delivery: { firstName: "Camille", city: "Lyon" },
    });
  });

  it("keeps the optional telephone and second address line on the order, for its owner only", async () => {
    const { cartId } = await cartWith(2);
    const { orderId } = await submitDelivery(
      cartId,
      deliverySchema.parse({ ...delivery, address2: "Bâtiment B, 3e étage", phone: "06 12 34 56 78" }),
    );
    const order = (await getDb().select().from(orders).where(eq(orders.id, orderId)).limit(1))[0]!;
    expect(order).toMatchObject({ shippingAddress2: "Bâtiment B, 3e étage", shippingPhone: "+33612345678" });
    // The payment step shows them back as typed (the national form).
    expect((await readCart(cartId)).checkout?.delivery).toMatchObject({
      address2: "Bâtiment B, 3e étage",
      phone: "06 12 34 56 78",
    });
    expect(await getOrderSummary(orderId, { admin: true })).toMatchObject({
      shippingAddress2: "Bâtiment B, 3e étage",
      shippingPhone: "+33612345678",
    });
    // The order number alone shows neither.
    expect(await getOrderSummary(orderId)).toMatchObject({ shippingAddress2: null, shippingPhone: null });
    // Left empty the second time: cleared, not kept from the first.
    await submitDelivery(cartId, deliverySchema.parse({ ...delivery, address2: "", phone: "" }));
    expect((await getDb().select().from(orders).where(eq(orders.id, orderId)).limit(1))[0]).toMatchObject({
      shippingAddress2: null,
      shippingPhone: null,
    });
  });

  it("refuses a postal code that is not 5 digits from the page form: no order is made", async () => {
    const { cartId, cookie } = await cartWith(2);
    const before = await count(orders);
    const response = await cartAction(
      routeArgs(
        formRequest("/panier", { intent: "delivery", ...delivery, postalCode: "ABCDE" }, { headers: { Cookie: cookie } }),
      ),
    );
    expect(response.status).toBe(400);
    const body = (await response.json()) as { result: { error: Record<string, string[]> } };
    expect(body.result.error).toMatchObject({ postalCode: ["Saisissez un code postal à 5 chiffres"] });
    expect(await count(orders)).toBe(before);
    expect((await readCart(cartId)).checkout).toBeNull();
  });

  it("is idempotent: submitted twice, one order; new delivery details update that unpaid order", async () => {
    const { cartId } = await cartWith(2);
    const first = await submitDelivery(cartId, deliverySchema.parse(delivery));
    const ordersBefore = await count(orders);
    const usersBefore = await count(users);
    const second = await submitDelivery(cartId, deliverySchema.parse(delivery));
    expect(second).toEqual({ orderId: first.orderId, created: false });
    const changed = await submitDelivery(
      cartId,
      deliverySchema.parse({ ...delivery, address: "10 avenue Foch", city: "Paris", postalCode: "75016" }),
    );
    expect(changed.orderId).toBe(first.orderId);
    expect(await count(orders)).toBe(ordersBefore);
    expect(await count(users)).toBe(usersBefore);
    expect((await getDb().select().from(orders).where(eq(orders.id, first.orderId)).limit(1))[0]).toMatchObject({
      shippingCity: "Paris",
      shippingAddress: "10 avenue Foch",
    });
    expect(await getDb().select().from(orderItems).where(eq(orderItems.orderId, first.orderId))).toHaveLength(1);
  });

  it("rewrites the unpaid order when the cart changes before payment, but not once a payment was started", async () => {
    const { cartId } = await cartWith(2);
    const { orderId } = await submitDelivery(cartId, deliverySchema.parse(delivery));
    await setLineQuantity(cartId, (await readCart(cartId)).lines[0].id, 2);
    expect((await readCart(cartId)).checkout?.current).toBe(false);
    const rewritten = await submitDelivery(cartId, deliverySchema.parse(delivery));
    expect(rewritten).toEqual({ orderId, created: false });
    expect((await getDb().select().from(orders).where(eq(orders.id, orderId)).limit(1))[0]!.totalCents).toBe(5180);

    await getDb().update(orders).set({ stripePaymentIntentId: "pi_test_started" }).where(eq(orders.id, orderId));
    await addToCart(cartId, { productId: 1, packId: 3 });
    const fresh = await submitDelivery(cartId, deliverySchema.parse(delivery));
    expect(fresh.created).toBe(true);
    expect(fresh.orderId).not.toBe(orderId);
    expect((await getDb().select().from(orders).where(eq(orders.id, orderId)).limit(1))[0]!.totalCents).toBe(5180);
  });

  it("writes nothing when the order cannot be made (one transaction)", async () => {
    const { cartId } = await cartWith(2);
    const before = { users: await count(users), orders: await count(orders), items: await count(orderItems) };
    await getDb().update(products).set({ stock: 0 }).where(eq(products.id, 1));
    try {
      await expect(
        submitDelivery(cartId, deliverySchema.parse({ ...delivery, email: "nouvelle.cliente@example.fr" })),
      ).rejects.toThrow(OrderError);
    } finally {
      await getDb().update(products).set({ stock: 500 }).where(eq(products.id, 1));
    }
    expect({ users: await count(users), orders: await count(orders), items: await count(orderItems) }).toEqual(before);
    await expect(submitDelivery(crypto.randomUUID(), deliverySchema.parse(delivery))).rejects.toThrow(/vide/);
  });

  it("reuses the customer found by email and never modifies an administrator's account", async () => {
    const admin = (await getDb().select().from(users).where(eq(users.isAdmin, true)).limit(1))[0]!;
    const { cartId } = await cartWith(1);
    const { orderId } = await submitDelivery(
      cartId,
      deliverySchema.parse({ ...delivery, email: admin.email, city: "Marseille" }),
    );
    expect((await getDb().select().from(orders).where(eq(orders.id, orderId)).limit(1))[0]!.userId).toBe(admin.id);
    expect((await getDb().select().from(users).where(eq(users.id, admin.id)).limit(1))[0]).toMatchObject({
      city: admin.city,
      passwordHash: admin.passwordHash,
    });
  });

  it("empties the cart once its order is paid (a reload shows an empty cart)", async () => {
    const { cartId, cookie } = await cartWith(2);
    const { orderId } = await submitDelivery(cartId, deliverySchema.parse(delivery));
    expect(await completeCheckout(cartId, orderId)).toEqual({ paid: false });
    expect((await readCart(cartId)).lines).toHaveLength(1);
    await markPaid(orderId);
    // The header badge already reads the paid cart as empty.
    expect(await getCartLineCount(cartId)).toBe(0);
    const data = await (await cartLoader(routeArgs(getRequest("/panier", { Cookie: cookie })))).json();
    expect(data.cart).toMatchObject({ lines: [], checkout: null });

    const other = await cartWith(3);
    const second = await submitDelivery(other.cartId, deliverySchema.parse(delivery));
    await markPaid(second.orderId);
    await clearCartAfterPayment(second.orderId);
    expect((await getDb().select().from(carts).where(eq(carts.id, other.cartId)).limit(1))[0]!.checkoutOrderId).toBeNull();
    expect((await readCart(other.cartId)).lines).toEqual([]);
  });
});

describe("/panier delivery and complete intents", () => {
  it("answers invalid delivery data with the field messages and status 400", async () => {
    const { cookie } = await cartWith(2);
    const response = await cartAction(
      routeArgs(
        formRequest("/panier", { intent: "delivery", ...delivery, email: "faux", city: "L" }, { headers: { Cookie: cookie } }),
      ),
    );
    expect(response.status).toBe(400);
    const body = (await response.json()) as { result: { error: Record<string, string[]> } };
    expect(body.result.error).toMatchObject({
      email: ["Adresse email invalide"],
      city: ["La ville doit contenir au moins 2 caractères"],
    });
  });

  it("creates the order (JSON with JavaScript, redirect to the payment step without)", async () => {
    const { cartId, cookie } = await cartWith(2);
    const js = await cartAction(
      routeArgs(formRequest("/panier", { intent: "delivery", ...delivery }, { headers: { Cookie: cookie } })),
    );
    const body = (await js.json()) as { ok: boolean; orderId: number };
    expect(body).toMatchObject({ ok: true, intent: "delivery" });
    const noJs = await cartAction(
      routeArgs(
        formRequest(
          "/panier",
          { intent: "delivery", ...delivery },
          { headers: { Cookie: cookie, "Sec-Fetch-Mode": "navigate" } },
        ),
      ),
    );
    expect(noJs.status).toBe(302);
    expect(noJs.headers.get("Location")).toBe("/panier?etape=paiement");
    expect((await readCart(cartId)).checkout?.orderId).toBe(body.orderId);
    const page = await (await cartLoader(routeArgs(getRequest("/panier?etape=paiement", { Cookie: cookie })))).json();
    expect(page.step).toBe("paiement");
  });

  it("creates nothing when the honeypot is filled", async () => {
    const { cookie } = await cartWith(2);
    const before = await count(orders);
    await cartAction(
      routeArgs(
        formRequest("/panier", { intent: "delivery", ...delivery, website: "http://spam" }, { headers: { Cookie: cookie } }),
      ),
    );
    expect(await count(orders)).toBe(before);
  });

  it("'complete' empties the cart only when the server has the order paid, then shows the confirmation", async () => {
    const { cartId, cookie } = await cartWith(2);
    const { orderId } = await submitDelivery(cartId, deliverySchema.parse(delivery));
    const early = await cartAction(
      routeArgs(formRequest("/panier", { intent: "complete", orderId: String(orderId) }, { headers: { Cookie: cookie } })),
    );
    expect(early.headers.get("Location")).toBe(`/order-confirmation/${orderId}`);
    expect((await readCart(cartId)).lines).toHaveLength(1);
    expect((await getDb().select().from(orders).where(eq(orders.id, orderId)).limit(1))[0]!.paymentStatus).toBe("unpaid");
    await markPaid(orderId);
    await cartAction(
      routeArgs(formRequest("/panier", { intent: "complete", orderId: String(orderId) }, { headers: { Cookie: cookie } })),
    );
    expect((await getDb().select().from(carts).where(eq(carts.id, cartId)).limit(1))[0]!.checkoutOrderId).toBeNull();
    const noId = await cartAction(
      routeArgs(formRequest("/panier", { intent: "complete", orderId: "" }, { headers: { Cookie: cookie } })),
    );
    expect(noId.headers.get("Location")).toBe("/");
  });
});

const apiOrder = {
  total: "51.80",
  status: "paid",
  userId: 9999,
  customerEmail: "api.client@example.fr",
  customerName: "Jeanne de Lattre",
  shippingAddress: "3 place Bellecour",
  shippingCity: "Lyon",
  shippingPostalCode: "69002",
  shippingCountry: "France",
  items: [{ productId: 1, quantity: 2, price: "25.90", packId: 2 }],
};

describe("POST /api/orders", () => {
  it("creates an order priced by the server, pending and unpaid whatever status was sent, with its token", async () => {
    const response = await postOrder(routeArgs(jsonRequest("/api/orders", "POST", apiOrder)));
    expect(response.status).toBe(201);
    const body = await response.json();
    expect(body).toMatchObject({
      status: "pending",
      paymentStatus: "unpaid",
      total: "51.80",
      access: "owner",
      customerName: "Jeanne de Lattre",
      items: [{ quantity: 2, price: "25.90", packId: 2, product: { variantName: "6 masques + 2 offerts" } }],
    });
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(response.headers.get("Location")).toBe(`/api/orders/${body.id}`);
    const stored = (await getDb().select().from(orders).where(eq(orders.id, body.id)).limit(1))[0]!;
    // Only the token's SHA-256 is kept.
    expect(stored.tokenHash).toBe(createHash("sha256").update(body.token).digest("hex"));
    expect(JSON.stringify(stored)).not.toContain(body.token);
    // An unknown userId (the original's fallback 9999) links nothing: the email's new customer.
    expect(stored.userId).not.toBe(9999);
    expect(stored.customerName).toBe("Jeanne de Lattre");
    expect((await getDb().select().from(users).where(eq(users.id, stored.userId!)).limit(1))[0]).toMatchObject({
      firstName: "Jeanne",
      lastName: "de Lattre",
      isAdmin: false,
    });
  });

  it("refuses invalid bodies with JSON errors", async () => {
    const missing = await postOrder(
      routeArgs(jsonRequest("/api/orders", "POST", { ...apiOrder, shippingCity: undefined, items: [] })),
    );
    expect(missing.status).toBe(422);
    const body = await missing.json();
    expect(body.issues.map((i: { path: string }) => i.path).sort()).toEqual(["items", "shippingCity"]);
    const malformed = await postOrder(routeArgs(jsonRequest("/api/orders", "POST", "{not json")));
    expect(malformed.status).toBe(400);
    const unknown = await postOrder(
      routeArgs(
        jsonRequest("/api/orders", "POST", {
          ...apiOrder,
          total: undefined,
          items: [{ productId: 999, quantity: 1, packId: 2 }],
        }),
      ),
    );
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error).toMatch(/^Erreur lors de la création de la commande: /);
    const foreign = await postOrder(routeArgs(jsonRequest("/api/orders", "POST", apiOrder, { Origin: "https://evil.example" })));
    expect(foreign.status).toBe(403);
  });
});

describe("GET /api/orders/{id}", () => {
  it("gives the order with decimal prices; the number alone shows no name, street or email", async () => {
    const created = await (
      await postOrder(
        routeArgs(
          jsonRequest("/api/orders", "POST", {
            ...apiOrder,
            total: undefined,
            items: [{ productId: 1, quantity: 1, packId: 2 }],
          }),
        ),
      )
    ).json();
    await getDb().update(orders).set({ trackingNumber: "null" }).where(eq(orders.id, created.id));
    const response = await getOrder(routeArgs(getRequest(`/api/orders/${created.id}`), { id: String(created.id) }));
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(Object.keys(body).sort()).toEqual(
      [
        "access",
        "createdAt",
        "customerEmail",
        "customerName",
        "id",
        "items",
        "paymentStatus",
        "shipping",
        "shippingAddress",
        "shippingAddress2",
        "shippingCity",
        "shippingCountry",
        "shippingPhone",
        "shippingPostalCode",
        "status",
        "subtotal",
        "total",
        "trackingNumber",
        "trackingCarrier",
        "trackingCarrierName",
        "trackingUrl",
        "progressLabel",
        "closure",
        "promotionCode",
        "discount",
      ].sort(),
    );
    expect(body).toMatchObject({
      id: created.id,
      status: "pending",
      paymentStatus: "unpaid",
      progressLabel: "Paiement non reçu : cette commande n'est pas encore payée.",
      closure: null,
      trackingUrl: null,
      total: "25.90",
      trackingNumber: null,
      access: "public",
      shippingPostalCode: "69002",
      shippingCity: "Lyon",
      shippingAddress: null,
      customerName: null,
      customerEmail: null,
    });
    expect(new Date(body.createdAt).toISOString()).toBe(body.createdAt);
    expect(body.items).toEqual([
      {
        id: expect.any(Number),
        productId: 1,
        packId: 2,
        quantity: 1,
        price: "25.90",
        product: { name: "Masque Hydrogel au Collagène", variantName: "6 masques + 2 offerts" },
      },
    ]);
    expect(JSON.stringify(body)).not.toMatch(/password|api\.client@|Bellecour|Lattre/i);
  });

  it("answers 400 for malformed ids and 404 for unknown ones, never 500", async () => {
    for (const bad of ["abc", "-1", "1.5", "0", "1e3", "9".repeat(5000)]) {
      const response = await getOrder(routeArgs(getRequest(`/api/orders/${bad}`), { id: bad }));
      expect(response.status, bad).toBe(400);
      expect((await response.json()).error).toBeTruthy();
    }
    const unknown = await getOrder(routeArgs(getRequest("/api/orders/123456789"), { id: "123456789" }));
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: "Commande introuvable" });
  });
});

describe("order confirmation pages", () => {
  it("redirects without an id, and from ?id= to the order's page", async () => {
    const none = await confirmationByQuery(routeArgs(getRequest("/order-confirmation")));
    expect(none.headers.get("Location")).toBe("/");
    const query = await confirmationByQuery(routeArgs(getRequest("/order-confirmation?id=123456789")));
    expect(query.headers.get("Location")).toBe("/order-confirmation/123456789");
  });

  it("shows the order, or 'not found' with a 404 for unknown and malformed numbers", async () => {
    const created = await (await postOrder(routeArgs(jsonRequest("/api/orders", "POST", apiOrder)))).json();
    const found = await confirmationById(routeArgs(getRequest(`/order-confirmation/${created.id}`), { id: String(created.id) }));
    expect(found.status).toBe(200);
    // The number alone: no name, no street (the token in ?token= shows them).
    expect((await found.json()).order).toMatchObject({
      id: created.id,
      totalCents: 5180,
      shippingCents: 0,
      owner: false,
      shippingAddress: null,
      customerName: null,
      shippingCity: "Lyon",
    });
    const withToken = await confirmationById(
      routeArgs(getRequest(`/order-confirmation/${created.id}?token=${created.token}`), { id: String(created.id) }),
    );
    expect((await withToken.json()).order).toMatchObject({
      owner: true,
      shippingAddress: "3 place Bellecour",
      customerName: "Jeanne de Lattre",
    });
    for (const bad of ["abc", "-1", "1.5", "123456789", "9".repeat(5000)]) {
      const response = await confirmationById(routeArgs(getRequest(`/order-confirmation/${bad}`), { id: bad }));
      expect(response.status, bad).toBe(404);
      expect(await response.json()).toEqual({
        order: null,
        subscription: null,
        pending: false,
        trialRefund: null,
        refusal: null,
      });
    }
  });
});
