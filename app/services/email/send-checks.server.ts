import { and, eq, gt, inArray, sql } from "drizzle-orm";
import { type DbOrTx, getDb } from "~/db/client.server";
import { type Email, orders } from "~/db/schema";
import { reminderEmailHash, unsubscribedHashes } from "~/services/customers/reminder-unsubscribes.server";
import { markEmailCanceled } from "./outbox.server";

/**
 * What the sender reads again just before an attempt (sender.server.ts): an email queued by a
 * tick may wait for the sender, or for a retry, while what caused it changes. Today the
 * reminder of an abandoned checkout: paid meantime, its consent withdrawn or its address
 * unsubscribed, it does not leave: a customer who has paid must never read « vous avez
 * oublié… ». The rule is the scheduler's (cart-reminders/schedule.server.ts), read again for one
 * order.
 */

const PAID = ["paid", "partially_refunded", "refunded"] as const;

const CART_REMINDER_DROPPED = {
  gone: "Non envoyé : la commande n'existe plus.",
  paid: "Non envoyé : la commande a été payée entre-temps.",
  paidElsewhere: "Non envoyé : une commande plus récente de cette adresse a été payée entre-temps.",
  consent: "Non envoyé : le client a retiré son accord pour ce rappel.",
  unsubscribed: "Non envoyé : l'adresse s'est désinscrite des rappels.",
} as const;

async function cartReminderDropReason(db: DbOrTx, orderId: number | null, to: string): Promise<string | null> {
  if (orderId === null) return CART_REMINDER_DROPPED.gone;
  const [order] = await db
    .select({
      paymentStatus: orders.paymentStatus,
      consent: orders.reminderConsent,
      email: orders.customerEmail,
      createdAt: orders.createdAt,
    })
    .from(orders)
    .where(eq(orders.id, orderId))
    .limit(1);
  if (!order?.email) return CART_REMINDER_DROPPED.gone;
  if (order.paymentStatus !== "unpaid" && order.paymentStatus !== "failed") return CART_REMINDER_DROPPED.paid;
  if (!order.consent) return CART_REMINDER_DROPPED.consent;
  const unsubscribed = await unsubscribedHashes(db, [order.email, to]);
  if (unsubscribed.has(reminderEmailHash(order.email)) || unsubscribed.has(reminderEmailHash(to)))
    return CART_REMINDER_DROPPED.unsubscribed;
  const [later] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(
      and(
        sql`lower(${orders.customerEmail}) = lower(${order.email})`,
        inArray(orders.paymentStatus, [...PAID]),
        gt(orders.createdAt, order.createdAt),
      ),
    )
    .limit(1);
  if (later) return CART_REMINDER_DROPPED.paidElsewhere;
  return null;
}

/** Why this email must not leave now, or null. */
export async function reasonNotToSend(email: Email): Promise<string | null> {
  if (email.kind === "cart_reminder") return await cartReminderDropReason(getDb(), email.orderId, email.toAddress);
  return null;
}

/**
 * Drops it: canceled with its reason, in one transaction with what the email's cause records.
 * A reminder that never left is not a reminder sent (`orders.reminder_sent_at`, which the
 * owner's figures count): the column is emptied again; the outbox's dedupe key still keeps
 * the order from a second reminder.
 */
export async function dropEmail(email: Email, reason: string): Promise<void> {
  await getDb().transaction(async (tx) => {
    if (!(await markEmailCanceled(email.id, reason, tx))) return;
    if (email.kind === "cart_reminder" && email.orderId !== null)
      await tx.update(orders).set({ reminderSentAt: null }).where(eq(orders.id, email.orderId));
  });
}
