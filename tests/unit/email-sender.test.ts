import { and, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { emails, orders } from "~/db/schema";
import { action as startAction } from "~/routes/api.payments.start";
import { createContactRequest } from "~/services/contacts.server";
import { updateAdminOrder } from "~/services/admin-orders.server";
import { getEmailAttachment, resendEmail } from "~/services/email/mailbox.server";
import { renderEmail } from "~/services/email/render.server";
import { createEmailSender, type EmailSender } from "~/services/email/sender.server";
import { smtpTransport } from "~/services/email/transport.server";
import { confirmOrderPayment } from "~/services/payments/confirm.server";
import { markOrderPaid } from "~/services/payments/payment-state.server";
import type { StripeEmulatorHandle } from "~/services/stripe.server";
import { freePort, type SmtpInbox, startSmtpInbox } from "../helpers/smtp-inbox";
import {
  browserPay,
  CARDS,
  createTestOrder,
  getOrder,
  ownerRequest,
  productStock,
  replayEvent,
  routeArgs,
  startTestEmulator,
  stopTestEmulator,
} from "./payments-fixtures";

/**
 * The outbox and its sender through a real SMTP server (smtp-server in this process), read back
 * with mailparser as a customer's mail client would.
 */

let emulator: StripeEmulatorHandle;
let inbox: SmtpInbox;
const senders: EmailSender[] = [];

beforeAll(async () => {
  emulator = await startTestEmulator();
});
afterAll(async () => {
  await stopTestEmulator();
});
beforeEach(async () => {
  await getDb().delete(emails);
  inbox = await startSmtpInbox();
});
afterEach(async () => {
  await Promise.all(senders.splice(0).map((s) => s.stop()));
  await inbox.close();
});

function sender(options: { url?: string; holder?: string; maxAttempts?: number } = {}) {
  const created = createEmailSender({
    render: renderEmail,
    transport: smtpTransport(options.url ?? inbox.url),
    retryDelayMs: () => 0,
    maxAttempts: options.maxAttempts,
    holder: options.holder ?? `test-${Math.random()}`,
    pollMs: 60_000,
  });
  senders.push(created);
  return created;
}

const rows = async () => await getDb().select().from(emails).orderBy(emails.id);
const rowsOf = async (orderId: number, kind: string) =>
  await getDb()
    .select()
    .from(emails)
    .where(and(eq(emails.orderId, orderId), eq(emails.kind, kind as "order_confirmation")));

/**
 * Nothing more can reach the inbox: every sender has stopped, after its round under way, and no
 * email is left waiting or being sent for a later round. What was sent is all in the inbox by
 * then: it holds each message before accepting it.
 */
async function nothingMoreToSend() {
  await Promise.all(senders.splice(0).map((s) => s.stop()));
  expect((await rows()).filter((r) => r.status === "pending" || r.status === "sending")).toEqual([]);
}

/** An order paid at Stripe whose webhook has not been delivered yet. */
async function paidAtStripe() {
  const orderId = await createTestOrder({ email: "camille.martin@example.fr" });
  const response = await startAction(routeArgs(ownerRequest("/api/payments/start", { orderId })));
  const started = await response.json();
  await browserPay(started.clientSecret, CARDS.success);
  const event = emulator.events.find(
    (e) => e.type === "payment_intent.succeeded" && (e.data.object as { id: string }).id === started.paymentIntentId,
  )!;
  return { orderId, event };
}

describe("order confirmation", () => {
  it("reaches the customer through SMTP with what they need to read, and the shop gets its notice", async () => {
    const orderId = await createTestOrder({ email: "camille.martin@example.fr" });
    expect(await markOrderPaid(orderId, { paymentIntentId: "pi_test_mail" })).toBe(true);
    await sender().runOnce();

    const messages = await inbox.waitFor(2);
    const confirmation = messages.find((m) => m.subject?.includes("Confirmation"))!;
    expect(confirmation.subject).toBe(`Confirmation de votre commande n°${orderId}`);
    expect(confirmation.to && "text" in confirmation.to ? confirmation.to.text : "").toBe("camille.martin@example.fr");
    expect(confirmation.from?.text).toContain("Maison Éclat");
    for (const part of [confirmation.text!, confirmation.html as string]) {
      expect(part).toContain(String(orderId));
      expect(part).toContain("25,90€");
      expect(part).toContain("12 rue des Lilas");
      expect(part).toContain("75011");
      expect(part).toMatch(/formulaire de rétractation/i);
      expect(part).toContain("article L. 221-28, 5° du Code de la consommation");
    }
    expect(confirmation.text).toMatch(/\/track-order\?id=\d+&cle=[\w-]+/);
    // A one-off purchase: no cancellation link.
    expect(confirmation.text).not.toContain("/abonnement/resilier");
    expect(confirmation.attachments).toHaveLength(1);
    expect(confirmation.attachments[0].filename).toMatch(/^CGV-.*\.html$/);
    expect(confirmation.attachments[0].content.toString("utf8")).toContain("Conditions générales de vente");

    const notice = messages.find((m) => m.subject?.startsWith("Nouvelle commande payée"))!;
    expect(notice.text).toContain(String(orderId));
    expect(inbox.recipients.flat().sort()).toEqual(["camille.martin@example.fr", "contact@maison-eclat.fr"].sort());

    const [row] = await rowsOf(orderId, "order_confirmation");
    expect(row).toMatchObject({ status: "sent", attempts: 1, transport: "smtp", lastError: null });
    expect(row.messageId).toBe(confirmation.messageId);
    // Kept exactly as sent: what /admin/emails shows.
    expect(row.text).toBe(confirmation.text);
    // The terms of sale are not stored: a reference to their version, and the file rebuilt byte for byte.
    expect(row.attachments).toBeNull();
    expect(row.attachmentRefs).toEqual([{ kind: "terms_of_sale", version: expect.any(String) }]);
    expect(confirmation.attachments[0].filename).toContain(row.attachmentRefs![0].version);
    const rebuilt = await getEmailAttachment(row.id, 0);
    expect(rebuilt?.filename).toBe(confirmation.attachments[0].filename);
    expect(rebuilt?.content.equals(confirmation.attachments[0].content)).toBe(true);
  });

  it("each email sent keeps its own send time and message id, one round after the other", async () => {
    const first = await createTestOrder({ email: "premiere@example.fr" });
    expect(await markOrderPaid(first, { paymentIntentId: "pi_test_first" })).toBe(true);
    const before = new Date().toISOString();
    const outbox = sender();
    await outbox.runOnce();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const second = await createTestOrder({ email: "seconde@example.fr" });
    expect(await markOrderPaid(second, { paymentIntentId: "pi_test_second" })).toBe(true);
    const between = new Date().toISOString();
    await outbox.runOnce();
    await inbox.waitFor(4);

    const [one] = await rowsOf(first, "order_confirmation");
    const [two] = await rowsOf(second, "order_confirmation");
    for (const row of [one, two]) expect(row).toMatchObject({ status: "sent", attempts: 1, sendingSince: null });
    expect(one.sentAt! >= before && one.sentAt! < between).toBe(true);
    expect(two.sentAt! > between).toBe(true);
    // The row's last change is its sending, for each (the admin's list and the retention read it).
    expect(one.updatedAt).toBe(one.sentAt);
    expect(two.updatedAt).toBe(two.sentAt);
    expect(one.messageId).not.toBe(two.messageId);
    const messages = inbox.messages.filter((m) => m.subject?.includes("Confirmation"));
    expect(messages.map((m) => m.messageId).sort()).toEqual([one.messageId, two.messageId].sort());
  });

  it("a subscription's confirmation gives its terms and the direct cancellation link", async () => {
    const orderId = await createTestOrder({ email: "abonnee@example.fr" });
    await markOrderPaid(orderId, { subscriptionId: "sub_test_mail" });
    await sender().runOnce();
    const [mail] = (await inbox.waitFor(2)).filter((m) => m.subject?.startsWith("Confirmation"));
    expect(mail.text).toContain(`/abonnement/resilier?commande=${orderId}`);
    expect(mail.text).toMatch(/toutes les 4 semaines/);
  });

  it("exactly one, when the webhook is replayed twice and the browser's confirmation races it", async () => {
    const { orderId, event } = await paidAtStripe();
    const stockBefore = await productStock();
    const results = await Promise.all([replayEvent(emulator, event), replayEvent(emulator, event), confirmOrderPayment(orderId)]);
    expect(results[0].status).toBe(200);
    expect((await getOrder(orderId)).paymentStatus).toBe("paid");
    expect(await productStock()).toBe(stockBefore - 1);
    expect(await rowsOf(orderId, "order_confirmation")).toHaveLength(1);
    expect(await rowsOf(orderId, "shop_new_order")).toHaveLength(1);

    await sender().runOnce();
    await replayEvent(emulator, event);
    await sender().runOnce();
    await inbox.waitFor(2);
    await nothingMoreToSend();
    expect(inbox.messages.filter((m) => m.subject === `Confirmation de votre commande n°${orderId}`)).toHaveLength(1);
  });
});

describe("failures", () => {
  it("with SMTP refusing connections: the order is paid, the email retried then failed; 'Renvoyer' sends it once SMTP is back", async () => {
    const port = await freePort();
    const orderId = await createTestOrder({ email: "camille.martin@example.fr" });
    expect(await markOrderPaid(orderId, { paymentIntentId: "pi_test_down" })).toBe(true);
    expect((await getOrder(orderId)).paymentStatus).toBe("paid");

    const down = sender({ url: `smtp://127.0.0.1:${port}`, maxAttempts: 3 });
    await down.runOnce();
    const [failed] = await rowsOf(orderId, "order_confirmation");
    expect(failed).toMatchObject({ status: "failed", attempts: 3 });
    expect(failed.lastError).toMatch(/ECONNREFUSED/);
    await down.stop();

    const back = await startSmtpInbox(port);
    try {
      expect(await resendEmail(failed.id)).toBe(true);
      await sender({ url: back.url }).runOnce();
      const received = await back.waitFor(1);
      const resent = received.find((m) => m.subject === `Confirmation de votre commande n°${orderId}`);
      // Resent from what was kept: the terms of sale rebuilt from their reference.
      expect(resent?.attachments.map((a) => a.filename)).toEqual([expect.stringMatching(/^CGV-.*\.html$/)]);
      expect(resent?.attachments[0].content.toString("utf8")).toContain("Conditions générales de vente");
      expect((await rowsOf(orderId, "order_confirmation"))[0]).toMatchObject({ status: "sent", attempts: 1 });
    } finally {
      await back.close();
    }
  });

  it("what the first attempt rendered is kept with its failure: the retries and the resend send exactly that, rendered once", async () => {
    const port = await freePort();
    const orderId = await createTestOrder({ email: "camille.martin@example.fr" });
    expect(await markOrderPaid(orderId, { paymentIntentId: "pi_test_kept" })).toBe(true);
    let renders = 0;
    const render: typeof renderEmail = async (email) => {
      const rendered = await renderEmail(email);
      if (email.kind !== "order_confirmation") return rendered;
      renders++;
      return { ...rendered, subject: `${rendered.subject} (rendu ${renders})` };
    };
    const down = createEmailSender({
      render,
      transport: smtpTransport(`smtp://127.0.0.1:${port}`),
      retryDelayMs: () => 0,
      maxAttempts: 2,
      holder: "test-down",
      pollMs: 60_000,
    });
    senders.push(down);
    await down.runOnce();
    const [failed] = await rowsOf(orderId, "order_confirmation");
    expect(failed).toMatchObject({
      status: "failed",
      attempts: 2,
      subject: `Confirmation de votre commande n°${orderId} (rendu 1)`,
    });
    expect(failed.html).toContain(String(orderId));
    await down.stop();

    const back = await startSmtpInbox(port);
    try {
      expect(await resendEmail(failed.id)).toBe(true);
      const again = createEmailSender({ render, transport: smtpTransport(back.url), holder: "test-back", pollMs: 60_000 });
      senders.push(again);
      await again.runOnce();
      const received = await back.waitFor(1);
      expect(received.map((m) => m.subject)).toContain(`Confirmation de votre commande n°${orderId} (rendu 1)`);
      expect(renders).toBe(1);
      expect((await rowsOf(orderId, "order_confirmation"))[0]).toMatchObject({ status: "sent", subject: failed.subject });
    } finally {
      await back.close();
    }
  });

  it("after a crash between 'sending' and 'sent', the next sender sends that email once more, and only once", async () => {
    const contact = await createContactRequest({
      name: "Léa Petit",
      email: "lea@example.fr",
      subject: "Livraison",
      message: "Bonjour, quand arrive ma commande ?",
    });
    // A process took the acknowledgement, then died before marking it sent.
    await getDb()
      .update(emails)
      .set({ status: "sending", attempts: 1, sendingSince: new Date().toISOString() })
      .where(and(eq(emails.contactRequestId, contact.id), eq(emails.kind, "contact_ack")));
    await sender().runOnce();
    await sender({ holder: "another" }).runOnce();
    await inbox.waitFor(2);
    await nothingMoreToSend();
    expect(inbox.messages.filter((m) => m.subject === "Nous avons bien reçu votre message")).toHaveLength(1);
    expect((await rows()).every((r) => r.status === "sent")).toBe(true);
  });

  it("two senders at once (two processes): each email leaves once", async () => {
    for (let i = 0; i < 4; i++) {
      await createContactRequest({
        name: `Client ${i}`,
        email: `client${i}@example.fr`,
        subject: "Question",
        message: "Une question sur les masques, merci.",
      });
    }
    const first = sender({ holder: "process-a" });
    const second = sender({ holder: "process-b" });
    await Promise.all([first.runOnce(), second.runOnce(), first.runOnce(), second.runOnce()]);
    await inbox.waitFor(8);
    await nothingMoreToSend();
    expect(inbox.messages).toHaveLength(8);
    expect(new Set(inbox.recipients.map((r) => r.join())).size).toBe(5);
  });
});

describe("the other emails", () => {
  it("shipping notice with the tracking number, once, for a paid order set to shipped", async () => {
    const orderId = await createTestOrder({ email: "camille.martin@example.fr" });
    await markOrderPaid(orderId, { paymentIntentId: "pi_test_ship" });
    await updateAdminOrder(orderId, { status: "shipped", trackingNumber: "6A12345678901" });
    await updateAdminOrder(orderId, { status: "processing" });
    await updateAdminOrder(orderId, { status: "shipped" });
    expect(await rowsOf(orderId, "order_shipped")).toHaveLength(1);
    await sender().runOnce();
    const shipped = (await inbox.waitFor(3)).find((m) => m.subject === `Votre commande n°${orderId} a été expédiée`)!;
    expect(shipped.text).toContain("6A12345678901");
  });

  it("no shipping notice for an unpaid order: it cannot be shipped", async () => {
    const orderId = await createTestOrder({ email: "camille.martin@example.fr" });
    await expect(updateAdminOrder(orderId, { status: "shipped" })).rejects.toThrow(/^Paiement non reçu/);
    expect((await getDb().select().from(orders).where(eq(orders.id, orderId)).limit(1))[0]!.status).toBe("pending");
    expect(await rowsOf(orderId, "order_shipped")).toHaveLength(0);
  });

  it("a contact request: the acknowledgement without the message, and the shop's notice with it", async () => {
    await createContactRequest({
      name: "Léa Petit",
      email: "lea@example.fr",
      subject: "Allergies",
      message: "Bonjour, le masque convient-il aux peaux sensibles ?",
    });
    await sender().runOnce();
    const messages = await inbox.waitFor(2);
    const ack = messages.find((m) => m.subject === "Nous avons bien reçu votre message")!;
    expect(ack.text).not.toContain("le masque convient-il aux peaux sensibles ?");
    expect(ack.html).toContain("Allergies");
    const notice = messages.find((m) => m.subject === "Nouvelle demande de contact : Allergies")!;
    expect(notice.text).toContain("lea@example.fr");
    expect(notice.text).toContain("le masque convient-il aux peaux sensibles ?");
  });
});
