import { asResponses } from "../helpers/route-response";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { orderItems, priceHistory, siteSettings } from "~/db/schema";
import { parisLocalToIso, toParisLocalInput } from "~/lib/dates";
import { timeLeftText, trialOfferBannerText } from "~/lib/offer-banner";
import { SPEC_PACKS } from "~/lib/packs";
import { jsonLdText, productJsonLd } from "~/lib/structured-data";
import { loader as productLoaderRoute } from "~/routes/product.$id";
import { productSchema } from "~/schemas/product";
import { settingsSchema } from "~/schemas/settings";
import { addToCart, CartError, readCart } from "~/services/cart.server";
import { createProduct, getProduct, productToApi, updateProduct } from "~/services/catalog.server";
import { submitDelivery } from "~/services/checkout.server";
import { createOrderFromApi } from "~/services/orders/create.server";
import { getApiOrder } from "~/services/orders/api-view.server";
import { OrderError } from "~/services/orders/errors.server";
import { adminPacks, listPacks, productOffer, shopPacks } from "~/services/packs.server";
import { checkReferencePrice, DEMO_HISTORY_NOTE, lowestBeforeCurrent, type PriceRecord } from "~/services/price-history.server";
import { getRequest, routeArgs } from "../helpers/requests";

const productLoader = asResponses(productLoaderRoute);

const DAY = 24 * 60 * 60 * 1000;
const NOW = new Date("2026-11-25T12:00:00.000Z");
const daysAgo = (days: number) => new Date(NOW.getTime() - days * DAY).toISOString();
const at = (priceCents: number, days: number): PriceRecord => ({ priceCents, startedAt: daysAgo(days) });

const DELIVERY = {
  firstName: "Camille",
  lastName: "Martin",
  address: "8 rue des Fleurs",
  postalCode: "69003",
  city: "Lyon",
  address2: null,
  phone: null,
};

/** The product form's values as the admin service takes them (prices in cents). */
function productValues(name: string, packs: Record<string, unknown>[] = []) {
  const parsed = productSchema.parse({ name, sku: `SKU-${crypto.randomUUID().slice(0, 8)}`, price: "29,90", stock: 20, packs });
  const { price, originalPrice, packs: packInputs, ...rest } = parsed;
  return { fields: { ...rest, priceCents: price, originalPriceCents: originalPrice }, packs: packInputs };
}

async function newProduct(name: string, packs: Record<string, unknown>[] = [], saleWithoutPack: "unit" | "not_sold" = "unit") {
  const { fields, packs: inputs } = productValues(name, packs);
  return await createProduct({ ...fields, saleWithoutPack }, inputs);
}

async function loadProductPage(id: number) {
  const response = await productLoader(routeArgs(getRequest(`/product/${id}`), { id: String(id) }));
  return response.json();
}

describe("the 30-day lowest price before a reduction (Code de la consommation L112-1-1)", () => {
  it("takes the lowest price charged in the 30 days before the current price started", () => {
    // 15,99€ for two months, then 0,99€ since yesterday: 15,99€ is the lawful crossed-out price.
    const history = [at(1599, 61), at(99, 1)];
    expect(lowestBeforeCurrent(history, 99, NOW)).toEqual({ currentSince: daysAgo(1), lowestCents: 1599 });
    expect(checkReferencePrice({ priceCents: 99, referencePriceCents: 1599 }, history, NOW)).toMatchObject({
      lawful: true,
      warning: null,
    });
  });

  it("warns when the reference price is higher than that lowest price, naming it", () => {
    // 19,99€ long ago, 15,99€ for 20 days, then 9,99€: "before" can only be 15,99€.
    const history = [at(1999, 90), at(1599, 21), at(999, 1)];
    const check = checkReferencePrice({ priceCents: 999, referencePriceCents: 1999 }, history, NOW);
    expect(check).toMatchObject({ lawful: false, lowestCents: 1599 });
    expect(check.warning).toBe(
      "Prix barré non conforme : le prix le plus bas des 30 derniers jours avant le prix actuel est 15,99€. Il ne sera pas affiché.",
    );
    expect(checkReferencePrice({ priceCents: 999, referencePriceCents: 1599 }, history, NOW).lawful).toBe(true);
  });

  it("ignores prices that ended more than 30 days before the reduction", () => {
    // 12,00€ ended 40 days before the reduction: only 25,00€ counts.
    const history = [at(1200, 100), at(2500, 41), at(2000, 1)];
    expect(lowestBeforeCurrent(history, 2000, NOW).lowestCents).toBe(2500);
  });

  it("counts a short earlier reduction at the same price: the current price starts at its last change", () => {
    // 20,00€, then 10,00€ for five days, back to 20,00€, and 10,00€ again today: the 30 days
    // before today held 10,00€, so 20,00€ may not be shown crossed out.
    const history = [at(2000, 60), at(1000, 10), at(2000, 5), at(1000, 0)];
    const check = checkReferencePrice({ priceCents: 1000, referencePriceCents: 2000 }, history, NOW);
    expect(check).toMatchObject({ currentSince: daysAgo(0), lowestCents: 1000, lawful: false });
  });

  it("refuses a crossed-out price when no other price was charged before (and says nothing without one)", () => {
    const history = [at(1800, 3)];
    expect(checkReferencePrice({ priceCents: 1800, referencePriceCents: 2500 }, history, NOW).warning).toMatch(
      /aucun autre prix n'a été pratiqué/,
    );
    expect(checkReferencePrice({ priceCents: 1800, referencePriceCents: null }, history, NOW)).toMatchObject({
      lawful: false,
      warning: null,
    });
    // A future change does not count yet.
    expect(
      lowestBeforeCurrent([at(2500, 40), { priceCents: 1800, startedAt: new Date(NOW.getTime() + DAY).toISOString() }], 2500, NOW)
        .lowestCents,
    ).toBeNull();
  });
});

describe("the packs, read from the database", () => {
  it("seeds the spec's three packs for product 1, with a labelled demo history that makes their crossed-out prices lawful", async () => {
    const packs = await listPacks(1);
    expect(packs.map((p) => [p.id, p.name, p.priceCents, p.referencePriceCents, p.trial, p.popular])).toEqual(
      SPEC_PACKS.map((p, i) => [i + 1, p.name, p.priceCents, p.referencePriceCents, p.trial, p.popular]),
    );
    expect((await shopPacks(1)).map((p) => p.crossedOutCents)).toEqual([1599, 3180, 4770]);
    const demo = await getDb().select().from(priceHistory).where(eq(priceHistory.note, DEMO_HISTORY_NOTE));
    expect(demo.map((r) => r.priceCents).sort((a, b) => a - b)).toEqual([1599, 3180, 4770]);
    expect((await adminPacks(1)).every((p) => p.check.warning === null)).toBe(true);
  });

  it("never shows another product's packs: a product without pack is sold as a single item, or not sold", async () => {
    const single = await newProduct("Sérum vitamine C");
    expect(await productOffer(single)).toEqual({ packs: [], unitPriceCents: 2990, sold: true });
    const page = await loadProductPage(single.id);
    expect(page.offer).toEqual({ packs: [], unitPriceCents: 2990, sold: true });
    // No trial pack, no trial offer banner.
    expect(page.banner).toBeNull();
    expect(JSON.stringify(page)).not.toContain("masques d'essai");

    // Sold as a single item: no pack to name, the product's price.
    const cartId = crypto.randomUUID();
    expect((await readCart((await addToCart(cartId, { productId: single.id })).id)).lines[0]).toMatchObject({
      packId: null,
      unitPriceCents: 2990,
      variantName: null,
    });
    await expect(addToCart(crypto.randomUUID(), { productId: single.id, packId: 2 })).rejects.toThrow(CartError);

    const withdrawn = await newProduct("Crème de nuit", [], "not_sold");
    expect(await productOffer(withdrawn)).toEqual({ packs: [], unitPriceCents: null, sold: false });
    await expect(addToCart(crypto.randomUUID(), { productId: withdrawn.id })).rejects.toThrow("n'est pas en vente");
    await expect(
      createOrderFromApi({
        customerEmail: "a@example.fr",
        customerName: "A B",
        shippingAddress: "1 rue A",
        shippingPostalCode: "75001",
        shippingCity: "Paris",
        items: [{ productId: withdrawn.id, quantity: 1 }],
      } as never),
    ).rejects.toThrow(OrderError);
  });

  it("sells a product's own packs only, and a deactivated pack no more", async () => {
    const product = await newProduct("Sérum duo", [
      { name: "Duo", masks: 2, price: "19,90", position: 2 },
      { name: "Solo", masks: 1, price: "10,90", position: 1 },
    ]);
    expect((await shopPacks(product.id)).map((p) => p.name)).toEqual(["Solo", "Duo"]);
    await expect(addToCart(crypto.randomUUID(), { productId: product.id, packId: 1 })).rejects.toThrow(/Pack inconnu/);
    const [solo, duo] = await listPacks(product.id);
    const { fields } = productValues("Sérum duo");
    await updateProduct(product.id, { ...fields, sku: product.sku }, [
      {
        id: solo.id,
        name: "Solo",
        description: "",
        masks: 1,
        price: 1090,
        referencePrice: null,
        popular: false,
        trial: false,
        position: 1,
        active: false,
      },
    ]);
    expect((await shopPacks(product.id)).map((p) => p.id)).toEqual([duo.id]);
    await expect(addToCart(crypto.randomUUID(), { productId: product.id, packId: solo.id })).rejects.toThrow(/Pack inconnu/);
    // Another product's pack cannot be edited through this product.
    await expect(
      updateProduct(product.id, { ...fields, sku: product.sku }, [
        { ...(await listPacks(1))[0], id: 1, price: 1, referencePrice: null },
      ]),
    ).rejects.toThrow("n'appartient pas à ce produit");
  });

  it("gives the API the packs on sale, with a crossed-out price only when lawful", async () => {
    const product = await newProduct("Sérum API", [{ name: "Trio", masks: 3, price: "24,90", referencePrice: "29,90" }]);
    const api = await productToApi((await getProduct(product.id))!);
    expect(api.packs).toEqual([
      {
        id: expect.any(Number),
        name: "Trio",
        description: "",
        masks: 3,
        price: "24.90",
        originalPrice: null,
        popular: false,
        trial: false,
      },
    ]);
    expect((await productToApi((await getProduct(1))!)).packs.map((p) => [p.price, p.originalPrice])).toEqual([
      ["0.99", "15.99"],
      ["25.90", "31.80"],
      ["32.90", "47.70"],
    ]);
  });
});

describe("the product page's JSON-LD", () => {
  it("offers the product's packs at their prices, or its single price, and nothing when it is not sold", async () => {
    const shop = { publicUrl: "https://boutique.example", settings: { siteName: "Maison Éclat", legalName: "Maison Éclat SAS" } };
    const page = await loadProductPage(1);
    const data = productJsonLd(page.product!, page.offer!, shop);
    expect(data).toMatchObject({ "@type": "Product", name: "Masque Hydrogel au Collagène" });
    expect((data!.offers as { name: string; price: string }[]).map((o) => [o.name, o.price])).toEqual([
      ["3 masques d'essai", "0.99"],
      ["6 masques + 2 offerts", "25.90"],
      ["9 masques + 3 offerts", "32.90"],
    ]);
    const product = { id: 9, name: "Sérum </script><b>", description: "", sku: "SERUM-9", images: [], stock: 0 };
    const single = productJsonLd(product, { packs: [], unitPriceCents: 2990, sold: true }, shop)!;
    expect(jsonLdText(single)).not.toContain("</script><b>");
    expect(single.offers).toEqual([
      expect.objectContaining({
        "@type": "Offer",
        price: "29.90",
        priceCurrency: "EUR",
        availability: "https://schema.org/OutOfStock",
      }),
    ]);
    expect(productJsonLd(product, { packs: [], unitPriceCents: null, sold: false }, shop)).toBeNull();
  });
});

describe("a price change", () => {
  it("is recorded in the price history, and changes no order already made", async () => {
    const product = await newProduct("Sérum historique", [{ name: "Coffret", masks: 4, price: "30,00" }]);
    const [pack] = await listPacks(product.id);
    const order = await createOrderFromApi({
      customerEmail: "camille.historique@example.fr",
      customerName: "Camille Martin",
      shippingAddress: "8 rue des Fleurs",
      shippingPostalCode: "69003",
      shippingCity: "Lyon",
      items: [{ productId: product.id, packId: pack.id, quantity: 2 }],
    } as never);
    expect(order.total).toBe("60.00");

    const { fields } = productValues("Sérum historique");
    await updateProduct(product.id, { ...fields, sku: product.sku }, [
      {
        id: pack.id,
        name: "Coffret découverte",
        description: "",
        masks: 4,
        price: 2500,
        referencePrice: 3000,
        popular: false,
        trial: false,
        position: 0,
        active: true,
      },
    ]);
    const history = (await adminPacks(product.id))[0].history;
    expect(history.map((h) => h.priceCents)).toEqual([3000, 2500]);
    // 30,00€ was charged before: the 25,00€ reduction may show it crossed out.
    expect((await shopPacks(product.id))[0]).toMatchObject({ priceCents: 2500, crossedOutCents: 3000 });

    // The order keeps the pack's name and price as they were.
    const items = await getDb().select().from(orderItems).where(eq(orderItems.orderId, order.id));
    expect(items).toEqual([
      expect.objectContaining({ packId: pack.id, unitPriceCents: 3000, variantName: "Coffret", quantity: 2 }),
    ]);
    expect(await getApiOrder(order.id, { admin: true })).toMatchObject({
      total: "60.00",
      items: [{ price: "30.00", product: { variantName: "Coffret" } }],
    });
  });

  it("reaches a cart at once, and sends its checkout back to the delivery form to reprice the order", async () => {
    const product = await newProduct("Sérum panier", [{ name: "Flacon", masks: 1, price: "20,00" }]);
    const [pack] = await listPacks(product.id);
    const cartId = crypto.randomUUID();
    await addToCart(cartId, { productId: product.id, packId: pack.id });
    const { orderId } = await submitDelivery(cartId, { ...DELIVERY, email: "camille.panier@example.fr" });
    expect((await readCart(cartId)).checkout).toMatchObject({ orderId, amountCents: 2000, current: true });

    const { fields } = productValues("Sérum panier");
    await updateProduct(product.id, { ...fields, sku: product.sku }, [
      {
        id: pack.id,
        name: "Flacon",
        description: "",
        masks: 1,
        price: 1700,
        referencePrice: null,
        popular: false,
        trial: false,
        position: 0,
        active: true,
      },
    ]);
    const cart = await readCart(cartId);
    expect(cart.lines[0]).toMatchObject({ unitPriceCents: 1700, lineTotalCents: 1700 });
    expect(cart.checkout).toMatchObject({ amountCents: 2000, current: false });

    // The delivery form again: the same order, at the new price.
    expect((await submitDelivery(cartId, { ...DELIVERY, email: "camille.panier@example.fr" })).orderId).toBe(orderId);
    expect((await readCart(cartId)).checkout).toMatchObject({ orderId, amountCents: 1700, current: true });
    expect((await getDb().select().from(orderItems).where(eq(orderItems.orderId, orderId)).limit(1))[0]).toMatchObject({
      unitPriceCents: 1700,
    });
  });
});

describe("the product form's packs", () => {
  it("ignores the blank 'new pack' row and refuses wrong values with French messages", () => {
    const ok = productSchema.safeParse({
      name: "Sérum",
      sku: "SER-1",
      price: "29,90",
      stock: 1,
      packs: [{ name: "", price: "", masks: "", position: "3", active: "true" }],
    });
    expect(ok.success && ok.data.packs).toEqual([]);
    const bad = productSchema.safeParse({
      name: "Sérum",
      sku: "SER-1",
      price: "29,90",
      stock: 1,
      packs: [
        { name: "Duo", price: "12,00", masks: 0, referencePrice: "10,00", trial: true },
        { name: "duo", price: "x", masks: 2, trial: true },
      ],
    });
    expect(bad.success).toBe(false);
    const messages = bad.error!.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    expect(messages).toEqual(
      expect.arrayContaining([
        "packs.0.masks: Le nombre de masques doit être un nombre entier entre 1 et 100.",
        "packs.0.referencePrice: Le prix de référence doit être supérieur au prix du pack, ou laissé vide.",
        "packs.1.price: Le prix du pack doit être un montant en euros, par exemple 25,90.",
      ]),
    );
  });
});

describe("the trial offer's banner", () => {
  it("counts down in hours, minutes or days, and says nothing once the end has passed", () => {
    const in_ = (ms: number) => new Date(NOW.getTime() + ms).toISOString();
    const HOUR = 60 * 60 * 1000;
    expect(trialOfferBannerText(in_(9 * HOUR), NOW)).toBe("Fin de l'offre d'essai dans 9 heures");
    expect(timeLeftText(in_(9 * HOUR - 10 * 60 * 1000), NOW)).toBe("dans 9 heures");
    expect(timeLeftText(in_(HOUR + 60_000), NOW)).toBe("dans 1 heure");
    expect(timeLeftText(in_(25 * 60 * 1000), NOW)).toBe("dans 25 minutes");
    expect(timeLeftText(in_(20_000), NOW)).toBe("dans 1 minute");
    expect(timeLeftText(in_(3 * DAY), NOW)).toBe("dans 3 jours");
    expect(trialOfferBannerText(in_(0), NOW)).toBeNull();
    expect(trialOfferBannerText(in_(-60_000), NOW)).toBeNull();
    expect(trialOfferBannerText(null, NOW)).toBeNull();
  });

  it("is seeded 9 hours ahead, shown on the trial pack's product page, and gone after its end", async () => {
    const seeded = (await getDb().select({ endsAt: siteSettings.trialOfferEndsAt }).from(siteSettings).limit(1))[0]!.endsAt!;
    expect(Math.abs(Date.parse(seeded) - Date.now() - 9 * 60 * 60 * 1000)).toBeLessThan(5 * 60 * 1000);
    expect((await loadProductPage(1)).banner).toEqual({ endsAt: seeded, text: "Fin de l'offre d'essai dans 9 heures" });

    await getDb()
      .update(siteSettings)
      .set({ trialOfferEndsAt: new Date(Date.now() - 1000).toISOString() });
    expect((await loadProductPage(1)).banner).toBeNull();
    await getDb().update(siteSettings).set({ trialOfferEndsAt: seeded });
  });

  it("reads the settings' date and time in Paris time, and accepts an ISO instant from the API", () => {
    expect(parisLocalToIso("2026-11-25T21:30")).toBe("2026-11-25T20:30:00.000Z");
    expect(parisLocalToIso("2026-07-01T12:00")).toBe("2026-07-01T10:00:00.000Z");
    expect(parisLocalToIso("2026-02-30T12:00")).toBeNull();
    expect(toParisLocalInput("2026-07-01T10:00:00.000Z")).toBe("2026-07-01T12:00");
    const base = {
      siteName: "Maison Éclat",
      siteEmail: "contact@maison-eclat.fr",
      siteDescription: "D",
      siteAddress: "A",
      sitePhone: "01 02 03 04 05",
      siteFooterText: "F",
      legalName: "Maison Éclat SAS",
      siret: "92145830300017",
      vatNumber: "FR51921458303",
      defaultCarrier: "colissimo",
    };
    expect(settingsSchema.parse({ ...base, trialOfferEndsAt: "2026-11-25T21:30" }).trialOfferEndsAt).toBe(
      "2026-11-25T20:30:00.000Z",
    );
    expect(settingsSchema.parse({ ...base, trialOfferEndsAt: "2026-11-25T21:30:00+01:00" }).trialOfferEndsAt).toBe(
      "2026-11-25T20:30:00.000Z",
    );
    expect(settingsSchema.parse({ ...base, trialOfferEndsAt: "" }).trialOfferEndsAt).toBeNull();
    expect(settingsSchema.safeParse({ ...base, trialOfferEndsAt: "demain" }).error?.issues[0].message).toBe(
      "La fin de l'offre d'essai doit être une date et une heure, par exemple 25/11/2026 21:30.",
    );
  });
});
