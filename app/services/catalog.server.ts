import { asc, eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { products } from "~/db/schema";

export function getProduct(id: number) {
  return getDb().select().from(products).where(eq(products.id, id)).get();
}

export function listProducts() {
  return getDb().select().from(products).orderBy(asc(products.id)).all();
}
