import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { products, siteSettings } from "~/db/schema";
import { productSchema } from "~/schemas/product";
import { settingsSchema } from "~/schemas/settings";
import { createProduct, getProduct, updateProduct } from "~/services/catalog.server";
import { createOrderFromApi } from "~/services/orders/create.server";
import { bumpPageCacheVersion, readPageCacheState } from "~/services/page-cache-version.server";
import { listPacks } from "~/services/packs.server";
import { markOrderPaid } from "~/services/payments/payment-state.server";
import { getSettings, updateSettings } from "~/services/settings.server";

/** The public pages' version: the writes that change what an anonymous visitor sees bump it. */

const version = async () => (await readPageCacheState()).version;

const ORDER_BODY = {
  customerEmail: "cache@example.fr",
  customerName: "Louise Petit",
  shippingAddress: "5 quai de la Loire",
  shippingPostalCode: "44000",
  shippingCity: "Nantes",
  items: [{ productId: 1, quantity: 1, packId: 3 }],
};

describe("the public pages' version", () => {
  it("is read once for the views that arrive while a read is under way, and read again after it", async () => {
    const first = readPageCacheState();
    expect(readPageCacheState()).toBe(first);
    const { version } = await first;
    await bumpPageCacheVersion();
    const next = readPageCacheState();
    expect(next).not.toBe(first);
    expect((await next).version).toBe(version + 1);
  });

  it("is bumped by a product's creation and by a price edit", async () => {
    const before = await version();
    const parsed = productSchema.parse({ name: "Coffret", sku: "ME-CACHE-1", price: "29,90", stock: 20, packs: [] });
    const { price, originalPrice, packs, ...rest } = parsed;
    const fields = { ...rest, priceCents: price, originalPriceCents: originalPrice };
    const product = (await createProduct(fields, packs))!;
    expect(await version()).toBe(before + 1);
    await updateProduct(product.id, { ...fields, priceCents: 2490 }, packs);
    expect(await version()).toBe(before + 2);
    expect((await getProduct(product.id))?.priceCents).toBe(2490);
  });

  it("is bumped by a pack's new price", async () => {
    const before = await version();
    const product = (await getProduct(1))!;
    const [pack] = await listPacks(1);
    const { id: _id, createdAt: _c, updatedAt: _u, ...fields } = product;
    await updateProduct(1, fields, [
      {
        id: pack.id,
        name: pack.name,
        description: pack.description,
        masks: pack.masks,
        price: pack.priceCents + 100,
        referencePrice: null,
        popular: pack.popular,
        trial: pack.trial,
        position: pack.position,
        active: pack.active,
      },
    ]);
    expect(await version()).toBe(before + 1);
  });

  it("is bumped by a settings change, and gives the trial offer's end", async () => {
    const before = await version();
    const end = new Date(Date.now() + 3_600_000);
    await getDb().update(siteSettings).set({ trialOfferEndsAt: end.toISOString() }).where(eq(siteSettings.id, 1));
    expect((await readPageCacheState()).offerEndsAt).toBe(end.getTime());
    const { trialOfferEndsAt: _end, ...settings } = await getSettings();
    await updateSettings(settingsSchema.parse({ ...settings, siteName: "Maison Éclat Paris" }));
    expect(await version()).toBe(before + 1);
  });

  it("is bumped when a paid order sells the last unit of a product, not before", async () => {
    await getDb().update(products).set({ stock: 2 }).where(eq(products.id, 1));
    const before = await version();
    const first = await createOrderFromApi(ORDER_BODY);
    await markOrderPaid(first.id, { paymentIntentId: `pi_${first.id}` });
    expect((await getProduct(1))?.stock).toBe(1);
    expect(await version()).toBe(before);
    const last = await createOrderFromApi(ORDER_BODY);
    await markOrderPaid(last.id, { paymentIntentId: `pi_${last.id}` });
    expect((await getProduct(1))?.stock).toBe(0);
    expect(await version()).toBe(before + 1);
  });
});
