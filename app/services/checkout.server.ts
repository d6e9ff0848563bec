import { eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { asc } from "drizzle-orm";
import { cartLines, carts, orderItems, orders, type Order } from "~/db/schema";
import { DELIVERY_COUNTRY, type DeliveryInput } from "~/schemas/delivery";
import { checkoutKeyFor, releasePaidCheckout } from "./cart.server";
import type { DbOrTx } from "./customers.server";
import { insertOrder, OrderError, priceOrderLines, rewriteUnpaidOrder } from "./orders.server";

/** An order can still be paid (a failed attempt may be retried). */
function isOpen(order: Pick<Order, "paymentStatus">) {
  return order.paymentStatus === "unpaid" || order.paymentStatus === "failed";
}

/** No payment was started for it yet: its items and amount may still change. */
function paymentNotStarted(order: Pick<Order, "stripePaymentIntentId" | "stripeSubscriptionId">) {
  return !order.stripePaymentIntentId && !order.stripeSubscriptionId;
}

/** Whether the order's items are not these priced lines (a pack's name or price changed since). */
function itemsDiffer(db: DbOrTx, orderId: number, lines: ReturnType<typeof priceOrderLines>): boolean {
  const items = db.select().from(orderItems).where(eq(orderItems.orderId, orderId)).orderBy(asc(orderItems.id)).all();
  if (items.length !== lines.length) return true;
  return items.some((item, i) => {
    const line = lines[i];
    return item.packId !== line.packId || item.quantity !== line.quantity || item.unitPriceCents !== line.unitPriceCents || item.variantName !== line.variantName;
  });
}

function isCheckoutKeyConflict(error: unknown) {
  return error instanceof Error && /UNIQUE constraint failed: orders\.checkout_key/.test(error.message);
}

/**
 * The delivery form (cart step 2): in one transaction, finds or creates the customer (an
 * existing one is linked, never changed) and creates the order with its items and its own
 * copy of the name and address (pending, unpaid, free shipping, amounts from the packs, the
 * pack rules applied: see packs.server.ts), then remembers it on the cart.
 * - Same cart, same content: the same order (a second submission changes nothing but the
 *   delivery details, which are updated).
 * - Content changed while the cart's order has no payment started: that order is rewritten.
 * - Otherwise a new order.
 */
export function submitDelivery(cartId: string, delivery: DeliveryInput): { orderId: number; created: boolean } {
  for (let attempt = 0; ; attempt++) {
    try {
      return getDb().transaction((tx) => {
        releasePaidCheckout(tx, cartId);
        const lines = tx.select().from(cartLines).where(eq(cartLines.cartId, cartId)).all();
        if (lines.length === 0) throw new OrderError("empty_cart", "Votre panier est vide");
        const checkoutKey = checkoutKeyFor(cartId, lines);
        const draft = {
          contact: { ...delivery, country: DELIVERY_COUNTRY },
          lines: priceOrderLines(tx, lines, "cart"),
          cartId,
          checkoutKey,
        };

        let orderId: number;
        let created = false;
        const sameContent = tx.select().from(orders).where(eq(orders.checkoutKey, checkoutKey)).get();
        if (sameContent) {
          if (!isOpen(sameContent)) throw new OrderError("already_paid", "Cette commande a déjà été réglée.");
          // The same content at a new price (the admin changed the pack): the order follows it.
          rewriteUnpaidOrder(tx, sameContent.id, draft, { replaceItems: itemsDiffer(tx, sameContent.id, draft.lines) });
          orderId = sameContent.id;
        } else {
          const cart = tx.select({ checkoutOrderId: carts.checkoutOrderId }).from(carts).where(eq(carts.id, cartId)).get();
          const previous = cart?.checkoutOrderId
            ? tx.select().from(orders).where(eq(orders.id, cart.checkoutOrderId)).get()
            : undefined;
          if (previous && isOpen(previous) && paymentNotStarted(previous)) {
            rewriteUnpaidOrder(tx, previous.id, draft, { replaceItems: true });
            orderId = previous.id;
          } else {
            orderId = insertOrder(tx, draft);
            created = true;
          }
        }
        tx.update(carts).set({ checkoutOrderId: orderId }).where(eq(carts.id, cartId)).run();
        return { orderId, created };
      });
    } catch (error) {
      // Two simultaneous submissions of the same cart: the second finds the first's order.
      if (attempt === 0 && isCheckoutKeyConflict(error)) continue;
      throw error;
    }
  }
}

/**
 * After the payment step: when the cart's order is paid, the cart is emptied. Only the
 * server marks orders paid; this never does. Returns whether the order is paid.
 */
export function completeCheckout(cartId: string, orderId: number): { paid: boolean } {
  return getDb().transaction((tx) => {
    const order = tx
      .select({ paymentStatus: orders.paymentStatus, cartId: orders.cartId })
      .from(orders)
      .where(eq(orders.id, orderId))
      .get();
    if (!order || order.cartId !== cartId) return { paid: false };
    releasePaidCheckout(tx, cartId);
    return { paid: order.paymentStatus === "paid" };
  });
}
