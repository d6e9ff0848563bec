import { mkdirSync, writeFileSync } from "node:fs";
import { asResponses } from "../helpers/route-response";
import { and, eq } from "drizzle-orm";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { getDb } from "~/db/client.server";
import { emails, ownerNotices, refunds, type Email } from "~/db/schema";
import { DEFAULT_NOTIFICATION_SETTINGS } from "~/lib/owner-notifications";
import { action as settingsActionRoute, loader as settingsLoaderRoute } from "~/routes/admin.settings";
import { action as apiAction, loader as apiLoader } from "~/routes/api.settings.notifications";
import { createContactRequest } from "~/services/contacts.server";
import {
  getNotificationSettings,
  notifyOwnerOfWithdrawal,
  queueOwnerDailySummary,
  updateNotificationSettings,
} from "~/services/email/owner-notifications.server";
import { renderEmail } from "~/services/email/render.server";
import { createEmailSender } from "~/services/email/sender.server";
import { smtpTransport } from "~/services/email/transport.server";
import { reconcileStripeRefundIn } from "~/services/payments/refunds.server";
import { requestWithdrawal, resetWithdrawalRateLimit } from "~/services/withdrawals.server";
import { freePort } from "../helpers/smtp-inbox";
import { formRequest, getRequest, jsonRequest, routeArgs } from "../helpers/requests";
import { adminCookie, insertOrder } from "./admin-helpers";

/**
 * The owner is told what needs them: an email to the settings' address for each event, in the
 * event's transaction and once, unless switched off; or one daily summary.
 */

const PUBLIC_URL = vi.hoisted(() => {
  const url = "https://boutique.maison-eclat.test";
  process.env.PUBLIC_URL = url;
  return url;
});

const SHOP = "contact@maison-eclat.fr"; // the seed's site email
const EMAIL = "camille@example.fr"; // insertOrder's checkout email

const settingsAction = asResponses(settingsActionRoute);
const settingsLoader = asResponses(settingsLoaderRoute);

beforeEach(async () => {
  await resetWithdrawalRateLimit();
  await updateNotificationSettings(DEFAULT_NOTIFICATION_SETTINGS);
});

/** Keeps a rendered email in tests/.tmp (ignored), to be looked at in a browser. */
function keep(name: string, html: string) {
  mkdirSync("tests/.tmp/owner-emails", { recursive: true });
  writeFileSync(`tests/.tmp/owner-emails/${name}.html`, html);
}

async function toShop(kind: Email["kind"]): Promise<Email[]> {
  return await getDb()
    .select()
    .from(emails)
    .where(and(eq(emails.kind, kind), eq(emails.toAddress, SHOP)))
    .orderBy(emails.id);
}

describe("the owner's emails", () => {
  it("a withdrawal emails the shop once, with its refund deadline, what to do and the order's admin page", async () => {
    const orderId = await insertOrder({ paymentStatus: "paid" });
    const now = new Date("2026-11-25T18:42:00.000Z");
    expect((await requestWithdrawal({ orderId, email: EMAIL, reason: "Trop grand pour moi" }, { now })).outcome).toBe("recorded");
    expect((await requestWithdrawal({ orderId, email: EMAIL }, { now })).outcome).toBe("already_recorded");

    const sent = (await toShop("owner_withdrawal")).filter((e) => e.orderId === orderId);
    expect(sent).toHaveLength(1);
    const rendered = await renderEmail(sent[0]);
    keep("withdrawal", rendered.html);
    expect(rendered.subject).toBe(`Rétractation à rembourser avant le 9 décembre 2026 : commande n°${orderId}`);
    expect(rendered.text).toContain("À rembourser au plus tard le 9 décembre 2026");
    expect(rendered.text).toContain("Camille Martin a demandé à se rétracter");
    expect(rendered.text).toContain("Motif : Trop grand pour moi");
    expect(rendered.text).toContain("À faire : remboursez la commande depuis sa fiche");
    expect(rendered.text).toContain(`${PUBLIC_URL}/admin/orders/${orderId}`);
    expect(rendered.html).toContain(`href="${PUBLIC_URL}/admin/orders/${orderId}"`);
    // The signature carries the company's legal form, capital and registration.
    expect(rendered.text).toContain("Maison Éclat SAS au capital de 10 000 € – RCS Paris 921 458 303");
    expect(rendered.html).toContain("RCS Paris 921 458 303");
  });

  it("switched off on /admin/settings (no JavaScript needed), the shop is not told; the customer still gets the acknowledgement", async () => {
    const cookie = await adminCookie();
    const page = await settingsLoader(routeArgs(getRequest("/admin/settings", { Cookie: cookie })));
    expect(((await page.json()) as { notifications: unknown }).notifications).toEqual(DEFAULT_NOTIFICATION_SETTINGS);

    // Every box ticked but « Demande de rétractation ».
    const saved = await settingsAction(
      routeArgs(
        formRequest(
          "/admin/settings",
          {
            intent: "notifications",
            notifyRenewalProblem: "on",
            notifyStripeRefund: "on",
            notifyContact: "on",
            notifyEmailFailed: "on",
          },
          { headers: { Cookie: cookie } },
        ),
      ),
    );
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toBe("/admin/settings#notifications");
    expect(await getNotificationSettings()).toEqual({ ...DEFAULT_NOTIFICATION_SETTINGS, notifyWithdrawal: false });

    const orderId = await insertOrder({ paymentStatus: "paid" });
    expect((await requestWithdrawal({ orderId, email: EMAIL })).outcome).toBe("recorded");
    expect((await toShop("owner_withdrawal")).filter((e) => e.orderId === orderId)).toHaveLength(0);
    const acks = await getDb()
      .select()
      .from(emails)
      .where(and(eq(emails.orderId, orderId), eq(emails.kind, "withdrawal_ack")));
    expect(acks).toHaveLength(1);
  });

  it("the API reads and switches them (admin only), and answers a wrong value in French", async () => {
    const cookie = await adminCookie();
    const anonymous = await apiLoader(routeArgs(getRequest("/api/settings/notifications")));
    expect(anonymous.status).toBe(401);
    const read = await apiLoader(routeArgs(getRequest("/api/settings/notifications", { Cookie: cookie })));
    expect(await read.json()).toEqual(DEFAULT_NOTIFICATION_SETTINGS);

    const wrong = await apiAction(
      routeArgs(jsonRequest("/api/settings/notifications", "PATCH", { notifyContact: "oui" }, { Cookie: cookie })),
    );
    expect(wrong.status).toBe(422);
    expect(JSON.stringify(await wrong.json())).toContain("Chaque notification vaut true (envoyée) ou false (coupée).");
    const unknown = await apiAction(
      routeArgs(jsonRequest("/api/settings/notifications", "PATCH", { notifyEverything: true }, { Cookie: cookie })),
    );
    expect(unknown.status).toBe(422);

    const changed = await apiAction(
      routeArgs(
        jsonRequest(
          "/api/settings/notifications",
          "PATCH",
          { notifyContact: false, notifyDailySummary: true },
          { Cookie: cookie },
        ),
      ),
    );
    expect(changed.status).toBe(200);
    expect(await changed.json()).toEqual({ ...DEFAULT_NOTIFICATION_SETTINGS, notifyContact: false, notifyDailySummary: true });
  });

  it("with the daily summary: events wait for 8:00 (Paris), go out in one email, each once, and no empty summary is sent", async () => {
    await updateNotificationSettings({ notifyDailySummary: true });
    const orderId = await insertOrder({ paymentStatus: "paid" });
    expect((await requestWithdrawal({ orderId, email: EMAIL }, { now: new Date("2026-11-26T14:00:00.000Z") })).outcome).toBe(
      "recorded",
    );
    const contact = await createContactRequest({
      name: "Léa Petit",
      email: "lea@example.fr",
      subject: "Livraison",
      message: "Bonjour, quand arrive ma commande ?",
    });
    // Nothing sent one by one: both kept for the summary, as of yesterday afternoon.
    expect((await toShop("owner_withdrawal")).filter((e) => e.orderId === orderId)).toHaveLength(0);
    expect((await toShop("shop_new_contact")).filter((e) => e.contactRequestId === contact.id)).toHaveLength(0);
    const kept = await getDb().select().from(ownerNotices);
    expect(kept.map((n) => n.kind).sort()).toEqual(["owner_withdrawal", "shop_new_contact"]);
    await getDb().update(ownerNotices).set({ createdAt: "2026-11-26T15:00:00.000Z" });

    // 07:30 in Paris: not yet. 08:00: one summary.
    expect(await queueOwnerDailySummary(new Date("2026-11-27T06:30:00.000Z"))).toBe(false);
    expect(await toShop("owner_daily_summary")).toHaveLength(0);
    expect(await queueOwnerDailySummary(new Date("2026-11-27T07:00:00.000Z"))).toBe(true);
    const summaries = await toShop("owner_daily_summary");
    expect(summaries).toHaveLength(1);
    const rendered = await renderEmail(summaries[0]);
    keep("daily-summary", rendered.html);
    expect(rendered.subject).toBe("Résumé du 27 novembre 2026 : 2 événements à traiter");
    expect(rendered.text).toContain(`Demande de rétractation : commande n°${orderId}`);
    expect(rendered.text).toContain("À rembourser au plus tard le 10 décembre 2026");
    expect(rendered.text).toContain("Nouvelle demande de contact");
    expect(rendered.text).toContain(`${PUBLIC_URL}/admin/contacts`);

    // A second tick, the next morning with nothing new: no second summary, no empty one.
    expect(await queueOwnerDailySummary(new Date("2026-11-27T07:01:00.000Z"))).toBe(false);
    expect(await queueOwnerDailySummary(new Date("2026-11-28T07:00:00.000Z"))).toBe(false);
    expect(await toShop("owner_daily_summary")).toHaveLength(1);

    // Told in the summary, an event replayed is not told again, even with the summary switched off.
    await updateNotificationSettings({ notifyDailySummary: false });
    await getDb().transaction(async (tx) => {
      expect(await notifyOwnerOfWithdrawal(tx, orderId, { requestedAt: "2026-11-26T14:00:00.000Z", reason: null })).toBe(false);
    });
    expect((await toShop("owner_withdrawal")).filter((e) => e.orderId === orderId)).toHaveLength(0);
  });

  it("an email refused at every attempt tells the shop once; a failed email to the shop itself tells no one", async () => {
    await getDb().delete(emails);
    const contact = await createContactRequest({
      name: "Léa Petit",
      email: "lea@example.fr",
      subject: "Livraison",
      message: "Bonjour, quand arrive ma commande ?",
    });
    const down = createEmailSender({
      render: renderEmail,
      transport: smtpTransport(`smtp://127.0.0.1:${await freePort()}`),
      retryDelayMs: () => 0,
      maxAttempts: 2,
      holder: "test-down",
      pollMs: 60_000,
    });
    try {
      await down.runOnce();
      await down.runOnce();
    } finally {
      await down.stop();
    }
    const all = await getDb().select().from(emails).orderBy(emails.id);
    // The acknowledgement and the shop's notice failed; the shop is told of the first only, and that email failed too.
    expect(all.map((e) => [e.kind, e.status])).toEqual([
      ["contact_ack", "failed"],
      ["shop_new_contact", "failed"],
      ["owner_email_failed", "failed"],
    ]);
    const ack = all[0];
    const rendered = await renderEmail(all[2]);
    keep("email-failed", rendered.html);
    expect(rendered.subject).toBe("Email non remis : « Accusé de réception » à lea@example.fr");
    expect(rendered.text).toContain("a été refusé à chacune de ses 2 tentatives");
    expect(rendered.text).toContain("ECONNREFUSED");
    expect(rendered.text).toContain(`${PUBLIC_URL}/admin/emails/${ack.id}`);
    expect(all[2].contactRequestId).toBeNull();
    expect(contact.id).toBe(ack.contactRequestId);
  });

  it("a refund made at Stripe's dashboard tells the shop, once; a refund from the back office does not", async () => {
    const orderId = await insertOrder({ paymentStatus: "paid", stripePaymentIntentId: "pi_owner_dashboard" });
    const dashboard = {
      id: "re_owner_dashboard",
      amount: 1000,
      status: "succeeded" as const,
      metadata: {},
      payment_intent: "pi_owner_dashboard",
    };
    for (let i = 0; i < 2; i++) await getDb().transaction(async (tx) => void (await reconcileStripeRefundIn(tx, dashboard)));
    const told = (await toShop("owner_stripe_refund")).filter((e) => e.orderId === orderId);
    expect(told).toHaveLength(1);
    const rendered = await renderEmail(told[0]);
    keep("stripe-refund", rendered.html);
    expect(rendered.subject).toBe(`Remboursement fait depuis Stripe : 10,00€ sur la commande n°${orderId}`);
    expect(rendered.text).toContain("Reste payé : 15,90€");
    expect(rendered.text).toContain(`${PUBLIC_URL}/admin/orders/${orderId}`);

    // The back office's own refund, confirmed by Stripe's webhook.
    const [own] = await getDb()
      .insert(refunds)
      .values({
        orderId,
        amountCents: 500,
        reason: "Geste commercial",
        status: "pending",
        actorName: "admin",
        idempotencyKey: "owner-own-1",
      })
      .returning();
    await getDb().transaction(
      async (tx) =>
        void (await reconcileStripeRefundIn(tx, {
          ...dashboard,
          id: "re_owner_own",
          amount: 500,
          metadata: { refundId: String(own.id), orderId: String(orderId) },
        })),
    );
    expect((await getDb().select().from(refunds).where(eq(refunds.id, own.id)))[0].status).toBe("succeeded");
    expect((await toShop("owner_stripe_refund")).filter((e) => e.orderId === orderId)).toHaveLength(1);
  });
});
