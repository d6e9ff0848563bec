import { and, asc, eq, lte, sql } from "drizzle-orm";
import { type DbOrTx, getDb } from "~/db/client.server";
import { param, prepared } from "~/db/prepared.server";
import { afterCommit } from "~/db/transactions.server";
import { type Email, type EmailAttachment, type EmailAttachmentRef, emails } from "~/db/schema";
import type { EmailKind } from "~/lib/email-kinds";
import type { EmailPayloads, RenderedEmail } from "./email-types";

/**
 * The outbox: the emails waiting to be sent, written in the caller's transaction so that an
 * email exists if and only if its event happened. The sender (sender.server.ts) reads it.
 */

type Entity =
  | { orderId: number; contactRequestId?: never }
  | { contactRequestId: number; orderId?: never }
  | { orderId?: never; contactRequestId?: never; once: string };

export type QueuedEmail<K extends EmailKind> = Entity & {
  kind: K;
  to: string;
  payload: EmailPayloads[K];
  /**
   * What the email is sent once for, when it is not its order or contact request:
   * `subscription:12` (one per subscription), `invoice:in_123` (one per Stripe invoice); an
   * email about neither an order nor a contact request must have one (`user:1:2026-03-05T10`).
   */
  once?: string;
};

/**
 * `order_confirmation:order:123456789`: one email of a kind per order or contact request, or
 * per what `once` names (`renewal_payment_failed:invoice:in_123`).
 */
export function dedupeKeyOf(kind: EmailKind, entity: Entity & { once?: string }): string {
  if (entity.once) return `${kind}:${entity.once}`;
  return entity.orderId !== undefined ? `${kind}:order:${entity.orderId}` : `${kind}:contact:${entity.contactRequestId}`;
}

let onQueued: (() => void) | undefined;

/** The sender of this process asks to be woken when an email is queued (sender.server.ts). */
export function setQueuedListener(listener: (() => void) | undefined) {
  onQueued = listener;
}

/**
 * The outbox's insert (two per paid purchase, in its transaction), prepared once per database
 * handle (db/prepared.server.ts); it gives its own timestamps, which would otherwise be those of
 * the preparation.
 */
const queueEmailInsert = (db: DbOrTx) =>
  db
    .insert(emails)
    .values({
      kind: sql.placeholder("kind"),
      dedupeKey: sql.placeholder("dedupeKey"),
      orderId: sql.placeholder("orderId"),
      contactRequestId: sql.placeholder("contactRequestId"),
      toAddress: sql.placeholder("toAddress"),
      payload: sql.placeholder("payload"),
      nextAttemptAt: sql.placeholder("now"),
      createdAt: sql.placeholder("now"),
      updatedAt: sql.placeholder("now"),
    })
    .onConflictDoNothing({ target: emails.dedupeKey })
    .returning({ id: emails.id })
    .prepare();

/**
 * Queues an email in `db` (the event's transaction). A second call for the same kind and
 * entity (a replayed webhook, a second click) queues nothing. True when it was queued.
 */
export async function queueEmail<K extends EmailKind>(db: DbOrTx, email: QueuedEmail<K>): Promise<boolean> {
  const now = new Date().toISOString();
  const result = await prepared(db, "queueEmail", queueEmailInsert).execute({
    kind: email.kind,
    dedupeKey: dedupeKeyOf(email.kind, email),
    orderId: email.orderId ?? null,
    contactRequestId: email.contactRequestId ?? null,
    toAddress: email.to,
    payload: email.payload,
    now,
  });
  // Once the caller's transaction has committed: the sender's queries only see committed rows.
  if (result.length === 1 && onQueued) afterCommit(db, onQueued);
  return result.length === 1;
}

// ---------------------------------------------------------------------------------------------
// The sender's side

/**
 * Takes the next email due (pending, its time come) for an attempt: status sending, one more
 * attempt counted. The update takes it only if it is still pending, so two senders never take
 * the same email (the one that loses the race finds none this round).
 */
export async function claimNextDueEmail(now = new Date()): Promise<Email | undefined> {
  const db = getDb();
  const iso = now.toISOString();
  const { dueEmail, claim } = senderQueries(db);
  const [next] = await dueEmail.execute({ now: iso });
  if (!next) return undefined;
  return (await claim.execute({ id: next.id, now: iso }))[0];
}

/** A value given at each run, where drizzle takes an SQL expression (an update's `set`). */
const value = (name: string) => sql`${sql.placeholder(name)}`;

/** What an email's update to `sent` sets: the time, the transport and its message id. */
const sentColumns = () =>
  ({
    status: "sent",
    sentAt: value("now"),
    sendingSince: null,
    transport: value("transport"),
    messageId: value("messageId"),
    updatedAt: value("now"),
  }) as const;

/**
 * The sender's queries that run for every email (two per paid purchase), prepared once per
 * database handle (db/prepared.server.ts). A prepared write sets its `updated_at` itself: the
 * column's automatic value would be the time of the preparation.
 */
const senderQueries = (db: DbOrTx) =>
  prepared(db, "emailSender", () => ({
    dueEmail: db
      .select({ id: emails.id })
      .from(emails)
      .where(and(eq(emails.status, "pending"), lte(emails.nextAttemptAt, sql.placeholder("now"))))
      .orderBy(asc(emails.nextAttemptAt), asc(emails.id))
      .limit(1)
      .prepare(),
    claim: db
      .update(emails)
      .set({
        status: "sending",
        sendingSince: value("now"),
        attempts: sql`${emails.attempts} + 1`,
        updatedAt: value("now"),
      })
      .where(and(eq(emails.id, sql.placeholder("id")), eq(emails.status, "pending")))
      .returning()
      .prepare(),
    sent: db
      .update(emails)
      .set(sentColumns())
      .where(and(eq(emails.id, sql.placeholder("id")), eq(emails.status, "sending")))
      .prepare(),
    sentRendered: db
      .update(emails)
      .set({
        ...sentColumns(),
        subject: param<string>("subject"),
        html: param<string>("html"),
        text: param<string>("text"),
        attachmentRefs: param<EmailAttachmentRef[]>("attachmentRefs"),
        attachments: param<EmailAttachment[] | null>("attachments"),
        headers: param<Record<string, string> | null>("headers"),
      })
      .where(and(eq(emails.id, sql.placeholder("id")), eq(emails.status, "sending")))
      .prepare(),
    nextDue: db
      .select({ at: sql<string | null>`min(${emails.nextAttemptAt})` })
      .from(emails)
      .where(eq(emails.status, "pending"))
      .limit(1)
      .prepare(),
  }));

/**
 * What was rendered at the first attempt, as it is kept: every later attempt and resend sends
 * exactly this. The attachments are kept as references only (attachments.server.ts); a file with
 * no reference (none today) would be kept as it is, and deleted with the content.
 */
function renderedColumns(rendered: RenderedEmail) {
  const refs = rendered.attachmentRefs ?? [];
  const unreferenced = rendered.attachments.slice(refs.length);
  return {
    subject: rendered.subject,
    html: rendered.html,
    text: rendered.text,
    attachmentRefs: refs,
    attachments: unreferenced.length > 0 ? unreferenced : null,
    headers: rendered.headers ?? null,
  };
}

/**
 * The email left: sent, with its transport and message id. `rendered`: what this attempt
 * rendered (its first), kept in the same write (the content is the largest part of the row,
 * which SQLite writes whole at each update).
 */
export async function markEmailSent(
  id: number,
  outcome: { transport: "smtp" | "demo"; messageId: string | null },
  now = new Date(),
  rendered?: RenderedEmail,
) {
  const queries = senderQueries(getDb());
  const values = { id, now: now.toISOString(), transport: outcome.transport, messageId: outcome.messageId };
  if (!rendered) await queries.sent.execute(values);
  else await queries.sentRendered.execute({ ...values, ...renderedColumns(rendered) });
}

/**
 * A failed attempt: back to pending at `retryAt`, or failed for good when there is none, with
 * what this attempt rendered (its first) when it got that far. True when the email was still
 * being sent.
 */
export async function markEmailAttemptFailed(
  id: number,
  error: string,
  retryAt: Date | null,
  db: DbOrTx = getDb(),
  rendered?: RenderedEmail,
) {
  const changed = await db
    .update(emails)
    .set({
      ...(retryAt
        ? { status: "pending" as const, sendingSince: null, lastError: error, nextAttemptAt: retryAt.toISOString() }
        : { status: "failed" as const, sendingSince: null, lastError: error }),
      ...(rendered ? renderedColumns(rendered) : {}),
    })
    .where(and(eq(emails.id, id), eq(emails.status, "sending")))
    .returning({ id: emails.id });
  return changed.length === 1;
}

/**
 * An email no longer to be sent, found so when its attempt began: canceled, with why in
 * `last_error` (shown in /admin/emails). True when it was still being sent.
 */
export async function markEmailCanceled(id: number, reason: string, db: DbOrTx = getDb()) {
  const changed = await db
    .update(emails)
    .set({ status: "canceled", sendingSince: null, lastError: reason })
    .where(and(eq(emails.id, id), eq(emails.status, "sending")))
    .returning({ id: emails.id });
  return changed.length === 1;
}

/**
 * Emails left in `sending` by a process that stopped mid-attempt (killed, crashed, or whose
 * lease expired): back to pending now. The SMTP server may have accepted one before the
 * process died, so that email may be sent once more; never more than that, since the next
 * attempt ends in sent or in pending again. Returns how many were taken back.
 */
export async function recoverInterruptedEmails(now = new Date()): Promise<number> {
  const recovered = await getDb()
    .update(emails)
    .set({ status: "pending", sendingSince: null, nextAttemptAt: now.toISOString() })
    .where(eq(emails.status, "sending"))
    .returning({ id: emails.id });
  return recovered.length;
}

/** When the next email is due (to sleep until then), or null when none is pending. */
export async function nextDueAt(): Promise<Date | null> {
  const [row] = await senderQueries(getDb()).nextDue.execute();
  return row?.at ? new Date(row.at) : null;
}
