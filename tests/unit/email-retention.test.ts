import { toResponse } from "../helpers/route-response";
import { eq, sql } from "drizzle-orm";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { StaticRouter } from "react-router-dom/server";
import { describe, expect, it, vi } from "vitest";
import { getDb } from "~/db/client.server";
import { dialect, emails, leases } from "~/db/schema";
import * as settingsApi from "~/routes/api.settings";
import * as emailApi from "~/routes/api.admin.emails.$id";
import { settingsSchema } from "~/schemas/settings";
import { getEmail, getEmailAttachment } from "~/services/email/mailbox.server";
import { purgeExpiredEmailContent } from "~/services/email/retention.server";
import { getSettings, updateSettings } from "~/services/settings.server";
import { createSubscriptionScheduler, refreshStatisticsIfDue } from "~/services/subscriptions/scheduler.server";
import { getRequest, jsonRequest, routeArgs } from "../helpers/requests";
import { adminCookie, insertOrder } from "./admin-helpers";

/**
 * Sent emails keep their record for ever and their content for the days the settings say;
 * the scheduler deletes the content past that, and the back office says so.
 */

// The email's page reads its loader's data; here the test hands it the loader's real answer.
const loaderData: { current: unknown } = { current: null };
vi.mock("@remix-run/react", async (original) => ({
  ...(await original<Record<string, unknown>>()),
  useLoaderData: () => loaderData.current,
}));

type Handler = (args: ReturnType<typeof routeArgs>) => Promise<Response> | Response;

const DAY_MS = 86_400_000;
const NOW = new Date("2026-11-27T12:00:00.000Z");
const daysAgo = (days: number) => new Date(NOW.getTime() - days * DAY_MS).toISOString();

let nextKey = 0;

/** A sent confirmation, as the sender leaves it: content, and the terms of sale as a reference. */
async function sentEmail(sentAt: string | null, overrides: Partial<typeof emails.$inferInsert> = {}) {
  const key = ++nextKey;
  const [row] = await getDb()
    .insert(emails)
    .values({
      kind: "order_confirmation",
      dedupeKey: `retention:${key}:${Math.random()}`,
      toAddress: `client${key}@exemple.fr`,
      status: sentAt ? "sent" : "pending",
      attempts: sentAt ? 1 : 0,
      subject: `Confirmation de votre commande n°${key}`,
      html: `<p>Bonjour ${key}</p>`,
      text: `Bonjour ${key}`,
      attachmentRefs: [{ kind: "terms_of_sale", version: "2026-11-25" }],
      sentAt,
      transport: sentAt ? "demo" : null,
      createdAt: sentAt ?? NOW.toISOString(),
      ...overrides,
    })
    .returning();
  return row!;
}

const rowOf = async (id: number) => (await getDb().select().from(emails).where(eq(emails.id, id)).limit(1))[0]!;

async function setRetention(days: number) {
  await updateSettings(settingsSchema.parse({ ...(await getSettings()), emailContentRetentionDays: days }));
}

describe("the retention setting", () => {
  it("is 90 days by default, 7 to 3650, refused in French otherwise, and read and changed by the API", async () => {
    expect((await getSettings()).emailContentRetentionDays).toBe(90);
    const message = "La conservation du contenu des emails envoyés est un nombre entier de jours, entre 7 et 3650.";
    const cookie = await adminCookie();
    for (const value of [6, 3651, 12.5, "beaucoup", null]) {
      const response = await (settingsApi.action as Handler)(
        routeArgs(jsonRequest("/api/settings", "PATCH", { emailContentRetentionDays: value }, { Cookie: cookie })),
      );
      expect(response.status, String(value)).toBe(422);
      expect((await response.json()).issues).toContainEqual({ path: "emailContentRetentionDays", message });
    }
    const changed = await (settingsApi.action as Handler)(
      routeArgs(jsonRequest("/api/settings", "PATCH", { emailContentRetentionDays: 30 }, { Cookie: cookie })),
    );
    expect(changed.status).toBe(200);
    expect((await changed.json()).emailContentRetentionDays).toBe(30);
    const read = await (await (settingsApi.loader as Handler)(routeArgs(getRequest("/api/settings")))).json();
    expect(read.emailContentRetentionDays).toBe(30);
    // The form's empty field means the default.
    expect(
      settingsSchema.parse({ ...(await getSettings()), emailContentRetentionDays: undefined }).emailContentRetentionDays,
    ).toBe(90);
    await setRetention(90);
  });
});

type PgExecutor = { execute(query: ReturnType<typeof sql>): Promise<{ rows: Record<string, unknown>[] }> };

describe("the planner's statistics", () => {
  /** Whether the emails table has statistics: dated by ANALYZE on PostgreSQL, rows of sqlite_stat1 on SQLite. */
  async function emailsAnalysed(): Promise<boolean> {
    if (dialect === "postgresql") {
      const { rows } = await (getDb() as unknown as PgExecutor).execute(
        sql`select last_analyze is not null as analysed from pg_stat_user_tables where relname = 'emails'`,
      );
      return rows[0]?.analysed === true;
    }
    const sqlite = globalThis.__shopDb!.sqlite!;
    if (!sqlite.prepare("select 1 from sqlite_master where name = 'sqlite_stat1'").get()) return false;
    return sqlite.prepare("select 1 from sqlite_stat1 where tbl = 'emails'").get() !== undefined;
  }

  it("are refreshed by the scheduler once a day, by one server", async () => {
    // The table was empty when the database opened: no statistics yet.
    for (let i = 0; i < 5; i++) await sentEmail(daysAgo(i));
    expect(await emailsAnalysed()).toBe(false);
    await getDb().delete(leases).where(eq(leases.name, "database-statistics"));
    const day = new Date("2026-12-01T03:00:00.000Z");
    expect(await refreshStatisticsIfDue(day)).toBe(true);
    await expect.poll(emailsAnalysed, { timeout: 5_000 }).toBe(true);
    // The same day, on this server or another: not again.
    expect(await refreshStatisticsIfDue(new Date(day.getTime() + 3_600_000))).toBe(false);
    expect(await refreshStatisticsIfDue(new Date(day.getTime() + 23 * 3_600_000))).toBe(false);
    // A day later: again.
    expect(await refreshStatisticsIfDue(new Date(day.getTime() + 24 * 3_600_000 + 1))).toBe(true);
  });
});

describe("the content kept", () => {
  it("is stored gzipped, read back as sent, and an email stored before that reads as it was", async () => {
    const html = `<html><body>${"<p>Merci pour votre commande, à très bientôt.</p>".repeat(200)}</body></html>`;
    const email = await sentEmail(daysAgo(1), { html, text: "Merci pour votre commande.\n".repeat(100) });
    expect((await getEmail(email.id))?.html).toBe(html);
    const pg = getDb() as unknown as PgExecutor;
    const sqlite = globalThis.__shopDb!.sqlite;
    const row = (
      dialect === "postgresql"
        ? (
            await pg.execute(
              sql`select encode(substring(html from 1 for 2), 'hex') as head, length(html) as size from emails where id = ${email.id}`,
            )
          ).rows[0]
        : sqlite!
            .prepare("select lower(hex(substr(html, 1, 2))) as head, length(cast(html as blob)) as size from emails where id = ?")
            .get(email.id)
    ) as { head: string; size: number };
    // gzip's magic bytes, and far fewer bytes than the text.
    expect(row.head).toBe("1f8b");
    expect(Number(row.size)).toBeLessThan(html.length / 10);

    // A row written as plain text before compression (SQLite: TEXT; PostgreSQL: its UTF-8 bytes after the migration).
    const legacy = await sentEmail(daysAgo(1), { html: null, text: null });
    if (dialect === "postgresql")
      await pg.execute(sql`update emails set html = convert_to(${"<p>Écrit avant</p>"}, 'UTF8') where id = ${legacy.id}`);
    else sqlite!.prepare("update emails set html = ? where id = ?").run("<p>Écrit avant</p>", legacy.id);
    expect((await getEmail(legacy.id))?.html).toBe("<p>Écrit avant</p>");
  });
});

describe("the purge of old emails' content", () => {
  it("empties the content of the emails sent before the retention, keeps their record, and does it once", async () => {
    await setRetention(30);
    const orderId = await insertOrder();
    const old = [
      await sentEmail(daysAgo(400), { orderId }),
      await sentEmail(daysAgo(100)),
      await sentEmail(daysAgo(31), {
        // An email from before references: its stored file goes with the content.
        attachmentRefs: null,
        attachments: [{ filename: "ancien.html", contentType: "text/html; charset=utf-8", content: "<p>ancien</p>" }],
      }),
    ];
    const kept = [await sentEmail(daysAgo(29)), await sentEmail(daysAgo(1)), await sentEmail(null)];

    // Batches of 2: three emails take two batches.
    expect(await purgeExpiredEmailContent(NOW, { batchSize: 2 })).toBe(3);
    for (const email of old) {
      const row = await rowOf(email.id);
      expect(row).toMatchObject({
        html: null,
        text: null,
        attachments: null,
        contentPurgedAfterDays: 30,
        // The record stays: what, to whom, when, its subject and order.
        kind: email.kind,
        toAddress: email.toAddress,
        subject: email.subject,
        sentAt: email.sentAt,
        orderId: email.orderId,
        status: "sent",
      });
    }
    for (const email of kept) {
      expect(await rowOf(email.id)).toMatchObject({ html: email.html, text: email.text, contentPurgedAfterDays: null });
    }
    // Run again (another server, the next tick): nothing more.
    expect(await purgeExpiredEmailContent(NOW, { batchSize: 2 })).toBe(0);

    // The terms of sale are a reference: still there, rebuilt on demand.
    const terms = await getEmailAttachment(old[0].id, 0);
    expect(terms?.filename).toMatch(/^CGV-.*-2026-11-25\.html$/);
    expect(terms?.content.toString("utf8")).toContain("Conditions générales de vente");
    expect(await getEmailAttachment(old[2].id, 0)).toBeUndefined();

    // What the back office and the API say of a purged email.
    const cookie = await adminCookie();
    const api = await (emailApi.loader as Handler)(
      routeArgs(getRequest(`/api/admin/emails/${old[0].id}`, { Cookie: cookie }), { id: String(old[0].id) }),
    );
    expect(await api.json()).toMatchObject({ id: old[0].id, html: null, text: null, contentPurgedAfterDays: 30, rendered: true });
    const { default: Page, loader } = await import("~/routes/admin.emails.$id");
    loaderData.current = await toResponse(
      await loader(routeArgs(getRequest(`/admin/emails/${old[0].id}`, { Cookie: cookie }), { id: String(old[0].id) })),
    ).json();
    const html = renderToStaticMarkup(
      createElement(StaticRouter, { location: `/admin/emails/${old[0].id}` }, createElement(Page)),
    );
    expect(html).toContain("Contenu supprimé après 30 jours (conservation)");
    expect(html).toContain(old[0].subject!);
    expect(html).not.toContain("<iframe");
    await setRetention(90);
  });

  it("two servers purging at once empty each email once and count it once", async () => {
    await setRetention(30);
    const old = await Promise.all(Array.from({ length: 7 }, (_, i) => sentEmail(daysAgo(40 + i))));
    const [a, b] = await Promise.all([
      purgeExpiredEmailContent(NOW, { batchSize: 2 }),
      purgeExpiredEmailContent(NOW, { batchSize: 2 }),
    ]);
    expect(a + b).toBe(old.length);
    for (const email of old) expect((await rowOf(email.id)).contentPurgedAfterDays).toBe(30);
    await setRetention(90);
  });

  it("the scheduler's tick purges what is due, and a longer retention keeps more", async () => {
    await setRetention(120);
    const email = await sentEmail(daysAgo(100));
    const scheduler = createSubscriptionScheduler({ holder: "retention-test", backupEveryHours: 0 });
    try {
      await scheduler.tick(NOW);
      expect((await getEmail(email.id))?.html).toBe(email.html);
      await setRetention(90);
      await scheduler.tick(NOW);
      expect(await getEmail(email.id)).toMatchObject({ html: null, text: null, contentPurgedAfterDays: 90 });
    } finally {
      await scheduler.stop();
    }
  });
});
