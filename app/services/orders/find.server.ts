import { asc, eq, sql } from "drizzle-orm";
import { getDb, type DbOrTx } from "~/db/client.server";
import { prepared } from "~/db/prepared.server";
import { orderItems, orders, subscriptions, type Order, type Subscription } from "~/db/schema";

/**
 * An order by its number, or by the Stripe subscription it is paid with (its first order); and
 * the subscription an order started, by its id or its Stripe id. Plain reads, here so that every
 * services folder above (subscriptions/, email/, payments/) reads them the same way.
 */

/** The order by its number: read about eight times per purchase, so prepared once per handle. */
const orderById = (db: DbOrTx) =>
  db
    .select()
    .from(orders)
    .where(eq(orders.id, sql.placeholder("orderId")))
    .limit(1)
    .prepare();

export async function findOrder(orderId: number, db: DbOrTx = getDb()): Promise<Order | undefined> {
  return (await prepared(db, "orderById", orderById).execute({ orderId }))[0];
}

/** The order's lines, in the order they were written: read three or four times per purchase, so prepared once per handle. */
const itemsByOrder = (db: DbOrTx) =>
  db
    .select()
    .from(orderItems)
    .where(eq(orderItems.orderId, sql.placeholder("orderId")))
    .orderBy(asc(orderItems.id))
    .prepare();

export async function findOrderItems(orderId: number, db: DbOrTx = getDb()): Promise<(typeof orderItems.$inferSelect)[]> {
  return await prepared(db, "itemsByOrder", itemsByOrder).execute({ orderId });
}

export async function findOrderBySubscription(subscriptionId: string, db: DbOrTx = getDb()): Promise<Order | undefined> {
  return (await db.select().from(orders).where(eq(orders.stripeSubscriptionId, subscriptionId)).limit(1))[0];
}

export async function findSubscriptionByStripeId(db: DbOrTx, stripeSubscriptionId: string): Promise<Subscription | undefined> {
  return (await db.select().from(subscriptions).where(eq(subscriptions.stripeSubscriptionId, stripeSubscriptionId)).limit(1))[0];
}

export async function findSubscription(db: DbOrTx, id: number): Promise<Subscription | undefined> {
  return (await db.select().from(subscriptions).where(eq(subscriptions.id, id)).limit(1))[0];
}
