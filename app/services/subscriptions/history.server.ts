import { asc, eq } from "drizzle-orm";
import type { DbOrTx } from "~/db/client.server";
import { getDb } from "~/db/client.server";
import { subscriptionEvents, type SubscriptionEvent } from "~/db/schema";
import type { SubscriptionAction } from "~/lib/subscription-actions";

/**
 * The history of the changes made to a subscription by its subscriber or by the shop (with the
 * shop's reason): written in the transaction of the change, read by the back office.
 */

export type SubscriptionActor = { kind: "customer" } | { kind: "admin"; reason: string };

export async function recordSubscriptionEvent(
  tx: DbOrTx,
  subscriptionId: number,
  event: { action: SubscriptionAction; label: string; actor: SubscriptionActor; at: string },
): Promise<void> {
  await tx.insert(subscriptionEvents).values({
    subscriptionId,
    action: event.action,
    actor: event.actor.kind,
    label: event.label,
    reason: event.actor.kind === "admin" ? event.actor.reason : null,
    at: event.at,
  });
}

/** The subscription's changes, oldest first. */
export async function subscriptionEventsOf(subscriptionId: number, db: DbOrTx = getDb()): Promise<SubscriptionEvent[]> {
  return await db
    .select()
    .from(subscriptionEvents)
    .where(eq(subscriptionEvents.subscriptionId, subscriptionId))
    .orderBy(asc(subscriptionEvents.at), asc(subscriptionEvents.id));
}
