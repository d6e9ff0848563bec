import { EMAIL_NOT_FOUND } from "~/lib/not-found";
import { and, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { attachmentsOf } from "./attachments.server";
import { wakeEmailSender } from "./sender.server";
import { emailStatusCounts, emails, type Email, type EmailAttachment } from "~/db/schema";
import { EMAIL_STATUSES, type EmailStatus } from "~/lib/email-kinds";
import { ShopError } from "~/lib/shop-error";
import type { EmailFilters } from "~/schemas/admin-email";
import type { PageQuery } from "~/schemas/page";
import { decodeCursor, pageOf } from "~/services/pagination/cursor.server";

/**
 * The back office's view of the email outbox: what was queued, what left and how, the content
 * as it was sent (in demo mode, this is the shop's mailbox), and the administrator's one change:
 * putting a failed email back in the queue. Queueing and sending belong to outbox.server.ts and
 * sender.server.ts.
 */

const EMAILS_PAGE_SIZE = 20;

/** Only a failed email goes back to the queue: a pending or sending one is already there, a sent one left. */
const RESENDABLE: EmailStatus[] = ["failed"];

const SUMMARY_COLUMNS = {
  id: emails.id,
  kind: emails.kind,
  status: emails.status,
  toAddress: emails.toAddress,
  orderId: emails.orderId,
  contactRequestId: emails.contactRequestId,
  subject: emails.subject,
  attempts: emails.attempts,
  lastError: emails.lastError,
  nextAttemptAt: emails.nextAttemptAt,
  sentAt: emails.sentAt,
  createdAt: emails.createdAt,
  updatedAt: emails.updatedAt,
};

/** One line of the mailbox (no content). */
export type EmailSummary = Pick<
  Email,
  | "id"
  | "kind"
  | "status"
  | "toAddress"
  | "orderId"
  | "contactRequestId"
  | "subject"
  | "attempts"
  | "lastError"
  | "nextAttemptAt"
  | "sentAt"
  | "createdAt"
  | "updatedAt"
>;

/** An attachment as the mailbox lists it: its name, type, size in bytes and the admin's download address. */
export type EmailAttachmentInfo = { filename: string; contentType: string; size: number; url: string };

/** One email as it was sent: the summary, how it left, its content and its attachments (without their bytes). */
export type EmailDetail = EmailSummary &
  Pick<Email, "transport" | "messageId" | "html" | "text" | "sendingSince" | "contentPurgedAfterDays" | "headers"> & {
    /** False while the email has never been rendered (its content is made at its first attempt). */
    rendered: boolean;
    attachments: EmailAttachmentInfo[];
  };

function escapeLike(value: string) {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function whereFor(filters: EmailFilters): SQL | undefined {
  const parts: (SQL | undefined)[] = [];
  if (filters.status) parts.push(eq(emails.status, filters.status));
  if (filters.kind) parts.push(eq(emails.kind, filters.kind));
  if (filters.order !== undefined) parts.push(eq(emails.orderId, filters.order));
  const to = filters.to?.trim().toLowerCase();
  if (to) parts.push(sql`lower(${emails.toAddress}) like ${`%${escapeLike(to)}%`} escape '\\'`);
  return and(...parts);
}

/**
 * How many emails the filters keep: from the kept counts when they filter by status at most
 * (the mailbox as it opens, or one tab), else counted.
 */
async function countFiltered(filters: EmailFilters, where: SQL | undefined): Promise<number> {
  if (filters.kind === undefined && filters.to === undefined && filters.order === undefined) {
    const counts = await countEmailsByStatus();
    return filters.status ? counts[filters.status] : EMAIL_STATUSES.reduce((sum, status) => sum + counts[status], 0);
  }
  const [row] = await getDb()
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(emails)
    .where(where)
    .limit(1);
  return row?.n ?? 0;
}

/** One page of the mailbox, newest first. */
export async function listEmails(filters: EmailFilters, pageSize = EMAILS_PAGE_SIZE) {
  const db = getDb();
  const where = whereFor(filters);
  const total = await countFiltered(filters, where);
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const page = Math.min(Math.max(1, filters.page ?? 1), pageCount);
  const rows: EmailSummary[] = await db
    .select(SUMMARY_COLUMNS)
    .from(emails)
    .where(where)
    .orderBy(desc(emails.createdAt), desc(emails.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  return { emails: rows, total, page, pageCount, pageSize };
}

/**
 * A page of GET /api/admin/emails: the mailbox's filters, newest first, read by key from the
 * cursor (cursor.server.ts), so an email queued between two pages is neither repeated nor lost.
 */
export async function pageEmails(filters: EmailFilters, query: PageQuery) {
  const key = query.cursor ? decodeCursor(query.cursor, ["string", "number"]) : null;
  const rows: EmailSummary[] = await getDb()
    .select(SUMMARY_COLUMNS)
    .from(emails)
    .where(and(whereFor(filters), key ? sql`(${emails.createdAt}, ${emails.id}) < (${key[0]}, ${key[1]})` : undefined))
    .orderBy(desc(emails.createdAt), desc(emails.id))
    .limit(query.limit + 1);
  return pageOf(rows, query.limit, (row) => [row.createdAt, row.id]);
}

/**
 * How many emails are in each status (every status present, 0 when none), from the counts the
 * database keeps as emails are queued, change status or are deleted (email_status_counts): a few
 * rows, whatever the number of emails.
 */
export async function countEmailsByStatus(): Promise<Record<EmailStatus, number>> {
  const counts = Object.fromEntries(EMAIL_STATUSES.map((s) => [s, 0])) as Record<EmailStatus, number>;
  const rows = await getDb()
    .select({ status: emailStatusCounts.status, n: sql<number>`sum(${emailStatusCounts.count})`.mapWith(Number) })
    .from(emailStatusCounts)
    .groupBy(emailStatusCounts.status);
  for (const row of rows) counts[row.status] = row.n;
  return counts;
}

/** How many emails failed: the admin menu's badge, on every page, from the same kept counts. */
export async function countFailedEmails(): Promise<number> {
  const [row] = await getDb()
    .select({ n: sql<number>`coalesce(sum(${emailStatusCounts.count}), 0)`.mapWith(Number) })
    .from(emailStatusCounts)
    .where(eq(emailStatusCounts.status, "failed"));
  return row?.n ?? 0;
}

/** The emails of one order, newest first. */
export async function listOrderEmails(orderId: number): Promise<EmailSummary[]> {
  return await getDb()
    .select(SUMMARY_COLUMNS)
    .from(emails)
    .where(eq(emails.orderId, orderId))
    .orderBy(desc(emails.createdAt), desc(emails.id));
}

/** The bytes of an attachment: its text in UTF-8, or its base64 decoded when `encoding` is base64 (a PDF). */
function attachmentBytes(attachment: EmailAttachment): Buffer {
  return Buffer.from(
    typeof attachment.content === "string" ? attachment.content : "",
    attachment.encoding === "base64" ? "base64" : "utf8",
  );
}

/** The admin download of an attachment (its position in the email's list). */
function attachmentUrl(emailId: number, index: number) {
  return `/admin/emails/${emailId}/attachments/${index}`;
}

/** One email with its content as it was sent, or undefined. */
export async function getEmail(id: number): Promise<EmailDetail | undefined> {
  const [row] = await getDb().select().from(emails).where(eq(emails.id, id)).limit(1);
  if (!row) return undefined;
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    toAddress: row.toAddress,
    orderId: row.orderId,
    contactRequestId: row.contactRequestId,
    subject: row.subject,
    attempts: row.attempts,
    lastError: row.lastError,
    nextAttemptAt: row.nextAttemptAt,
    sentAt: row.sentAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    sendingSince: row.sendingSince,
    transport: row.transport,
    messageId: row.messageId,
    html: row.html,
    text: row.text,
    contentPurgedAfterDays: row.contentPurgedAfterDays,
    headers: row.headers ?? null,
    rendered: row.subject !== null || row.html !== null || row.text !== null,
    attachments: (await attachmentsOf(row)).map((a, index) => ({
      filename: a.filename,
      contentType: a.contentType,
      size: attachmentBytes(a).length,
      url: attachmentUrl(row.id, index),
    })),
  };
}

/** An attachment of an email (its position in the email's list) with its bytes, or undefined. */
export async function getEmailAttachment(
  id: number,
  index: number,
): Promise<{ filename: string; contentType: string; content: Buffer } | undefined> {
  const [row] = await getDb()
    .select({ attachments: emails.attachments, attachmentRefs: emails.attachmentRefs })
    .from(emails)
    .where(eq(emails.id, id))
    .limit(1);
  const attachment = row ? (await attachmentsOf(row))[index] : undefined;
  if (!attachment) return undefined;
  return { filename: attachment.filename, contentType: attachment.contentType, content: attachmentBytes(attachment) };
}

/**
 * Puts a failed email back in the queue: pending, no attempt yet, due now. Its content is kept
 * and sent as it is (never rendered again); its last error stays until the next attempt.
 * Returns false when there is no such email or it is not failed (pending or sending: already
 * queued; sent: it left). One conditional update, so two clicks cannot both queue it.
 */
export async function resendEmail(id: number): Promise<boolean> {
  const now = new Date().toISOString();
  const result = await getDb()
    .update(emails)
    .set({ status: "pending", attempts: 0, nextAttemptAt: now, sendingSince: null, updatedAt: now })
    .where(and(eq(emails.id, id), inArray(emails.status, RESENDABLE)))
    .returning({ id: emails.id });
  if (result.length === 0) return false;
  // The sender of this process sends it now rather than at its next round.
  wakeEmailSender();
  return true;
}

export { EMAIL_NOT_FOUND };
export const EMAIL_NOT_RESENDABLE =
  "Seul un email en échec peut être renvoyé : celui-ci est déjà en file d'envoi ou a été envoyé.";

/** resendEmail for the pages and the API: the email back in the queue, or a ShopError (404 unknown, 409 not failed). */
export async function resendEmailOrRefuse(id: number): Promise<EmailDetail> {
  if (!(await resendEmail(id))) {
    if (!(await getDb().select({ id: emails.id }).from(emails).where(eq(emails.id, id)).limit(1))[0]) {
      throw new ShopError(404, "email_not_found", EMAIL_NOT_FOUND);
    }
    throw new ShopError(409, "email_not_failed", EMAIL_NOT_RESENDABLE);
  }
  return (await getEmail(id))!;
}

/** The shape of an email in the JSON API (the list: no content). */
export function emailSummaryToApi(email: EmailSummary) {
  return {
    id: email.id,
    kind: email.kind,
    status: email.status,
    to: email.toAddress,
    subject: email.subject,
    orderId: email.orderId,
    contactRequestId: email.contactRequestId,
    attempts: email.attempts,
    lastError: email.lastError,
    nextAttemptAt: email.nextAttemptAt,
    sentAt: email.sentAt,
    createdAt: email.createdAt,
    updatedAt: email.updatedAt,
  };
}

/** The shape of one email in the JSON API: with its content and where to download its attachments. */
export function emailDetailToApi(email: EmailDetail) {
  return {
    ...emailSummaryToApi(email),
    transport: email.transport,
    messageId: email.messageId,
    rendered: email.rendered,
    contentPurgedAfterDays: email.contentPurgedAfterDays,
    html: email.html,
    text: email.text,
    headers: email.headers ?? {},
    attachments: email.attachments,
  };
}
