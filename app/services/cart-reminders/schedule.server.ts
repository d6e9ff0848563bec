import { and, eq, gt, inArray, isNotNull, isNull, lte, sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { orders } from "~/db/schema";
import { queueEmail } from "~/services/email/outbox.server";
import { reminderEmailHash, unsubscribedHashes } from "~/services/customers/reminder-unsubscribes.server";

/**
 * The one reminder of an abandoned checkout, worked out by the scheduler's tick
 * (subscriptions/scheduler.server.ts) from the database alone.
 *
 * Who gets one: an order made by the delivery form (or POST /api/orders) whose buyer ticked
 * « M'envoyer un rappel si je ne finalise pas ma commande », still not paid (unpaid, or a payment
 * that failed) CART_REMINDER_DELAY_HOURS after it was made, with an address that did not
 * unsubscribe, and no later order of the same address paid since (the buyer finished with
 * another cart). Never a renewal. Without the consent, nothing, ever: French rules (CNIL) treat
 * this email as marketing to someone who is not yet a customer.
 *
 * When: from 4 hours after the order, until CART_REMINDER_MAX_AGE_HOURS: a shop stopped for days
 * does not send, on its return, reminders of checkouts left long ago.
 *
 * Never twice: `reminder_sent_at` is set by an update that only takes an order whose column is
 * still empty, in the same transaction as the email is queued (and the outbox's dedupe key is
 * `cart_reminder:order:<id>`). Two processes ticking at once: the second's update finds the
 * column set (PostgreSQL waits for the first's row lock, then reads it again; SQLite runs the
 * two transactions one after the other), so it queues nothing.
 */

export const CART_REMINDER_DELAY_HOURS = 4;
export const CART_REMINDER_MAX_AGE_HOURS = 48;

const HOUR_MS = 3_600_000;
const OPEN: ("unpaid" | "failed")[] = ["unpaid", "failed"];

/** Queues the reminders due at `now`; returns how many were queued. */
export async function queueDueCartReminders(now: Date = new Date()): Promise<number> {
  const madeBefore = new Date(now.getTime() - CART_REMINDER_DELAY_HOURS * HOUR_MS).toISOString();
  const madeAfter = new Date(now.getTime() - CART_REMINDER_MAX_AGE_HOURS * HOUR_MS).toISOString();
  const remindedAt = now.toISOString();
  return await getDb().transaction(
    async (tx) => {
      const due = await tx
        .select({ id: orders.id, email: orders.customerEmail })
        .from(orders)
        .where(
          and(
            eq(orders.reminderConsent, true),
            isNull(orders.reminderSentAt),
            gt(orders.createdAt, madeAfter),
            lte(orders.createdAt, madeBefore),
            inArray(orders.paymentStatus, OPEN),
            isNull(orders.renewalNumber),
            isNotNull(orders.customerEmail),
            // No later order of the same address was paid (its index on lower(email), payment, date).
            sql`not exists (select 1 from orders later where lower(later.customer_email) = lower(${orders.customerEmail})
              and later.payment_status in ('paid', 'partially_refunded', 'refunded') and later.created_at > ${orders.createdAt})`,
          ),
        );
      const unsubscribed = await unsubscribedHashes(
        tx,
        due.map((order) => order.email ?? ""),
      );
      let queued = 0;
      for (const order of due) {
        const to = order.email?.trim();
        if (!to || unsubscribed.has(reminderEmailHash(to))) continue;
        const marked = await tx
          .update(orders)
          .set({ reminderSentAt: remindedAt })
          .where(
            and(
              eq(orders.id, order.id),
              isNull(orders.reminderSentAt),
              eq(orders.reminderConsent, true),
              inArray(orders.paymentStatus, OPEN),
            ),
          )
          .returning({ id: orders.id });
        if (marked.length === 0) continue;
        if (await queueEmail(tx, { kind: "cart_reminder", orderId: order.id, to, payload: { remindedAt } })) queued++;
        // Its one reminder was queued before and dropped at sending (email/send-checks.server.ts),
        // then the customer ticked the box again: none leaves, so none counts as sent.
        else await tx.update(orders).set({ reminderSentAt: null }).where(eq(orders.id, order.id));
      }
      return queued;
    },
    { behavior: "immediate" },
  );
}
