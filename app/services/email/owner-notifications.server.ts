import { and, asc, eq, inArray, isNull, lt } from "drizzle-orm";
import { type DbOrTx, getDb } from "~/db/client.server";
import { emails, ownerNotices, siteSettings } from "~/db/schema";
import { DEFAULT_SETTINGS } from "~/db/seed.server";
import type { EmailKind } from "~/lib/email-kinds";
import { parisLocalToIso } from "~/lib/dates";
import {
  DAILY_SUMMARY_HOUR,
  DEFAULT_NOTIFICATION_SETTINGS,
  type NotificationSettings,
  type OwnerNotificationSetting,
} from "~/lib/owner-notifications";
import type { NotificationSettingsInput } from "~/schemas/notification-settings";
import type { Email } from "~/db/schema";
import type { EmailPayloads } from "./email-types";
import { getSettings } from "~/services/settings.server";
import { dedupeKeyOf, queueEmail, type QueuedEmail } from "./outbox.server";

/**
 * The owner is told what needs them, at the settings' address: a withdrawal to refund, a
 * renewal refused or waiting for the customer's authentication, a refund made at Stripe, a
 * contact request, an email that could not be delivered. Each is written in its event's
 * transaction, once per event (the outbox's dedupe key), unless its setting is off. With the
 * daily summary on, the event is kept in `owner_notices` instead, and the scheduler sends them
 * all in one email each morning (queueOwnerDailySummary).
 */

/** The shop's own address (site settings), read in the transaction. */
export async function shopAddress(tx: DbOrTx): Promise<string> {
  return (await getSettings(tx)).siteEmail;
}

const SETTING_OF = {
  owner_withdrawal: "notifyWithdrawal",
  owner_renewal_problem: "notifyRenewalProblem",
  owner_stripe_refund: "notifyStripeRefund",
  shop_new_contact: "notifyContact",
  owner_email_failed: "notifyEmailFailed",
} as const satisfies Partial<Record<EmailKind, OwnerNotificationSetting>>;

export type OwnerNoticeKind = keyof typeof SETTING_OF;

/** The emails written to the shop itself: a failure to deliver one of them is not told by email (it would fail too). */
const TO_THE_SHOP: readonly EmailKind[] = [
  "shop_new_order",
  "shop_new_contact",
  "admin_login_attack",
  "owner_withdrawal",
  "owner_renewal_problem",
  "owner_stripe_refund",
  "owner_email_failed",
  "owner_daily_summary",
];

export async function getNotificationSettings(db: DbOrTx = getDb()): Promise<NotificationSettings> {
  const [row] = await db
    .select({
      notifyWithdrawal: siteSettings.notifyWithdrawal,
      notifyRenewalProblem: siteSettings.notifyRenewalProblem,
      notifyStripeRefund: siteSettings.notifyStripeRefund,
      notifyContact: siteSettings.notifyContact,
      notifyEmailFailed: siteSettings.notifyEmailFailed,
      notifyDailySummary: siteSettings.notifyDailySummary,
    })
    .from(siteSettings)
    .where(eq(siteSettings.id, 1))
    .limit(1);
  return row ?? { ...DEFAULT_NOTIFICATION_SETTINGS };
}

export async function updateNotificationSettings(input: Partial<NotificationSettingsInput>): Promise<NotificationSettings> {
  const db = getDb();
  await db
    .insert(siteSettings)
    .values({ ...DEFAULT_SETTINGS, ...DEFAULT_NOTIFICATION_SETTINGS, ...input, id: 1 })
    .onConflictDoUpdate({ target: siteSettings.id, set: { ...input, updatedAt: new Date().toISOString() } });
  return await getNotificationSettings(db);
}

type OwnerNotice<K extends OwnerNoticeKind> = Omit<QueuedEmail<K>, "to">;

/**
 * Tells the owner of an event, in its transaction: nothing when its setting is off or when it was
 * already told (by email or in a summary, whichever was on then); kept for the summary when the
 * summary is on; else queued. True when something was written.
 */
async function notifyOwner<K extends OwnerNoticeKind>(tx: DbOrTx, notice: OwnerNotice<K>): Promise<boolean> {
  const settings = await getNotificationSettings(tx);
  if (!settings[SETTING_OF[notice.kind]]) return false;
  const dedupeKey = dedupeKeyOf(notice.kind, notice as Parameters<typeof dedupeKeyOf>[1]);
  const [held] = await tx
    .select({ id: ownerNotices.id })
    .from(ownerNotices)
    .where(eq(ownerNotices.dedupeKey, dedupeKey))
    .limit(1);
  if (held) return false;
  if (!settings.notifyDailySummary) return await queueEmail(tx, { ...notice, to: await shopAddress(tx) } as QueuedEmail<K>);
  const [sent] = await tx.select({ id: emails.id }).from(emails).where(eq(emails.dedupeKey, dedupeKey)).limit(1);
  if (sent) return false;
  const inserted = await tx
    .insert(ownerNotices)
    .values({
      kind: notice.kind,
      dedupeKey,
      orderId: notice.orderId ?? null,
      contactRequestId: notice.contactRequestId ?? null,
      payload: notice.payload,
    })
    .onConflictDoNothing({ target: ownerNotices.dedupeKey })
    .returning({ id: ownerNotices.id });
  return inserted.length === 1;
}

/** A withdrawal was recorded: the owner has 14 days to refund it. */
export async function notifyOwnerOfWithdrawal(tx: DbOrTx, orderId: number, payload: EmailPayloads["owner_withdrawal"]) {
  return await notifyOwner(tx, { kind: "owner_withdrawal", orderId, payload });
}

/** A renewal was refused, or waits for the customer's authentication: once per invoice, whichever came first. */
export async function notifyOwnerOfRenewalProblem(
  tx: DbOrTx,
  firstOrderId: number,
  payload: EmailPayloads["owner_renewal_problem"],
) {
  return await notifyOwner(tx, {
    kind: "owner_renewal_problem",
    orderId: firstOrderId,
    payload,
    once: `invoice:${payload.invoiceId}`,
  });
}

/** A refund made at Stripe (not from the back office) succeeded: once per refund. */
export async function notifyOwnerOfStripeRefund(tx: DbOrTx, orderId: number, payload: EmailPayloads["owner_stripe_refund"]) {
  return await notifyOwner(tx, { kind: "owner_stripe_refund", orderId, payload, once: `refund:${payload.refundId}` });
}

/** A contact request was stored. */
export async function notifyOwnerOfContact(tx: DbOrTx, contactRequestId: number) {
  return await notifyOwner(tx, { kind: "shop_new_contact", contactRequestId, payload: {} });
}

/** An email failed for good (every attempt refused): once per email, never about an email to the shop itself. */
export async function notifyOwnerOfFailedEmail(tx: DbOrTx, email: Email, lastError: string | null) {
  if (TO_THE_SHOP.includes(email.kind)) return false;
  const payload = { emailId: email.id, kind: email.kind, toAddress: email.toAddress, attempts: email.attempts, lastError };
  return await notifyOwner(tx, {
    kind: "owner_email_failed",
    ...(email.orderId === null ? {} : { orderId: email.orderId }),
    payload,
    once: `email:${email.id}`,
  } as OwnerNotice<"owner_email_failed">);
}

// ---------------------------------------------------------------------------------------------
// The daily summary

const dayKey = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Paris", year: "numeric", month: "2-digit", day: "2-digit" });
const HOUR = `${String(DAILY_SUMMARY_HOUR).padStart(2, "0")}:00`;

/** The latest DAILY_SUMMARY_HOUR o'clock in Paris at or before `now`, and its day (`2026-11-27`). */
export function summaryCutoff(now: Date): { day: string; at: Date } {
  const today = dayKey.format(now);
  const atToday = new Date(parisLocalToIso(`${today}T${HOUR}`)!);
  if (atToday.getTime() <= now.getTime()) return { day: today, at: atToday };
  const yesterday = dayKey.format(new Date(now.getTime() - 86_400_000));
  return { day: yesterday, at: new Date(parisLocalToIso(`${yesterday}T${HOUR}`)!) };
}

/**
 * The scheduler's part (every tick): from DAILY_SUMMARY_HOUR in Paris, the notices kept before
 * that hour and not told yet go in one email, at most one a day, never an empty one. The email
 * and the notices' link to it are written in one transaction: a notice is told once, and one kept
 * after the day's summary waits for the next one. True when a summary was queued.
 */
export async function queueOwnerDailySummary(now = new Date()): Promise<boolean> {
  const cutoff = summaryCutoff(now);
  return await getDb().transaction(async (tx) => {
    const waiting = await tx
      .select({ id: ownerNotices.id })
      .from(ownerNotices)
      .where(and(isNull(ownerNotices.summaryEmailId), lt(ownerNotices.createdAt, cutoff.at.toISOString())))
      .orderBy(asc(ownerNotices.id));
    if (waiting.length === 0) return false;
    const once = `day:${cutoff.day}`;
    const queued = await queueEmail(tx, {
      kind: "owner_daily_summary",
      to: await shopAddress(tx),
      payload: { count: waiting.length, day: cutoff.day },
      once,
    });
    if (!queued) return false;
    const [email] = await tx
      .select({ id: emails.id })
      .from(emails)
      .where(eq(emails.dedupeKey, dedupeKeyOf("owner_daily_summary", { once })))
      .limit(1);
    await tx
      .update(ownerNotices)
      .set({ summaryEmailId: email.id, updatedAt: now.toISOString() })
      .where(
        inArray(
          ownerNotices.id,
          waiting.map((w) => w.id),
        ),
      );
    return true;
  });
}

/** The notices a summary email tells, in the order they happened. */
export async function noticesOfSummary(emailId: number) {
  return await getDb().select().from(ownerNotices).where(eq(ownerNotices.summaryEmailId, emailId)).orderBy(asc(ownerNotices.id));
}
