import { and, eq, gt, isNotNull, lte } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { orders, subscriptions } from "~/db/schema";
import { renewalCharge } from "~/services/promotions/renewal-amount.server";
import { queueEmail } from "~/services/email/outbox.server";

/**
 * The reminder before each renewal (`renewal_reminder`), worked out from the database alone:
 * whatever the scheduler's tick (scheduler.server.ts) finds due is queued, so nothing is held
 * in memory and a restart, a missed tick or a second process changes nothing.
 *
 * Who gets one: an `active` subscription that will really renew, i.e. not `cancelAtPeriodEnd`
 * (it ends at that date: telling its customer it renews would be false), and not `incomplete`
 * (never paid), `past_due` (the renewal already failed: the customer has the
 * `renewal_payment_failed` email with its pay link, and the period end on record is the one
 * that failed, already past) or `canceled`. It needs its first order, whose number the
 * cancellation form asks for and which the email is filed under.
 *
 * When: from REMINDER_DAYS_BEFORE days before the renewal, until REMINDER_MIN_NOTICE_HOURS
 * before it. A reminder exists to leave the customer time to cancel; one found due later than
 * that (the shop was stopped for days, a late payment moved the next renewal very close) is not
 * sent: it could arrive after the charge (an email may wait hours for its retries), and a
 * customer reading "renewed tomorrow morning" at night, with no time left to act, would take it
 * as a formality rather than a fair warning. The renewal receipt, which follows anyway, carries
 * the cancellation link.
 *
 * Once per renewal: the outbox's dedupe key is `renewal_reminder:subscription:<id>:<day>`, the
 * renewal's day in Paris (the date the email announces). A second tick, a restarted process or
 * two processes at once queue nothing more; the next period, four weeks later, is a new day and
 * gets its own reminder. Keyed on the day rather than the exact instant, a period end that
 * Stripe corrects by a few seconds (its own period end replacing our estimate) is not reminded
 * twice; a renewal moved to another day is announced again, with its new date.
 */

export const REMINDER_DAYS_BEFORE = 7;
export const REMINDER_MIN_NOTICE_HOURS = 24;

const HOUR_MS = 3_600_000;

const parisDay = new Intl.DateTimeFormat("en-CA", {
  timeZone: "Europe/Paris",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
});

/** `subscription:12:2026-12-23`: what a reminder is sent once for (the renewal's day in Paris). */
export function reminderOnce(subscriptionId: number, renewsAt: string): string {
  return `subscription:${subscriptionId}:${parisDay.format(new Date(renewsAt))}`;
}

/** The window of renewals to remind at `now`: after `from` (exclusive), until `to` (inclusive), ISO. */
export function reminderWindow(now: Date): { from: string; to: string } {
  return {
    from: new Date(now.getTime() + REMINDER_MIN_NOTICE_HOURS * HOUR_MS).toISOString(),
    to: new Date(now.getTime() + REMINDER_DAYS_BEFORE * 24 * HOUR_MS).toISOString(),
  };
}

/**
 * Queues the reminders due at `now` (those not queued yet), in one transaction that reads and
 * writes together: a subscription cancelled meanwhile is either seen cancelled or reminded
 * before its cancellation. Returns how many were queued.
 */
export async function queueDueRenewalReminders(now: Date = new Date()): Promise<number> {
  const { from, to } = reminderWindow(now);
  return await getDb().transaction(
    async (tx) => {
      const due = await tx
        .select({
          id: subscriptions.id,
          firstOrderId: subscriptions.firstOrderId,
          renewsAt: subscriptions.currentPeriodEnd,
          amountCents: subscriptions.amountCents,
          renewalCount: subscriptions.renewalCount,
          email: subscriptions.customerEmail,
          orderEmail: orders.customerEmail,
        })
        .from(subscriptions)
        .innerJoin(orders, eq(orders.id, subscriptions.firstOrderId))
        .where(
          and(
            eq(subscriptions.status, "active"),
            eq(subscriptions.cancelAtPeriodEnd, false),
            isNotNull(subscriptions.currentPeriodEnd),
            // ISO strings in one format (toISOString) compare as the instants they name.
            gt(subscriptions.currentPeriodEnd, from),
            lte(subscriptions.currentPeriodEnd, to),
          ),
        );
      let queued = 0;
      for (const sub of due) {
        const address = sub.email?.trim() || sub.orderEmail?.trim();
        if (!address || sub.firstOrderId == null || !sub.renewsAt) continue;
        // What this renewal really charges: the promotion code's discount while it lasts.
        const charge = await renewalCharge(sub, { db: tx });
        const payload = { subscriptionId: sub.id, renewsAt: sub.renewsAt, amountCents: charge.amountCents, charge };
        if (
          await queueEmail(tx, {
            kind: "renewal_reminder",
            orderId: sub.firstOrderId,
            to: address,
            payload,
            once: reminderOnce(sub.id, sub.renewsAt),
          })
        )
          queued++;
      }
      return queued;
    },
    { behavior: "immediate" },
  );
}
