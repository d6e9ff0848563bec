import { and, eq, inArray, lt, notExists, or } from "drizzle-orm";
import { getDb, type DbOrTx } from "~/db/client.server";
import { cartLines, carts } from "~/db/schema";

/**
 * Carts are rows (one per visitor who added something), never removed by the visitor: the
 * scheduler (subscriptions/scheduler.server.ts) deletes the stale ones.
 */

const DAY_MS = 86_400_000;
/** An empty cart (its lines removed, or its order paid) is kept a day after its last change. */
export const EMPTY_CART_KEPT_MS = DAY_MS;
/** A cart left unchanged this long is abandoned: the cookie that names it lasts as long. */
export const ABANDONED_CART_KEPT_MS = 30 * DAY_MS;

/** Deletes the empty carts unchanged for a day and every cart unchanged for 30 days; gives how many. */
export async function purgeStaleCarts(now: Date, db: DbOrTx = getDb()): Promise<number> {
  // ISO strings in one format (toISOString) compare as the instants they name.
  const emptyBefore = new Date(now.getTime() - EMPTY_CART_KEPT_MS).toISOString();
  const abandonedBefore = new Date(now.getTime() - ABANDONED_CART_KEPT_MS).toISOString();
  return await db.transaction(async (tx) => {
    const isStale = or(
      lt(carts.updatedAt, abandonedBefore),
      and(
        lt(carts.updatedAt, emptyBefore),
        notExists(tx.select({ id: cartLines.id }).from(cartLines).where(eq(cartLines.cartId, carts.id))),
      ),
    );
    const stale = await tx.select({ id: carts.id }).from(carts).where(isStale).limit(1000);
    if (stale.length === 0) return 0;
    // The condition is checked again as each cart is deleted: one a shopper filled meanwhile stays (its lines go with the cart).
    const deleted = await tx
      .delete(carts)
      .where(
        and(
          inArray(
            carts.id,
            stale.map((cart) => cart.id),
          ),
          isStale,
        ),
      )
      .returning({ id: carts.id });
    return deleted.length;
  });
}
