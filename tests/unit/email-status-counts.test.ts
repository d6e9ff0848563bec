import { asResponses } from "../helpers/route-response";
import { eq, inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { dialect, emails, emailStatusCounts, users } from "~/db/schema";
import { EMAIL_STATUSES, type EmailStatus } from "~/lib/email-kinds";
import { loader as apiLoaderRoute } from "~/routes/api.admin.emails";
import { loader as pageLoaderRoute } from "~/routes/admin.emails._index";
import { findOrCreateCustomer } from "~/services/customers/accounts.server";
import { eraseCustomerData } from "~/services/customers/erase.server";
import { countEmailsByStatus, countFailedEmails, listEmails, resendEmail } from "~/services/email/mailbox.server";
import {
  claimNextDueEmail,
  markEmailAttemptFailed,
  markEmailCanceled,
  markEmailSent,
  queueEmail,
  recoverInterruptedEmails,
} from "~/services/email/outbox.server";
import { purgeExpiredEmailContent } from "~/services/email/retention.server";
import { getRequest, routeArgs } from "../helpers/requests";
import { adminCookie } from "./admin-helpers";

/**
 * The mailbox's counts per status are kept by the database (email_status_counts, triggers on
 * emails) rather than counted over every email at each request. Whatever happens to the emails
 * (queued, taken, sent, failed, canceled, resent, taken back after a crash, their content purged,
 * their customer erased, deleted), the counts the admin sees are those of a GROUP BY over the
 * emails themselves.
 */

const apiLoader = asResponses(apiLoaderRoute);
const pageLoader = asResponses(pageLoaderRoute);

let key = 0;

/** The counts computed from the emails themselves, as the mailbox did before. */
async function recount(): Promise<Record<EmailStatus, number>> {
  const counts = Object.fromEntries(EMAIL_STATUSES.map((s) => [s, 0])) as Record<EmailStatus, number>;
  const rows = await getDb()
    .select({ status: emails.status, n: sql<number>`count(*)`.mapWith(Number) })
    .from(emails)
    .groupBy(emails.status);
  for (const row of rows) counts[row.status] = row.n;
  return counts;
}

/** What the administrator reads: the API's counts, the mailbox page's tabs and total, the menu's badge. */
async function expectCountsRight() {
  const expected = await recount();
  expect(await countEmailsByStatus()).toEqual(expected);
  const cookie = await adminCookie();
  const api = await apiLoader(routeArgs(getRequest("/api/admin/emails?limit=1", { Cookie: cookie })));
  expect(api.status).toBe(200);
  expect(((await api.json()) as { counts: unknown }).counts).toEqual(expected);
  const page = await pageLoader(routeArgs(getRequest("/admin/emails", { Cookie: cookie })));
  const body = (await page.json()) as { counts: unknown; total: number };
  expect(body.counts).toEqual(expected);
  expect(body.total).toBe(EMAIL_STATUSES.reduce((sum, s) => sum + expected[s], 0));
  expect((await listEmails({ status: "failed" })).total).toBe(expected.failed);
  expect(await countFailedEmails()).toBe(expected.failed);
  return expected;
}

async function queue(to: string, count = 1) {
  for (let i = 0; i < count; i++) {
    expect(await queueEmail(getDb(), { kind: "contact_ack", once: `test:${++key}`, to, payload: {} })).toBe(true);
  }
}

/** Takes the next due email (as the sender does) and gives its id. */
async function take() {
  const email = await claimNextDueEmail(new Date(Date.now() + 60_000));
  expect(email?.status).toBe("sending");
  return email!.id;
}

describe("email counts per status, kept by the database", () => {
  it("stay equal to a recount through the outbox's whole life, the purge of old content and deletes", async () => {
    const start = await expectCountsRight();

    await queue("compte1@example.fr", 6);
    expect((await expectCountsRight()).pending).toBe(start.pending + 6);

    // A replayed event queues nothing, and counts nothing.
    expect(await queueEmail(getDb(), { kind: "contact_ack", once: `test:${key}`, to: "x@example.fr", payload: {} })).toBe(false);
    await expectCountsRight();

    const sent = await take();
    await expectCountsRight();
    await markEmailSent(sent, { transport: "demo", messageId: null });
    const failed = await take();
    expect(await markEmailAttemptFailed(failed, "Connexion refusée", null)).toBe(true);
    const retried = await take();
    expect(await markEmailAttemptFailed(retried, "Délai dépassé", new Date())).toBe(true);
    const canceled = await take();
    expect(await markEmailCanceled(canceled, "Commande effacée")).toBe(true);
    let counts = await expectCountsRight();
    expect(counts.sent).toBe(start.sent + 1);
    expect(counts.failed).toBe(start.failed + 1);
    expect(counts.canceled).toBe(start.canceled + 1);

    // A status written again to the same value changes nothing; a failed email resent is pending again.
    await getDb().update(emails).set({ status: "sent" }).where(eq(emails.id, sent));
    expect(await resendEmail(failed)).toBe(true);
    await take();
    expect(await recoverInterruptedEmails()).toBeGreaterThanOrEqual(1);
    counts = await expectCountsRight();
    expect(counts.failed).toBe(start.failed);
    expect(counts.sending).toBe(0);

    // The purge of old content keeps the record of the email, and its status.
    await getDb()
      .update(emails)
      .set({ sentAt: "2020-01-01T00:00:00.000Z", html: "<p>Ancien</p>", text: "Ancien" })
      .where(eq(emails.id, sent));
    expect(await purgeExpiredEmailContent()).toBeGreaterThanOrEqual(1);
    await expectCountsRight();

    // Rows deleted (several at once) are counted out.
    await queue("a-supprimer@example.fr", 3);
    const doomed = await getDb().select({ id: emails.id }).from(emails).where(eq(emails.toAddress, "a-supprimer@example.fr"));
    await getDb()
      .delete(emails)
      .where(
        inArray(
          emails.id,
          doomed.map((row) => row.id),
        ),
      );
    await getDb().delete(emails).where(eq(emails.id, canceled));
    counts = await expectCountsRight();
    expect(counts.canceled).toBe(start.canceled);
  });

  it("stay right when a customer is erased: an email not sent yet becomes failed", async () => {
    const address = `effacement${++key}@example.fr`;
    const customer = await findOrCreateCustomer(getDb(), {
      email: address,
      firstName: "Claire",
      lastName: "Effacée",
      address: "1 rue du Test",
      postalCode: "75001",
      city: "Paris",
      country: "France",
    });
    await queue(address, 2);
    const before = await expectCountsRight();
    const [admin] = await getDb().select().from(users).where(eq(users.username, "admin")).limit(1);
    await eraseCustomerData(customer.id, { id: admin!.id, username: admin!.username });
    const after = await expectCountsRight();
    expect(after.pending).toBe(before.pending - 2);
    expect(after.failed).toBe(before.failed + 2);
  });

  it("stay right when many transactions queue and send emails side by side", async () => {
    const start = await recount();
    await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        getDb().transaction(async (tx) => {
          await queueEmail(tx, { kind: "contact_ack", once: `parallel:${i}`, to: `p${i}@example.fr`, payload: {} });
          await queueEmail(tx, { kind: "shop_new_contact", once: `parallel:${i}`, to: "boutique@example.fr", payload: {} });
        }),
      ),
    );
    const ids = (await getDb().select({ id: emails.id }).from(emails).where(eq(emails.status, "pending"))).map((r) => r.id);
    await Promise.all(
      ids
        .slice(0, 10)
        .map((id) => getDb().update(emails).set({ status: "sent", sentAt: new Date().toISOString() }).where(eq(emails.id, id))),
    );
    const counts = await expectCountsRight();
    expect(counts.pending + counts.sent).toBe(start.pending + start.sent + 48);
    if (dialect === "postgresql") {
      // Transactions on different connections added to different rows: they did not queue behind one row.
      const slots = await getDb().selectDistinct({ slot: emailStatusCounts.slot }).from(emailStatusCounts);
      expect(slots.length).toBeGreaterThan(1);
    }
  });
});
