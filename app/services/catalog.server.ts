import { and, asc, eq, ne, sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { orderItems, products } from "~/db/schema";
import { centsToDecimal } from "~/lib/money";
import { ShopError } from "~/lib/shop-error";

export function getProduct(id: number) {
  return getDb().select().from(products).where(eq(products.id, id)).get();
}

export function listProducts() {
  return getDb().select().from(products).orderBy(asc(products.id)).all();
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
};

function assertSkuFree(sku: string, exceptId?: number) {
  const clash = getDb()
    .select({ id: products.id })
    .from(products)
    .where(and(sql`lower(${products.sku}) = lower(${sku})`, exceptId === undefined ? undefined : ne(products.id, exceptId)))
    .get();
  if (clash) throw skuTaken();
}

function translateSkuError(error: unknown): never {
  if (error instanceof Error && error.message.includes("UNIQUE") && error.message.includes("products.sku")) {
    throw skuTaken();
  }
  throw error;
}

export function createProduct(fields: ProductFields) {
  assertSkuFree(fields.sku);
  try {
    return getDb().insert(products).values(fields).returning().get();
  } catch (error) {
    translateSkuError(error);
  }
}

export function updateProduct(id: number, fields: ProductFields) {
  assertSkuFree(fields.sku, id);
  try {
    return getDb()
      .update(products)
      .set({ ...fields, updatedAt: new Date().toISOString() })
      .where(eq(products.id, id))
      .returning()
      .get();
  } catch (error) {
    translateSkuError(error);
  }
}

/** The product the landing page sells: it cannot be deleted. */
const FEATURED_PRODUCT_ID = 1;

type DeleteProductResult = { deleted: true } | { deleted: false; reason: "not_found" | "featured" | "ordered"; orders?: number };

/** Deletes a product unless orders reference it (their history must stay readable) or the landing page sells it. */
export function deleteProduct(id: number): DeleteProductResult {
  return getDb().transaction((tx) => {
    const product = tx.select({ id: products.id }).from(products).where(eq(products.id, id)).get();
    if (!product) return { deleted: false, reason: "not_found" } as const;
    if (id === FEATURED_PRODUCT_ID) return { deleted: false, reason: "featured" } as const;
    const ordered =
      tx
        .select({ n: sql<number>`count(distinct ${orderItems.orderId})` })
        .from(orderItems)
        .where(eq(orderItems.productId, id))
        .get()?.n ?? 0;
    if (ordered > 0) return { deleted: false, reason: "ordered", orders: ordered } as const;
    tx.delete(products).where(eq(products.id, id)).run();
    return { deleted: true } as const;
  });
}

/** The public catalog shape of GET /api/products(/{id}): prices as decimal strings. */
export function productToApi(product: typeof products.$inferSelect) {
  return {
    id: product.id,
    name: product.name,
    images: product.images ?? [],
    price: centsToDecimal(product.priceCents),
    originalPrice: product.originalPriceCents === null ? null : centsToDecimal(product.originalPriceCents),
    sku: product.sku,
    category: product.category,
    stock: product.stock,
  };
}
