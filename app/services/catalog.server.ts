import { and, asc, eq, ne, sql } from "drizzle-orm";
import { getDb, type DbOrTx } from "~/db/client.server";
import { orderItems, packs as packsTable, products } from "~/db/schema";
import { centsToDecimal } from "~/lib/money";
import type { SaleWithoutPack } from "~/lib/packs";
import { ShopError } from "~/lib/shop-error";
import type { PackInput } from "~/schemas/product";
import { listPacks, shopPacks } from "./packs.server";
import { bumpPageCacheVersion } from "./page-cache-version.server";
import { recordPrice } from "./price-history.server";

export async function getProduct(id: number) {
  return (await getDb().select().from(products).where(eq(products.id, id)).limit(1))[0];
}

export async function listProducts() {
  return await getDb().select().from(products).orderBy(asc(products.id));
}

// ---------------------------------------------------------------------------
// Back office: create, update, delete (admin only; the routes check the session).

export const SKU_TAKEN = "Ce SKU est déjà utilisé par un autre produit.";

/** The product rule an admin edit can break: a ShopError on the form field concerned. */
const skuTaken = () => new ShopError(409, "sku_taken", SKU_TAKEN, { field: "sku" });

type ProductFields = {
  name: string;
  sku: string;
  priceCents: number;
  originalPriceCents: number | null;
  category: string;
  description: string;
  stock: number;
  images: string[];
  saleWithoutPack?: SaleWithoutPack;
};

/**
 * Saves a product's packs as the admin form (or PUT /api/products/{id}) sends them: a pack with
 * an `id` is updated (it must be this product's), one without is created. Packs not sent stay as
 * they are: a pack is never deleted, only deactivated. Every new price is recorded in the price
 * history, from `now`.
 */
export async function saveProductPacks(db: DbOrTx, productId: number, inputs: PackInput[], now = new Date()) {
  const existing = new Map((await listPacks(productId, { includeInactive: true }, db)).map((p) => [p.id, p]));
  const at = now.toISOString();
  for (const [index, input] of inputs.entries()) {
    const values = {
      name: input.name,
      description: input.description,
      masks: input.masks,
      priceCents: input.price,
      referencePriceCents: input.referencePrice,
      popular: input.popular,
      trial: input.trial,
      position: input.position,
      active: input.active,
    };
    if (input.id !== undefined) {
      const before = existing.get(input.id);
      if (!before) {
        throw new ShopError(422, "unknown_pack", `Le pack n°${input.id} n'appartient pas à ce produit.`, {
          field: `packs[${index}].id`,
        });
      }
      await db
        .update(packsTable)
        .set({ ...values, updatedAt: at })
        .where(eq(packsTable.id, input.id));
      if (before.priceCents !== input.price) await recordPrice(db, input.id, input.price, at);
    } else {
      const [created] = await db
        .insert(packsTable)
        .values({ ...values, productId })
        .returning({ id: packsTable.id });
      await recordPrice(db, created.id, input.price, at);
    }
  }
  const saved = await listPacks(productId, { includeInactive: true }, db);
  const names = new Set<string>();
  for (const pack of saved) {
    const key = pack.name.toLowerCase();
    if (names.has(key))
      throw new ShopError(
        422,
        "pack_name_taken",
        `Deux packs de ce produit s'appellent « ${pack.name} » : choisissez un nom unique.`,
        { field: "packs" },
      );
    names.add(key);
  }
  // One trial pack on sale per product, over every pack of the product once saved (those not sent
  // included), not only over those sent; the transaction then leaves everything as it was.
  const trials = saved.filter((p) => p.trial && p.active);
  if (trials.length > 1) {
    // The pack to blame: one sent that was not an active trial pack before, else any sent one.
    const wasTrial = (p: PackInput) =>
      p.id !== undefined && existing.get(p.id)?.trial === true && existing.get(p.id)?.active === true;
    const newly = inputs.findIndex((p) => p.trial && p.active && !wasTrial(p));
    const index = newly >= 0 ? newly : inputs.findIndex((p) => p.trial && p.active);
    const blamed = inputs[index]?.name.toLowerCase();
    const other = trials.find((p) => p.name.toLowerCase() !== blamed) ?? trials[0];
    throw new ShopError(
      409,
      "trial_pack_taken",
      `Un seul pack d'essai en vente par produit : « ${other.name} » l'est déjà. Désactivez-le, ou retirez-lui la case « pack d'essai », avant d'en proposer un autre.`,
      { field: index >= 0 ? `packs[${index}].trial` : "packs" },
    );
  }
}

async function assertSkuFree(sku: string, exceptId?: number) {
  const [clash] = await getDb()
    .select({ id: products.id })
    .from(products)
    .where(and(sql`lower(${products.sku}) = lower(${sku})`, exceptId === undefined ? undefined : ne(products.id, exceptId)))
    .limit(1);
  if (clash) throw skuTaken();
}

function translateSkuError(error: unknown): never {
  if (error instanceof Error && error.message.includes("UNIQUE") && error.message.includes("products.sku")) {
    throw skuTaken();
  }
  throw error;
}

export async function createProduct(fields: ProductFields, packs: PackInput[] = []) {
  await assertSkuFree(fields.sku);
  try {
    return await getDb().transaction(async (tx) => {
      const [product] = await tx.insert(products).values(fields).returning();
      await saveProductPacks(tx, product.id, packs);
      await bumpPageCacheVersion(tx);
      return product;
    });
  } catch (error) {
    translateSkuError(error);
  }
}

export async function updateProduct(id: number, fields: ProductFields, packs: PackInput[] = []) {
  await assertSkuFree(fields.sku, id);
  try {
    return await getDb().transaction(async (tx) => {
      const [product] = await tx
        .update(products)
        .set({ ...fields, updatedAt: new Date().toISOString() })
        .where(eq(products.id, id))
        .returning();
      if (product) await saveProductPacks(tx, id, packs);
      await bumpPageCacheVersion(tx);
      return product;
    });
  } catch (error) {
    translateSkuError(error);
  }
}

/** The product the landing page sells: it cannot be deleted. */
const FEATURED_PRODUCT_ID = 1;

type DeleteProductResult = { deleted: true } | { deleted: false; reason: "not_found" | "featured" | "ordered"; orders?: number };

/** Deletes a product unless orders reference it (their history must stay readable) or the landing page sells it. */
export async function deleteProduct(id: number): Promise<DeleteProductResult> {
  return await getDb().transaction(async (tx) => {
    const [product] = await tx.select({ id: products.id }).from(products).where(eq(products.id, id)).limit(1);
    if (!product) return { deleted: false, reason: "not_found" } as const;
    if (id === FEATURED_PRODUCT_ID) return { deleted: false, reason: "featured" } as const;
    const ordered =
      (
        await tx
          .select({ n: sql<number>`count(distinct ${orderItems.orderId})`.mapWith(Number) })
          .from(orderItems)
          .where(eq(orderItems.productId, id))
          .limit(1)
      )[0]?.n ?? 0;
    if (ordered > 0) return { deleted: false, reason: "ordered", orders: ordered } as const;
    await tx.delete(products).where(eq(products.id, id));
    await bumpPageCacheVersion(tx);
    return { deleted: true } as const;
  });
}

/** The public catalog shape of GET /api/products(/{id}): prices as decimal strings, and the packs on sale. */
export async function productToApi(product: typeof products.$inferSelect, now = new Date()) {
  return {
    id: product.id,
    name: product.name,
    images: product.images ?? [],
    price: centsToDecimal(product.priceCents),
    originalPrice: product.originalPriceCents === null ? null : centsToDecimal(product.originalPriceCents),
    sku: product.sku,
    category: product.category,
    stock: product.stock,
    saleWithoutPack: product.saleWithoutPack,
    packs: (await shopPacks(product.id, now)).map((p) => ({
      id: p.id,
      name: p.name,
      description: p.description,
      masks: p.masks,
      price: centsToDecimal(p.priceCents),
      originalPrice: p.crossedOutCents === null ? null : centsToDecimal(p.crossedOutCents),
      popular: p.popular,
      trial: p.trial,
    })),
  };
}
