import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { getDb } from "~/db/client.server";
import { carts, emails, orders, promotions, reminderUnsubscribes, users } from "~/db/schema";
import { action as unsubscribeAction, loader as unsubscribeLoader } from "~/routes/rappels.desinscription";
import { loader as resumeLoader } from "~/routes/panier_.reprendre";
import { deliverySchema } from "~/schemas/delivery";
import { apiOrderSchema } from "~/schemas/order";
import { checkResumeLink, checkUnsubscribeLink, resumePath, unsubscribePath } from "~/services/orders/reminder-links.server";
import { restoreCheckout } from "~/services/cart-reminders/restore.server";
import { queueDueCartReminders } from "~/services/cart-reminders/schedule.server";
import { isUnsubscribed, reminderEmailHash, unsubscribeOrderAddress } from "~/services/customers/reminder-unsubscribes.server";
import { addToCart, readCart } from "~/services/cart.server";
import { submitDelivery } from "~/services/checkout.server";
import { eraseCustomerData } from "~/services/customers/erase.server";
import { renderEmail } from "~/services/email/render.server";
import { getEmail } from "~/services/email/mailbox.server";
import { createEmailSender } from "~/services/email/sender.server";
import { smtpTransport } from "~/services/email/transport.server";
import { markOrderPaid } from "~/services/payments/payment-state.server";
import { asResponses } from "../helpers/route-response";
import { startSmtpInbox } from "../helpers/smtp-inbox";
import { insertOrder } from "./admin-helpers";

/**
 * The reminder of an abandoned checkout: only with the buyer's consent, once, 4 hours after an
 * unpaid checkout, never after a payment or an unsubscription, whatever the processes ticking;
 * its signed link (7 days) that restores the cart at the payment step, and its one-click
 * unsubscribe (RFC 8058 headers, carried over SMTP).
 */

const PUBLIC_URL = vi.hoisted(() => {
  const url = "https://boutique.maison-eclat.test";
  process.env.PUBLIC_URL = url;
  return url;
});

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const MADE_AT = "2026-11-20T09:00:00.000Z";
const at = (plusMs: number) => new Date(new Date(MADE_AT).getTime() + plusMs);

const unsubscribeRoute = asResponses(unsubscribeAction);
const unsubscribePage = asResponses(unsubscribeLoader);
const resume = asResponses(resumeLoader);

beforeEach(async () => {
  await getDb().delete(emails);
  await getDb().delete(reminderUnsubscribes);
});

let n = 0;
/** An unpaid checkout made at MADE_AT by a buyer who ticked the box (unless told otherwise). */
async function checkout(overrides: Partial<typeof orders.$inferInsert> = {}) {
  const email = overrides.customerEmail ?? `rappel.${++n}.${randomUUID().slice(0, 6)}@example.fr`;
  return await insertOrder({
    reminderConsent: true,
    createdAt: MADE_AT,
    customerFirstName: "Camille",
    ...overrides,
    customerEmail: email,
  });
}

async function remindersOf(orderId: number) {
  return await getDb().select().from(emails).where(eq(emails.orderId, orderId));
}

describe("the scheduler's rule", () => {
  it("sends one reminder 4 hours after an unpaid consented checkout, and never a second", async () => {
    const id = await checkout();
    expect(await queueDueCartReminders(at(4 * HOUR - 60_000))).toBe(0);
    expect(await remindersOf(id)).toEqual([]);

    expect(await queueDueCartReminders(at(4 * HOUR))).toBe(1);
    const [row] = await getDb().select().from(orders).where(eq(orders.id, id));
    expect(row.reminderSentAt && new Date(row.reminderSentAt).toISOString()).toBe(at(4 * HOUR).toISOString());
    const [email] = await remindersOf(id);
    expect(email).toMatchObject({ kind: "cart_reminder", toAddress: row.customerEmail, status: "pending" });

    // The next ticks, hours later: nothing more.
    expect(await queueDueCartReminders(at(5 * HOUR))).toBe(0);
    expect(await queueDueCartReminders(at(20 * HOUR))).toBe(0);
    expect(await remindersOf(id)).toHaveLength(1);
  });

  it("sends nothing without consent, after a payment, to an unsubscribed address, or once another order is paid", async () => {
    const noConsent = await checkout({ reminderConsent: false });
    const paid = await checkout({ paymentStatus: "paid", paidAt: at(HOUR).toISOString() });
    const unsubscribed = await checkout({ customerEmail: "Parti@Example.fr" });
    // The address unsubscribed from an earlier reminder, typed in another case.
    await unsubscribeOrderAddress(await checkout({ customerEmail: "parti@example.fr", createdAt: at(-10 * DAY).toISOString() }));
    const finishedElsewhere = await checkout({ customerEmail: "ailleurs@example.fr" });
    await checkout({ customerEmail: "ailleurs@example.fr", createdAt: at(HOUR).toISOString(), paymentStatus: "paid" });
    const failed = await checkout({ paymentStatus: "failed" });

    expect(await queueDueCartReminders(at(5 * HOUR))).toBe(1);
    for (const id of [noConsent, paid, unsubscribed, finishedElsewhere]) expect(await remindersOf(id)).toEqual([]);
    // A payment that failed is still a checkout left unpaid.
    expect(await remindersOf(failed)).toHaveLength(1);
  });

  it("does not remind a checkout found more than 48 hours late (the shop was stopped)", async () => {
    const id = await checkout();
    expect(await queueDueCartReminders(at(49 * HOUR))).toBe(0);
    expect(await remindersOf(id)).toEqual([]);
  });

  it("two runs at once (two processes) queue one reminder", async () => {
    const id = await checkout();
    const results = await Promise.all([
      queueDueCartReminders(at(4 * HOUR)),
      queueDueCartReminders(at(4 * HOUR + 1000)),
      queueDueCartReminders(at(4 * HOUR + 2000)),
    ]);
    // Each reminder queued is counted by one run only (other tests' checkouts may be due too).
    expect(results.reduce((a, b) => a + b, 0)).toBe((await getDb().select().from(emails)).length);
    expect(await remindersOf(id)).toHaveLength(1);
  });
});

describe("the consent", () => {
  it("is unticked by default on the form and the API, and kept on the order when ticked", async () => {
    const base = {
      firstName: "Camille",
      lastName: "Martin",
      email: "consent@example.fr",
      address: "8 rue des Fleurs",
      postalCode: "69003",
      city: "Lyon",
    };
    expect(deliverySchema.parse(base).reminderConsent).toBeUndefined();
    expect(deliverySchema.parse({ ...base, reminderConsent: true }).reminderConsent).toBe(true);
    const api = apiOrderSchema.safeParse({
      shippingAddress: "8 rue des Fleurs",
      shippingPostalCode: "69003",
      shippingCity: "Lyon",
      items: [{ productId: 1, packId: 2, quantity: 1 }],
      reminderConsent: "oui",
    });
    expect(api.success).toBe(false);
    expect(api.error?.issues[0]).toMatchObject({ path: ["reminderConsent"], message: "reminderConsent doit être vrai ou faux." });

    const cartId = randomUUID();
    await addToCart(cartId, { productId: 1, packId: 2 });
    const { orderId } = await submitDelivery(cartId, deliverySchema.parse({ ...base, reminderConsent: true }));
    expect((await readCart(cartId)).checkout?.delivery.reminderConsent).toBe(true);
    // Sent again unticked: the consent is withdrawn.
    await submitDelivery(cartId, deliverySchema.parse(base));
    const [row] = await getDb().select().from(orders).where(eq(orders.id, orderId));
    expect(row.reminderConsent).toBe(false);
  });
});

describe("the links", () => {
  it("« Finaliser ma commande » works 7 days, and an altered link is refused", () => {
    const remindedAt = new Date("2026-11-20T13:00:00.000Z");
    const link = new URL(resumePath(123456789, remindedAt), PUBLIC_URL);
    expect(checkResumeLink(link.searchParams, new Date(remindedAt.getTime() + 7 * DAY - 1000))).toEqual({
      ok: true,
      orderId: 123456789,
    });
    expect(checkResumeLink(link.searchParams, new Date(remindedAt.getTime() + 7 * DAY))).toEqual({
      ok: false,
      reason: "expired",
    });

    const otherOrder = new URLSearchParams(link.searchParams);
    otherOrder.set("commande", "123456780");
    expect(checkResumeLink(otherOrder, remindedAt)).toEqual({ ok: false, reason: "invalid" });
    const longer = new URLSearchParams(link.searchParams);
    longer.set("expire", String(Number(link.searchParams.get("expire")) + 86_400));
    expect(checkResumeLink(longer, remindedAt)).toEqual({ ok: false, reason: "invalid" });
    const key = link.searchParams.get("cle")!;
    const forged = new URLSearchParams(link.searchParams);
    forged.set("cle", `${key.slice(0, -1)}${key.endsWith("A") ? "B" : "A"}`);
    expect(checkResumeLink(forged, remindedAt)).toEqual({ ok: false, reason: "invalid" });

    const unsubscribe = new URL(unsubscribePath(123456789), PUBLIC_URL);
    expect(checkUnsubscribeLink(unsubscribe.searchParams)).toBe(123456789);
    unsubscribe.searchParams.set("commande", "123456780");
    expect(checkUnsubscribeLink(unsubscribe.searchParams)).toBeNull();
  });

  it("an expired or altered link gets a French page; a valid one restores the cart at the payment step", async () => {
    const remindedAt = new Date(Date.now() - 8 * DAY);
    const expired = await resume({ request: new Request(`${PUBLIC_URL}${resumePath(1, remindedAt)}`), context: {}, params: {} });
    expect(expired.status).toBe(410);
    expect(await expired.json()).toMatchObject({ title: "Ce lien a expiré" });
    const forged = await resume({
      request: new Request(`${PUBLIC_URL}/panier/reprendre?commande=1&expire=9999999999&cle=${"A".repeat(43)}`),
      context: {},
      params: {},
    });
    expect(forged.status).toBe(404);
    expect(await forged.json()).toMatchObject({ title: "Lien introuvable" });
  });
});

describe("the reminder email", () => {
  it("carries the pack, the amount, the button and the one-click unsubscribe headers over SMTP", async () => {
    const id = await checkout({ promotionCode: "BIENVENUE", totalCents: 2331, discountCents: 259 });
    expect(await queueDueCartReminders(at(4 * HOUR))).toBe(1);
    const inbox = await startSmtpInbox();
    const sender = createEmailSender({
      render: renderEmail,
      transport: smtpTransport(inbox.url),
      holder: "cart-reminder-test",
      pollMs: 60_000,
    });
    try {
      await sender.runOnce();
      const [mail] = await inbox.waitFor(1);
      expect(mail.subject).toBe("Votre commande vous attend");
      expect(mail.text).toContain("Masque Hydrogel au Collagène – 6 masques + 2 offerts");
      expect(mail.text).toContain("Montant : 23,31€");
      expect(mail.text).toContain("Code promo : BIENVENUE");
      expect(mail.html).toContain("Finaliser ma commande");
      const resumeUrl = /Finaliser ma commande : (\S+)/.exec(mail.text ?? "")![1];
      expect(checkResumeLink(new URL(resumeUrl).searchParams, at(4 * HOUR + 6 * DAY))).toEqual({ ok: true, orderId: id });

      // The headers as the receiving server reads them (folded lines joined).
      const headerLine = (name: string) =>
        mail.headerLines
          .find((h) => h.key === name)
          ?.line.replace(/\r?\n[ \t]+/g, " ")
          .slice(name.length + 1)
          .trim();
      expect(headerLine("list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
      const listUnsubscribe = /^<(https:[^>]+)>, <(mailto:[^>]+)>$/.exec(headerLine("list-unsubscribe") ?? "");
      expect(listUnsubscribe?.[1]).toMatch(new RegExp(`^${PUBLIC_URL}/rappels/desinscription\\?commande=${id}&cle=`));
      expect(listUnsubscribe?.[2]).toMatch(/^mailto:.+@.+\?subject=/);
      const unsubscribeUrl = listUnsubscribe![1];
      // Kept with the rest of the email: a resend carries them too.
      const [row] = await remindersOf(id);
      expect(row.headers).toMatchObject({ "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" });

      // The mail client's one-click POST unsubscribes, with nothing more to do.
      const clicked = await unsubscribeRoute({
        request: new Request(unsubscribeUrl, {
          method: "POST",
          headers: { "Content-Type": "application/x-www-form-urlencoded" },
          body: "List-Unsubscribe=One-Click",
        }),
        context: {},
        params: {},
      });
      expect(clicked.status).toBe(303);
      const [order] = await getDb().select().from(orders).where(eq(orders.id, id));
      expect(await isUnsubscribed(order.customerEmail!.toUpperCase())).toBe(true);
      // Only the hash is kept.
      expect(await getDb().select().from(reminderUnsubscribes)).toEqual([
        expect.objectContaining({ emailHash: reminderEmailHash(order.customerEmail!) }),
      ]);
      // A GET shows the page (and unsubscribes no one); an altered link, 404.
      expect((await unsubscribePage({ request: new Request(unsubscribeUrl), context: {}, params: {} })).status).toBe(200);
      const altered = await unsubscribePage({
        request: new Request(unsubscribeUrl.replace(`commande=${id}`, `commande=${id + 1}`)),
        context: {},
        params: {},
      });
      expect(altered.status).toBe(404);
    } finally {
      await sender.stop();
      await inbox.close();
    }
  });
});

describe("a reminder queued before the buyer paid, withdrew or unsubscribed", () => {
  it("is not sent: the mailbox shows it « Non envoyé » with why, and no reminder counts as sent", async () => {
    const paid = await checkout();
    const withdrawn = await checkout();
    const unsubscribed = await checkout();
    const stillDue = await checkout();
    expect(await queueDueCartReminders(at(4 * HOUR))).toBeGreaterThanOrEqual(4);

    // Between the tick and the sender's turn: one pays, one unticks the box, one unsubscribes.
    await markOrderPaid(paid, { paymentIntentId: `pi_rappel_${paid}` });
    await getDb().update(orders).set({ reminderConsent: false }).where(eq(orders.id, withdrawn));
    await unsubscribeOrderAddress(unsubscribed);

    const inbox = await startSmtpInbox();
    const sender = createEmailSender({
      render: renderEmail,
      transport: smtpTransport(inbox.url),
      holder: "cart-reminder-recheck",
      pollMs: 60_000,
    });
    try {
      await sender.runOnce();
      const addressOf = async (id: number) =>
        (await getDb().select().from(orders).where(eq(orders.id, id)))[0].customerEmail!.toLowerCase();
      // The reminders received (the paid order's confirmation leaves too, to the same address).
      const received = inbox.messages.flatMap((mail, i) =>
        mail.subject === "Votre commande vous attend" ? inbox.recipients[i].map((r) => r.toLowerCase()) : [],
      );
      expect(received).toContain(await addressOf(stillDue));
      for (const id of [paid, withdrawn, unsubscribed]) expect(received).not.toContain(await addressOf(id));

      const shown = async (id: number) => {
        const [row] = await remindersOf(id);
        const email = await getEmail(row.id);
        return { status: email?.status, reason: email?.lastError, sentAt: email?.sentAt ?? null };
      };
      expect(await shown(paid)).toEqual({
        status: "canceled",
        reason: "Non envoyé : la commande a été payée entre-temps.",
        sentAt: null,
      });
      expect(await shown(withdrawn)).toEqual({
        status: "canceled",
        reason: "Non envoyé : le client a retiré son accord pour ce rappel.",
        sentAt: null,
      });
      expect(await shown(unsubscribed)).toEqual({
        status: "canceled",
        reason: "Non envoyé : l'adresse s'est désinscrite des rappels.",
        sentAt: null,
      });
      expect((await shown(stillDue)).status).toBe("sent");

      // The owner's figures count reminders sent: the dropped ones are not.
      const sentAt = async (id: number) => (await getDb().select().from(orders).where(eq(orders.id, id)))[0].reminderSentAt;
      for (const id of [paid, withdrawn, unsubscribed]) expect(await sentAt(id)).toBeNull();
      expect(await sentAt(stillDue)).not.toBeNull();
      // And the next tick does not queue them again.
      expect(await queueDueCartReminders(at(5 * HOUR))).toBe(0);
      // Not even once the customer ticks the box again: the reminder of that order was dropped,
      // none leaves, and none counts as sent.
      await getDb().update(orders).set({ reminderConsent: true }).where(eq(orders.id, withdrawn));
      expect(await queueDueCartReminders(at(6 * HOUR))).toBe(0);
      expect(await sentAt(withdrawn)).toBeNull();
      expect(await remindersOf(withdrawn)).toHaveLength(1);
    } finally {
      await sender.stop();
      await inbox.close();
    }
  });
});

describe("the restored checkout", () => {
  it("puts the pack and the promotion code back in another browser's cart, at the order's payment step", async () => {
    const [code] = await getDb()
      .insert(promotions)
      .values({ code: `RAPPEL${Date.now() % 100000}`, kind: "percent", value: 10, appliesTo: "one_off" })
      .returning();
    const firstCart = randomUUID();
    await addToCart(firstCart, { productId: 1, packId: 3 });
    await getDb().update(carts).set({ promotionCode: code.code }).where(eq(carts.id, firstCart));
    const { orderId } = await submitDelivery(
      firstCart,
      deliverySchema.parse({
        firstName: "Camille",
        lastName: "Martin",
        email: "reprise@example.fr",
        address: "8 rue des Fleurs",
        postalCode: "69003",
        city: "Lyon",
        reminderConsent: true,
      }),
    );
    const [before] = await getDb().select().from(orders).where(eq(orders.id, orderId));
    expect(before.discountCents).toBeGreaterThan(0);

    const otherBrowser = randomUUID();
    expect(await restoreCheckout(otherBrowser, orderId)).toEqual({ ok: true, orderId });
    const cart = await readCart(otherBrowser);
    expect(cart.lines.map((l) => [l.packId, l.quantity])).toEqual([[3, 1]]);
    expect(cart.promotion?.code).toBe(code.code);
    expect(cart.checkout).toMatchObject({ orderId, current: true, amountCents: before.totalCents });

    // Paid meantime: nothing to restore, and the page says so.
    await markOrderPaid(orderId, { paymentIntentId: `pi_reprise_${orderId}` });
    expect(await restoreCheckout(randomUUID(), orderId)).toMatchObject({ ok: false, reason: "paid" });
  });

  it("a customer's erasure removes their address from the unsubscribed list", async () => {
    const cartId = randomUUID();
    await addToCart(cartId, { productId: 1, packId: 2 });
    const email = `efface.${randomUUID().slice(0, 6)}@example.fr`;
    const { orderId } = await submitDelivery(
      cartId,
      deliverySchema.parse({
        firstName: "Camille",
        lastName: "Martin",
        email,
        address: "8 rue des Fleurs",
        postalCode: "69003",
        city: "Lyon",
      }),
    );
    await unsubscribeOrderAddress(orderId);
    expect(await isUnsubscribed(email)).toBe(true);
    const [order] = await getDb().select().from(orders).where(eq(orders.id, orderId));
    const [admin] = await getDb().select().from(users).where(eq(users.username, "admin"));
    await eraseCustomerData(order.userId!, { id: admin.id, username: admin.username });
    expect(await isUnsubscribed(email)).toBe(false);
  });
});
