import { eq, sql } from "drizzle-orm";
import { getDb, type DbOrTx } from "~/db/client.server";
import { lockFor, lockRows } from "~/db/locks.server";
import { param, prepared } from "~/db/prepared.server";
import { findOrder, findOrderItems } from "~/services/orders/find.server";
import { cartLines, carts, orders, type Order } from "~/db/schema";
import { DELIVERY_COUNTRY, type DeliveryInput } from "~/schemas/delivery";
import { checkoutKeyFor, releasePaidCheckout } from "./cart.server";
import { insertOrder, rewriteUnpaidOrder } from "./orders/create.server";
import { OrderError } from "./orders/errors.server";
import { priceOrderLines } from "./orders/lines.server";
import { countOrderCreated } from "~/services/observability/metrics.server";

/** An order can still be paid (a failed attempt may be retried). */
function isOpen(order: Pick<Order, "paymentStatus">) {
  return order.paymentStatus === "unpaid" || order.paymentStatus === "failed";
}

/** No payment was started for it yet: its items and amount may still change. */
function paymentNotStarted(order: Pick<Order, "stripePaymentIntentId" | "stripeSubscriptionId">) {
  return !order.stripePaymentIntentId && !order.stripeSubscriptionId;
}

/** Whether the order's items are not these priced lines (a pack's name or price changed since). */
async function itemsDiffer(db: DbOrTx, orderId: number, lines: Awaited<ReturnType<typeof priceOrderLines>>): Promise<boolean> {
  const items = await findOrderItems(orderId, db);
  if (items.length !== lines.length) return true;
  return items.some((item, i) => {
    const line = lines[i];
    return (
      item.packId !== line.packId ||
      item.quantity !== line.quantity ||
      item.unitPriceCents !== line.unitPriceCents ||
      item.variantName !== line.variantName
    );
  });
}

/**
 * The delivery form's reads and write of the cart, prepared once per database handle
 * (db/prepared.server.ts): each purchase runs them in the transaction that holds the write lock.
 */
const deliveryQueries = (db: DbOrTx) =>
  prepared(db, "deliveryQueries", () => ({
    lines: db
      .select()
      .from(cartLines)
      .where(eq(cartLines.cartId, sql.placeholder("cartId")))
      .prepare(),
    cart: db
      .select({ promotionCode: carts.promotionCode, checkoutOrderId: carts.checkoutOrderId })
      .from(carts)
      .where(eq(carts.id, sql.placeholder("cartId")))
      .limit(1)
      .prepare(),
    orderByCheckoutKey: db
      .select()
      .from(orders)
      .where(eq(orders.checkoutKey, sql.placeholder("checkoutKey")))
      .limit(1)
      .prepare(),
    rememberOrder: db
      .update(carts)
      .set({ checkoutOrderId: param<number>("orderId"), updatedAt: param<string>("now") })
      .where(eq(carts.id, sql.placeholder("cartId")))
      .prepare(),
  }));

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
export async function submitDelivery(cartId: string, delivery: DeliveryInput): Promise<{ orderId: number; created: boolean }> {
  for (let attempt = 0; ; attempt++) {
    try {
      const submitted = await getDb().transaction(async (tx) => {
        // Two submissions of one cart (a double click, two tabs) rewrite its order one after the other.
        await lockFor(tx, "cart", cartId);
        await releasePaidCheckout(tx, cartId);
        const queries = deliveryQueries(tx);
        const lines = await queries.lines.execute({ cartId });
        if (lines.length === 0) throw new OrderError("empty_cart", "Votre panier est vide");
        const checkoutKey = checkoutKeyFor(cartId, lines);
        const [cartRow] = await queries.cart.execute({ cartId });
        const draft = {
          contact: { ...delivery, country: DELIVERY_COUNTRY },
          lines: await priceOrderLines(tx, lines, "cart"),
          cartId,
          checkoutKey,
          // Checked again here, with the email typed: a refusal is said on the form.
          promotionCode: cartRow?.promotionCode ?? null,
        };

        let orderId: number;
        let created = false;
        // The order read here is rewritten below: its payment, on another server, waits meanwhile.
        await lockRows(tx, orders, eq(orders.checkoutKey, checkoutKey));
        const [sameContent] = await queries.orderByCheckoutKey.execute({ checkoutKey });
        if (sameContent) {
          if (!isOpen(sameContent)) throw new OrderError("already_paid", "Cette commande a déjà été réglée.");
          // The same content at a new price (the admin changed the pack): the order follows it.
          await rewriteUnpaidOrder(tx, sameContent.id, draft, {
            replaceItems: await itemsDiffer(tx, sameContent.id, draft.lines),
          });
          orderId = sameContent.id;
        } else {
          const [cart] = await queries.cart.execute({ cartId });
          if (cart?.checkoutOrderId) await lockRows(tx, orders, eq(orders.id, cart.checkoutOrderId));
          const previous = cart?.checkoutOrderId ? await findOrder(cart.checkoutOrderId, tx) : undefined;
          if (previous && isOpen(previous) && paymentNotStarted(previous)) {
            await rewriteUnpaidOrder(tx, previous.id, draft, { replaceItems: true });
            orderId = previous.id;
          } else {
            orderId = await insertOrder(tx, draft);
            created = true;
          }
        }
        await queries.rememberOrder.execute({ cartId, orderId, now: new Date().toISOString() });
        return { orderId, created };
      });
      if (submitted.created) countOrderCreated();
      return submitted;
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
export async function completeCheckout(cartId: string, orderId: number): Promise<{ paid: boolean }> {
  return await getDb().transaction(async (tx) => {
    const [order] = await tx
      .select({ paymentStatus: orders.paymentStatus, cartId: orders.cartId })
      .from(orders)
      .where(eq(orders.id, orderId))
      .limit(1);
    if (!order || order.cartId !== cartId) return { paid: false };
    await releasePaidCheckout(tx, cartId);
    return { paid: order.paymentStatus === "paid" };
  });
}
