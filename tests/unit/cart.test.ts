import { asResponses } from "../helpers/route-response";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { cartLines, products } from "~/db/schema";
import { action as apiCartPost } from "~/routes/api.cart";
import { action as apiCartLine, loader as apiCartGet } from "~/routes/api.cart.$id";
import { action as apiCartClear } from "~/routes/api.cart.user.$userId";
import { action as cartActionRoute, loader as cartLoaderRoute } from "~/routes/panier";
import { cartAddSchema } from "~/schemas/cart";
import { addToCart, CartError, clearCart, readCart, setLineQuantity } from "~/services/cart.server";
import { getCartCookie } from "~/services/cart-session.server";
import { formRequest, getRequest, jsonRequest, routeArgs } from "../helpers/requests";

const cartAction = asResponses(cartActionRoute);
const cartLoader = asResponses(cartLoaderRoute);

async function cookieFor(cartId: string) {
  return (await getCartCookie().serialize(cartId)).split(";")[0];
}

function newCartId() {
  return crypto.randomUUID();
}

/** A cart holding pack 2, with the Cookie header that identifies it. */
async function cartWithPack2() {
  const cartId = newCartId();
  await addToCart(cartId, { productId: 1, packId: 2 });
  return { cartId, cookie: await cookieFor(cartId), lineId: (await readCart(cartId)).lines[0].id };
}

describe("cart service", () => {
  it("adds one line at quantity 1, named and priced from the pack", async () => {
    const cartId = newCartId();
    const cart = await addToCart(cartId, { productId: 1, packId: 2 });
    expect(cart.lines).toHaveLength(1);
    expect(cart.lines[0]).toMatchObject({
      productId: 1,
      packId: 2,
      quantity: 1,
      variantName: "6 masques + 2 offerts",
      unitPriceCents: 2590,
      originalPriceCents: 3180,
    });
    expect(cart).toMatchObject({ count: 1, subtotalCents: 2590, shippingCents: 0, totalCents: 2590 });
  });

  it("replaces the cart's content when another pack is added (one product at a time)", async () => {
    const cartId = newCartId();
    await addToCart(cartId, { productId: 1, packId: 2 });
    await setLineQuantity(cartId, (await readCart(cartId)).lines[0].id, 3);
    const cart = await addToCart(cartId, { productId: 1, packId: 3 });
    expect(cart.lines).toHaveLength(1);
    expect(cart.lines[0]).toMatchObject({ packId: 3, quantity: 1, variantName: "9 masques + 3 offerts", unitPriceCents: 3290 });
    expect(cart.totalCents).toBe(3290);
  });

  it("changes quantities and removes a line whose quantity goes below 1", async () => {
    const cartId = newCartId();
    const lineId = (await addToCart(cartId, { productId: 1, packId: 2 })).lines[0].id;
    expect(await setLineQuantity(cartId, lineId, 3)).toMatchObject({ count: 3, totalCents: 7770 });
    expect((await setLineQuantity(cartId, lineId, 0)).lines).toEqual([]);
    const again = (await addToCart(cartId, { productId: 1, packId: 2 })).lines[0].id;
    expect((await setLineQuantity(cartId, again, -4)).lines).toEqual([]);
  });

  it("takes at most 10 of a pack and exactly 1 of the trial pack (pack 1 × 4 would be 12 masks for 3,96€)", async () => {
    const cartId = newCartId();
    const line = (await addToCart(cartId, { productId: 1, packId: 2 })).lines[0];
    expect(line).toMatchObject({ maxQuantity: 10, quantityNote: null });
    expect(await setLineQuantity(cartId, line.id, 10)).toMatchObject({ count: 10, totalCents: 25900 });
    await expect(setLineQuantity(cartId, line.id, 11)).rejects.toThrow("La quantité d'un pack est limitée à 10 par commande.");
    expect((await readCart(cartId)).lines[0].quantity).toBe(10);

    const trial = (await addToCart(cartId, { productId: 1, packId: 1 })).lines[0];
    expect(trial).toMatchObject({
      quantity: 1,
      maxQuantity: 1,
      quantityNote: "Le pack d'essai « 3 masques d'essai » est limité à 1 exemplaire par commande.",
    });
    await expect(setLineQuantity(cartId, trial.id, 4)).rejects.toThrow(/limité à 1 exemplaire/);
    expect(await readCart(cartId)).toMatchObject({ count: 1, totalCents: 99 });
  });

  it("never touches a line of another cart", async () => {
    const mine = newCartId();
    const theirs = newCartId();
    const theirLine = (await addToCart(theirs, { productId: 1, packId: 2 })).lines[0].id;
    await addToCart(mine, { productId: 1, packId: 1 });
    await expect(setLineQuantity(mine, theirLine, 5)).rejects.toThrow(CartError);
    await expect(setLineQuantity(mine, theirLine, 0)).rejects.toThrow(CartError);
    expect((await readCart(theirs)).lines[0]).toMatchObject({ id: theirLine, quantity: 1 });
    await clearCart(mine);
    expect((await readCart(theirs)).lines).toHaveLength(1);
  });

  it("refuses a product that is out of stock, and an unknown product", async () => {
    await getDb().update(products).set({ stock: 0 }).where(eq(products.id, 1));
    try {
      await expect(addToCart(newCartId(), { productId: 1, packId: 1 })).rejects.toThrow(/rupture/);
    } finally {
      await getDb().update(products).set({ stock: 500 }).where(eq(products.id, 1));
    }
    await expect(addToCart(newCartId(), { productId: 999, packId: 1 })).rejects.toThrow(CartError);
  });

  it("reads a pack from packId, or from its exact name for API clients, and ignores prices", async () => {
    expect(cartAddSchema.parse({ productId: "1", packId: "3", variantPrice: "0.01", quantity: 9 })).toEqual({
      productId: 1,
      packId: 3,
      variantName: undefined,
    });
    const byName = cartAddSchema.parse({ productId: 1, variantName: "6 masques + 2 offerts", variantPrice: "0,01" });
    expect((await addToCart(newCartId(), byName)).lines[0]).toMatchObject({ packId: 2, unitPriceCents: 2590 });
    // No pack named: refused by the cart service for a product sold in packs.
    await expect(addToCart(newCartId(), cartAddSchema.parse({ productId: 1 }))).rejects.toThrow(/Pack inconnu/);
    expect(cartAddSchema.safeParse({ productId: "1.5", packId: 1 }).success).toBe(false);
    // A pack that does not exist: refused by the cart service, the packs listed.
    await expect(addToCart(newCartId(), cartAddSchema.parse({ productId: 1, variantName: "Pack gratuit" }))).rejects.toThrow(
      /Pack inconnu.*1 : « 3 masques d'essai », 0\.99/,
    );
    await expect(addToCart(newCartId(), cartAddSchema.parse({ productId: 1, packId: 4 }))).rejects.toThrow(CartError);
  });
});

describe("/panier action (the one cart action)", () => {
  it("adds from the product page's form, sets the cart cookie and answers JSON to JavaScript", async () => {
    const response = await cartAction(
      routeArgs(
        formRequest(
          "/panier",
          { intent: "add", productId: "1", packId: "2", redirectTo: "/panier", variantPrice: "0.01", quantity: "7" },
          { headers: { "Sec-Fetch-Mode": "cors" } },
        ),
      ),
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ ok: true, intent: "add", count: 1 });
    const cookies = response.headers.getSetCookie();
    const cartCookie = cookies.find((c) => c.startsWith("cart="))!;
    expect(cartCookie).toMatch(/HttpOnly/i);
    expect(cookies.some((c) => c.startsWith("toast-session="))).toBe(true);
    const cartId = await getCartCookie().parse(cartCookie.split(";")[0]);
    expect((await readCart(cartId)).lines[0]).toMatchObject({
      quantity: 1,
      unitPriceCents: 2590,
      variantName: "6 masques + 2 offerts",
    });
  });

  it("answers the badge's count of the cart as it really is after adding to a cart that held 3 packs", async () => {
    const { cartId, cookie, lineId } = await cartWithPack2();
    await setLineQuantity(cartId, lineId, 3);
    expect((await readCart(cartId)).count).toBe(3);
    const response = await cartAction(
      routeArgs(
        formRequest(
          "/panier",
          { intent: "add", productId: "1", packId: "3", redirectTo: "/panier" },
          { headers: { "Sec-Fetch-Mode": "cors", Cookie: cookie } },
        ),
      ),
    );
    expect(await response.json()).toMatchObject({ ok: true, intent: "add", count: 1 });
    expect(await readCart(cartId)).toMatchObject({ count: 1, lines: [{ packId: 3, quantity: 1 }] });
  });

  it("redirects a visitor without JavaScript to a same-site redirectTo only", async () => {
    const ok = await cartAction(
      routeArgs(
        formRequest(
          "/panier",
          { intent: "add", productId: "1", packId: "1", redirectTo: "/panier" },
          { headers: { "Sec-Fetch-Mode": "navigate" } },
        ),
      ),
    );
    expect(ok.status).toBe(302);
    expect(ok.headers.get("Location")).toBe("/panier");
    for (const redirectTo of ["//evil.example/", "/\\evil.example", "/\t/evil.example", "javascript:alert(1)"]) {
      const evil = await cartAction(
        routeArgs(
          formRequest(
            "/panier",
            { intent: "add", productId: "1", packId: "1", redirectTo },
            { headers: { "Sec-Fetch-Mode": "navigate" } },
          ),
        ),
      );
      expect(evil.headers.get("Location"), redirectTo).toBe("/panier");
    }
  });

  it("answers a refused add with the spec's error toast", async () => {
    const response = await cartAction(routeArgs(formRequest("/panier", { intent: "add", productId: "1", packId: "9" })));
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({ ok: false, intent: "add" });
    expect(response.headers.get("Set-Cookie")).toMatch(/toast-session=/);
  });

  it("changes quantity and removes only within the caller's cart", async () => {
    const mine = await cartWithPack2();
    const theirs = await cartWithPack2();
    const set = await cartAction(
      routeArgs(
        formRequest(
          "/panier",
          { intent: "set-quantity", lineId: String(mine.lineId), quantity: "2" },
          { headers: { Cookie: mine.cookie } },
        ),
      ),
    );
    expect(await set.json()).toMatchObject({ ok: true, count: 2 });
    const foreign = await cartAction(
      routeArgs(
        formRequest("/panier", { intent: "remove", lineId: String(theirs.lineId) }, { headers: { Cookie: mine.cookie } }),
      ),
    );
    expect(foreign.status).toBe(404);
    expect((await readCart(theirs.cartId)).lines).toHaveLength(1);
    const tooMany = await cartAction(
      routeArgs(
        formRequest(
          "/panier",
          { intent: "set-quantity", lineId: String(mine.lineId), quantity: "11" },
          { headers: { Cookie: mine.cookie } },
        ),
      ),
    );
    expect(tooMany.status).toBe(422);
    expect(await tooMany.json()).toMatchObject({ ok: false, error: "La quantité d'un pack est limitée à 10 par commande." });
    const remove = await cartAction(
      routeArgs(
        formRequest(
          "/panier",
          { intent: "set-quantity", lineId: String(mine.lineId), quantity: "0" },
          { headers: { Cookie: mine.cookie } },
        ),
      ),
    );
    expect(await remove.json()).toMatchObject({ ok: true, count: 0 });
  });

  it("refuses a form posted from another site", async () => {
    await expect(
      cartAction(routeArgs(formRequest("/panier", { intent: "clear" }, { headers: { Origin: "https://evil.example" } }))),
    ).rejects.toMatchObject({ status: 403 });
  });

  it("loads the cart and the step asked for, falling back when it is not reachable", async () => {
    const { cookie } = await cartWithPack2();
    const response = await cartLoader(routeArgs(getRequest("/panier?etape=paiement", { Cookie: cookie })));
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    const data = await response.json();
    expect(data.step).toBe("livraison");
    expect(data.cart.lines).toHaveLength(1);
    const empty = await (await cartLoader(routeArgs(getRequest("/panier?etape=livraison")))).json();
    expect(empty).toMatchObject({ step: "panier", cart: { lines: [] } });
  });
});

describe("cart API", () => {
  it("POST /api/cart creates the caller's cart from productId and pack, ignoring prices and quantity", async () => {
    const response = await apiCartPost(
      routeArgs(
        jsonRequest("/api/cart", "POST", {
          userId: 3,
          productId: 1,
          quantity: 4,
          variantName: "9 masques + 3 offerts",
          variantPrice: "0.01",
          variantOriginalPrice: "0.02",
        }),
      ),
    );
    expect(response.status).toBe(201);
    const body = await response.json();
    expect(body.items).toEqual([
      expect.objectContaining({
        productId: 1,
        packId: 3,
        quantity: 1,
        variantName: "9 masques + 3 offerts",
        variantPrice: "32.90",
        variantOriginalPrice: "47.70",
      }),
    ]);
    expect(response.headers.get("Set-Cookie")).toMatch(/^cart=/);
  });

  it("POST /api/cart answers JSON errors: 415, 422, 404", async () => {
    const notJson = await apiCartPost(
      routeArgs(
        new Request("http://localhost:3000/api/cart", {
          method: "POST",
          body: "productId=1",
          headers: { "Content-Type": "application/x-www-form-urlencoded" },
        }),
      ),
    );
    expect(notJson.status).toBe(415);
    const invalid = await apiCartPost(routeArgs(jsonRequest("/api/cart", "POST", { productId: 1 })));
    expect(invalid.status).toBe(422);
    expect((await invalid.json()).issues[0].path).toBe("packId");
    const unknown = await apiCartPost(routeArgs(jsonRequest("/api/cart", "POST", { productId: 424242, packId: 1 })));
    expect(unknown.status).toBe(404);
    const unknownPack = await apiCartPost(routeArgs(jsonRequest("/api/cart", "POST", { productId: 1, packId: 7 })));
    expect(unknownPack.status).toBe(422);
    expect((await unknownPack.json()).issues[0].message).toMatch(/2 : « 6 masques \+ 2 offerts », 25\.90/);
  });

  it("GET /api/cart/{id} gives the caller's own cart only", async () => {
    const mine = await cartWithPack2();
    const theirs = await cartWithPack2();
    const own = await apiCartGet(routeArgs(getRequest(`/api/cart/${mine.cartId}`, { Cookie: mine.cookie }), { id: mine.cartId }));
    expect(own.status).toBe(200);
    expect(await own.json()).toEqual([
      expect.objectContaining({
        id: mine.lineId,
        quantity: 1,
        variantPrice: "25.90",
        product: expect.objectContaining({ name: "Masque Hydrogel au Collagène" }),
      }),
    ]);
    const other = await apiCartGet(
      routeArgs(getRequest(`/api/cart/${theirs.cartId}`, { Cookie: mine.cookie }), { id: theirs.cartId }),
    );
    expect(other.status).toBe(403);
    // The original's shared shopper id 3 (or any id that is not a cart id) is malformed: 400, not 403.
    for (const bad of ["3", "abc", "-1", "1e9999"]) {
      const legacy = await apiCartGet(routeArgs(getRequest(`/api/cart/${bad}`, { Cookie: mine.cookie }), { id: bad }));
      expect(legacy.status).toBe(400);
      expect(await legacy.json()).toEqual({
        error: "Identifiant de panier invalide",
        issues: [{ path: "id", message: "Un identifiant de panier (UUID) est attendu." }],
      });
    }
  });

  it("PUT and DELETE /api/cart/{lineId} change the caller's lines only; bad ids are 400", async () => {
    const mine = await cartWithPack2();
    const theirs = await cartWithPack2();
    const put = await apiCartLine(
      routeArgs(jsonRequest(`/api/cart/${mine.lineId}`, "PUT", { quantity: 3 }, { Cookie: mine.cookie }), {
        id: String(mine.lineId),
      }),
    );
    expect(put.status).toBe(200);
    expect((await put.json())[0]).toMatchObject({ quantity: 3 });
    const foreign = await apiCartLine(
      routeArgs(jsonRequest(`/api/cart/${theirs.lineId}`, "PUT", { quantity: 9 }, { Cookie: mine.cookie }), {
        id: String(theirs.lineId),
      }),
    );
    expect(foreign.status).toBe(404);
    const foreignDelete = await apiCartLine(
      routeArgs(jsonRequest(`/api/cart/${theirs.lineId}`, "DELETE", undefined, { Cookie: mine.cookie }), {
        id: String(theirs.lineId),
      }),
    );
    expect(foreignDelete.status).toBe(404);
    expect((await readCart(theirs.cartId)).lines[0].quantity).toBe(1);
    for (const bad of ["abc", "-1", "1.5", "9".repeat(5000)]) {
      const response = await apiCartLine(
        routeArgs(jsonRequest(`/api/cart/${bad}`, "PUT", { quantity: 1 }, { Cookie: mine.cookie }), { id: bad }),
      );
      expect(response.status).toBe(400);
    }
    const badQuantity = await apiCartLine(
      routeArgs(jsonRequest(`/api/cart/${mine.lineId}`, "PUT", { quantity: "beaucoup" }, { Cookie: mine.cookie }), {
        id: String(mine.lineId),
      }),
    );
    expect(badQuantity.status).toBe(422);
    const eleven = await apiCartLine(
      routeArgs(jsonRequest(`/api/cart/${mine.lineId}`, "PUT", { quantity: 11 }, { Cookie: mine.cookie }), {
        id: String(mine.lineId),
      }),
    );
    expect(eleven.status).toBe(422);
    expect(await eleven.json()).toEqual({
      error: "Quantité refusée",
      issues: [{ path: "quantity", message: "La quantité d'un pack est limitée à 10 par commande." }],
    });
    expect((await readCart(mine.cartId)).lines[0].quantity).toBe(3);
    const del = await apiCartLine(
      routeArgs(jsonRequest(`/api/cart/${mine.lineId}`, "DELETE", undefined, { Cookie: mine.cookie }), {
        id: String(mine.lineId),
      }),
    );
    expect(del.status).toBe(204);
    expect((await readCart(mine.cartId)).lines).toEqual([]);
  });

  it("DELETE /api/cart/user/{id} empties the caller's cart and no other", async () => {
    const mine = await cartWithPack2();
    const theirs = await cartWithPack2();
    const other = await apiCartClear(
      routeArgs(jsonRequest(`/api/cart/user/${theirs.cartId}`, "DELETE", undefined, { Cookie: mine.cookie }), {
        userId: theirs.cartId,
      }),
    );
    expect(other.status).toBe(403);
    expect((await readCart(theirs.cartId)).lines).toHaveLength(1);
    const own = await apiCartClear(
      routeArgs(jsonRequest(`/api/cart/user/${mine.cartId}`, "DELETE", undefined, { Cookie: mine.cookie }), {
        userId: mine.cartId,
      }),
    );
    expect(own.status).toBe(204);
    expect(await getDb().select().from(cartLines).where(eq(cartLines.cartId, mine.cartId))).toEqual([]);
  });
});
