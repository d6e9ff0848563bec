import { asResponses } from "../helpers/route-response";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { orderItems, orders, users } from "~/db/schema";
import { action as postOrder } from "~/routes/api.orders";
import { action as cartActionRoute } from "~/routes/panier";
import { deliverySchema } from "~/schemas/delivery";
import { addToCart } from "~/services/cart.server";
import { getCartCookie } from "~/services/cart-session.server";
import { submitDelivery } from "~/services/checkout.server";
import { createOrderFromApi } from "~/services/orders/create.server";
import { OrderError } from "~/services/orders/errors.server";
import { snapshotDatabase } from "../helpers/api-db";
import { formRequest, jsonRequest, routeArgs } from "../helpers/requests";

const cartAction = asResponses(cartActionRoute);

/**
 * The pack rules and the spec's order contract: one line per order, at most 10 of a pack and
 * exactly 1 of the trial pack, bought once per email; a line names its pack (by id, name or
 * exact price); a price or a total that is not the server's is refused with the expected amount.
 */

/** The spec's POST /api/orders body (section 7), as the original shop sent it. */
const SPEC_BODY = {
  total: "25.90",
  status: "pending",
  userId: 3,
  shippingAddress: "12 rue des Lilas",
  shippingCity: "Paris",
  shippingPostalCode: "75011",
  shippingCountry: "France",
  items: [{ productId: 1, quantity: 1, price: 25.9 }],
};

let emails = 0;
const newEmail = () => `regles.${++emails}.${Date.now()}@example.fr`;

async function post(body: unknown) {
  const response = await postOrder(routeArgs(jsonRequest("/api/orders", "POST", body)));
  return { status: response.status, body: await response.json() };
}

async function markPaid(orderId: number) {
  await getDb().update(orders).set({ paymentStatus: "paid", paidAt: new Date().toISOString() }).where(eq(orders.id, orderId));
}

const count = async () =>
  (
    await getDb()
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(orders)
      .limit(1)
  )[0]!.n;

describe("the spec's POST /api/orders body", () => {
  it("is accepted as it is: 201, the pack named by its price, with an order token", async () => {
    const created = await post(SPEC_BODY);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      status: "pending",
      paymentStatus: "unpaid",
      total: "25.90",
      customerEmail: null,
      customerName: null,
      shippingAddress: "12 rue des Lilas",
      items: [{ productId: 1, packId: 2, quantity: 1, price: "25.90", product: { variantName: "6 masques + 2 offerts" } }],
    });
    expect(created.body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // No email yet: no customer account; userId 3 names no client here, so nothing is linked.
    expect((await getDb().select().from(orders).where(eq(orders.id, created.body.id)).limit(1))[0]).toMatchObject({
      userId: null,
      customerEmail: null,
    });
  });

  it("never honours a status: 'paid' and 'delivered' still make a pending, unpaid order", async () => {
    for (const status of ["paid", "delivered", "confirmed"]) {
      const created = await post({ ...SPEC_BODY, status });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ status: "pending", paymentStatus: "unpaid" });
    }
  });

  it("refuses a wrong price with the expected amount, and writes nothing", async () => {
    const before = await snapshotDatabase();
    const wrongPrice = await post({
      ...SPEC_BODY,
      total: "25.90",
      items: [{ productId: 1, quantity: 1, packId: 2, price: "0.01" }],
    });
    expect(wrongPrice.status).toBe(422);
    expect(wrongPrice.body.issues).toEqual([{ path: "items.0.price", message: "Prix attendu : 25.90" }]);
    expect(wrongPrice.body.error).toMatch(/^Erreur lors de la création de la commande: /);
    // The original's bug: 0,01€ sent for the trial pack was silently recorded at 0,99€.
    const trialAtOneCent = await post({
      ...SPEC_BODY,
      total: "0.01",
      items: [{ productId: 1, quantity: 1, packId: 1, price: "0.01" }],
    });
    expect(trialAtOneCent.status).toBe(422);
    expect(trialAtOneCent.body.issues).toEqual([
      { path: "items.0.price", message: "Prix attendu : 0.99" },
      { path: "total", message: "Total attendu : 0.99" },
    ]);
    const wrongTotal = await post({ ...SPEC_BODY, total: "20,00" });
    expect(wrongTotal.status).toBe(422);
    expect(wrongTotal.body.issues).toEqual([{ path: "total", message: "Total attendu : 25.90" }]);
    expect(await snapshotDatabase()).toBe(before);
  });

  it("refuses a line that names no pack, listing the three packs", async () => {
    const before = await count();
    for (const item of [
      { productId: 1, quantity: 1, price: "25.00" },
      { productId: 1, quantity: 1 },
      { productId: 1, quantity: 1, packId: 7 },
      { productId: 1, quantity: 1, variantName: "Pack gratuit" },
    ]) {
      const refused = await post({ ...SPEC_BODY, total: undefined, items: [item] });
      expect(refused.status, JSON.stringify(item)).toBe(422);
      const message: string = refused.body.issues[0].message;
      expect(refused.body.issues[0].path).toBe("items.0");
      expect(message).toContain("1 : « 3 masques d'essai », 0.99");
      expect(message).toContain("2 : « 6 masques + 2 offerts », 25.90");
      expect(message).toContain("3 : « 9 masques + 3 offerts », 32.90");
    }
    expect(await count()).toBe(before);
  });

  it("names a pack by its id, its exact name or its exact price (a comma or a number)", async () => {
    for (const item of [
      { productId: 1, quantity: 1, packId: 3 },
      { productId: 1, quantity: 1, variantName: "9 masques + 3 offerts" },
      { productId: 1, quantity: 1, price: "32,90" },
      { productId: 1, quantity: 1, price: 32.9 },
    ]) {
      const created = await post({ ...SPEC_BODY, total: "32.90", items: [item] });
      expect(created.status, JSON.stringify(item)).toBe(201);
      expect(created.body.items[0]).toMatchObject({ packId: 3, price: "32.90" });
    }
  });

  it("links the client named by userId without changing it", async () => {
    const [client] = await getDb()
      .insert(users)
      .values({
        username: `client-${Date.now()}`,
        email: newEmail(),
        firstName: "Aline",
        lastName: "Roux",
        address: "1 rue Haute",
        city: "Lille",
        postalCode: "59000",
      })
      .returning();
    const created = await post({ ...SPEC_BODY, userId: client.id, customerName: "Quelqu'un d'autre" });
    expect(created.status).toBe(201);
    expect((await getDb().select().from(orders).where(eq(orders.id, created.body.id)).limit(1))[0]!.userId).toBe(client.id);
    expect((await getDb().select().from(users).where(eq(users.id, client.id)).limit(1))[0]).toEqual(client);
    // An administrator is not a client to link an order to.
    const admin = (await getDb().select().from(users).where(eq(users.isAdmin, true)).limit(1))[0]!;
    const notAdmin = await post({ ...SPEC_BODY, userId: admin.id });
    expect((await getDb().select().from(orders).where(eq(orders.id, notAdmin.body.id)).limit(1))[0]!.userId).toBeNull();
  });
});

describe("one line, at most 10 of a pack, exactly 1 trial pack", () => {
  it("refuses pack 1 × 4 (12 masks for 3,96€ instead of pack 3), pack 2 × 11 and two lines", async () => {
    const before = await count();
    const trialTimesFour = await post({ ...SPEC_BODY, total: undefined, items: [{ productId: 1, quantity: 4, packId: 1 }] });
    expect(trialTimesFour.status).toBe(422);
    expect(trialTimesFour.body.issues).toEqual([
      { path: "items.0.quantity", message: "Le pack d'essai « 3 masques d'essai » est limité à 1 exemplaire par commande." },
    ]);
    const elevenOfPack2 = await post({ ...SPEC_BODY, total: undefined, items: [{ productId: 1, quantity: 11, packId: 2 }] });
    expect(elevenOfPack2.status).toBe(422);
    expect(elevenOfPack2.body.issues).toEqual([
      { path: "items.0.quantity", message: "La quantité d'un pack est limitée à 10 par commande." },
    ]);
    const twoLines = await post({
      ...SPEC_BODY,
      total: undefined,
      items: [
        { productId: 1, quantity: 1, packId: 2 },
        { productId: 1, quantity: 1, packId: 3 },
      ],
    });
    expect(twoLines.status).toBe(422);
    expect(twoLines.body.issues).toEqual([
      { path: "items", message: "Une commande contient un seul article : un pack, de 1 à 10 exemplaires." },
    ]);
    const twentyTimes99 = await post({
      ...SPEC_BODY,
      total: undefined,
      items: Array.from({ length: 20 }, () => ({ productId: 1, quantity: 99, packId: 3 })),
    });
    expect(twentyTimes99.status).toBe(422);
    expect(await count()).toBe(before);
    const ten = await post({ ...SPEC_BODY, total: "259.00", items: [{ productId: 1, quantity: 10, packId: 2 }] });
    expect(ten.status).toBe(201);
  });
});

describe("the trial pack: once per email", () => {
  it("refuses a second trial pack for an email that paid one (API), until then allows it", async () => {
    const email = newEmail();
    const trial = { ...SPEC_BODY, customerEmail: email, total: "0.99", items: [{ productId: 1, quantity: 1, price: "0.99" }] };
    const first = await post(trial);
    expect(first.status).toBe(201);
    expect(first.body.items[0]).toMatchObject({ packId: 1, price: "0.99" });
    // Not paid yet: a second unpaid one is allowed (the payment step refuses it later if the first is paid).
    const second = await post(trial);
    expect(second.status).toBe(201);
    await markPaid(first.body.id);
    const third = await post({ ...trial, customerEmail: email.toUpperCase() });
    expect(third.status).toBe(409);
    expect(third.body.issues).toEqual([
      {
        path: "customerEmail",
        message:
          "Le pack d'essai « 3 masques d'essai » ne peut être acheté qu'une fois par adresse email, et cette adresse l'a déjà commandé. Choisissez un autre pack.",
      },
    ]);
    // Another pack is fine for that email; the trial pack is fine for another email.
    expect((await post({ ...trial, total: "25.90", items: [{ productId: 1, quantity: 1, packId: 2 }] })).status).toBe(201);
    expect((await post({ ...trial, customerEmail: newEmail() })).status).toBe(201);
  });

  it("says why in the delivery form, under the email field", async () => {
    const email = newEmail();
    const paid = await createOrderFromApi({
      ...SPEC_BODY,
      customerEmail: email,
      total: 99,
      items: [{ productId: 1, quantity: 1, packId: 1 }],
    });
    await markPaid(paid.id);
    const cartId = crypto.randomUUID();
    await addToCart(cartId, { productId: 1, packId: 1 });
    const cookie = (await getCartCookie().serialize(cartId)).split(";")[0];
    const fields = {
      intent: "delivery",
      firstName: "Camille",
      lastName: "Martin",
      email,
      address: "8 rue des Fleurs",
      postalCode: "69003",
      city: "Lyon",
    };
    const response = await cartAction(routeArgs(formRequest("/panier", fields, { headers: { Cookie: cookie } })));
    expect(response.status).toBe(409);
    const body = (await response.json()) as { ok: boolean; result: { error: Record<string, string[]> } };
    expect(body.ok).toBe(false);
    expect(body.result.error.email).toEqual([expect.stringContaining("ne peut être acheté qu'une fois par adresse email")]);
    // Without JavaScript the same answer comes back to the delivery step (no redirect that would lose it).
    const noJs = await cartAction(
      routeArgs(formRequest("/panier", fields, { headers: { Cookie: cookie, "Sec-Fetch-Mode": "navigate" } })),
    );
    expect(noJs.status).toBe(409);
    await expect(submitDelivery(cartId, deliverySchema.parse(fields))).rejects.toThrow(OrderError);
    expect(
      await getDb()
        .select()
        .from(orderItems)
        .innerJoin(orders, eq(orders.id, orderItems.orderId))
        .where(eq(orders.cartId, cartId)),
    ).toEqual([]);
  });
});
