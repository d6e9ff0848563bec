import { eq, sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { cartLines } from "~/db/schema";

/** Number of items in a cart (sum of quantities), for the header badge. */
export function getCartLineCount(cartId: string): number {
  const row = getDb()
    .select({ count: sql<number>`coalesce(sum(${cartLines.quantity}), 0)` })
    .from(cartLines)
    .where(eq(cartLines.cartId, cartId))
    .get();
  return row?.count ?? 0;
}
