import { eq } from "drizzle-orm";
import { getDb, type DbOrTx } from "~/db/client.server";
import { orders, type Order } from "~/db/schema";

/** An order by its number, or by the Stripe subscription it is paid with (its first order). */

export async function findOrder(orderId: number, db: DbOrTx = getDb()): Promise<Order | undefined> {
  return (await db.select().from(orders).where(eq(orders.id, orderId)).limit(1))[0];
}

export async function findOrderBySubscription(subscriptionId: string, db: DbOrTx = getDb()): Promise<Order | undefined> {
  return (await db.select().from(orders).where(eq(orders.stripeSubscriptionId, subscriptionId)).limit(1))[0];
}
