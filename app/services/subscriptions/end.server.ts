import { and, eq, isNull } from "drizzle-orm";
import { getDb, type DbOrTx } from "~/db/client.server";
import { orders } from "~/db/schema";
import type { EmailPayloads } from "~/services/email/email-types";
import { queueSubscriptionCanceledEmail } from "~/services/email/notifications.server";
import { findOrder } from "~/services/orders/find.server";
import { ensureSubscriptionRecord, recordSubscriptionCanceled } from "./record.server";

/**
 * The end of a paid subscription, whoever ends it: the customer online or on its private page
 * (cancel.server.ts), the back office (admin-cancel.server.ts), or Stripe (its webhook,
 * services/payments/webhook.server.ts).
 */

/**
 * A paid subscription ended: records the date on its first order and its record (created from
 * the order if need be), keeping the first one if it is already set, and queues the
 * cancellation's confirmation to the customer (L215-1-1) in the same transaction, once per
 * subscription.
 */
export async function markSubscriptionCanceled(
  orderId: number,
  canceledAt: string,
  canceledBy: EmailPayloads["subscription_canceled"]["canceledBy"],
  db: DbOrTx = getDb(),
) {
  const record = async (tx: DbOrTx) => {
    const updated = await tx
      .update(orders)
      .set({ subscriptionCanceledAt: canceledAt })
      .where(and(eq(orders.id, orderId), isNull(orders.subscriptionCanceledAt)))
      .returning({ id: orders.id });
    const order = await findOrder(orderId, tx);
    const record = order?.stripeSubscriptionId
      ? await ensureSubscriptionRecord(tx, { ...order, stripeSubscriptionId: order.stripeSubscriptionId })
      : undefined;
    const ended = record ? await recordSubscriptionCanceled(tx, record, canceledAt) : false;
    if (updated.length === 1 || ended) {
      await queueSubscriptionCanceledEmail(tx, orderId, { endsAt: canceledAt, canceledBy }, record?.id);
    }
  };
  if (db === getDb()) await getDb().transaction(record);
  else await record(db);
}
