import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startSmtpInbox } from "../helpers/smtp-inbox";
import { API_ORDER, spawnShop, type ShopProcess } from "./shop-process";

/**
 * The owner's email on a withdrawal request, as it reaches the shop's mailbox: the production
 * server in demo mode with SMTP_URL pointing at a real SMTP server of the test.
 */

const started: ShopProcess[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((p) => p.dispose()));
});

async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: new URL(url).origin, ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** An order paid by card through the shop's API and its Stripe emulator, as a browser would. */
async function paidOrder(shop: ShopProcess, email: string) {
  const order = await post(`${shop.url}/api/orders`, { ...API_ORDER, customerEmail: email });
  expect(order.status, JSON.stringify(order.body)).toBe(201);
  const { id, token } = order.body as { id: number; token: string };
  const start = await post(`${shop.url}/api/payments/start`, { orderId: id, mode: "one_off", token });
  expect(start.status, JSON.stringify(start.body)).toBe(200);
  const emulator = `http://127.0.0.1:${shop.emulatorPort}`;
  const key = readFileSync(path.join(shop.dataDir, ".stripe-emulator-key"), "utf8").trim();
  const form = (fields: Record<string, string>) => ({
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  });
  const method = (await (
    await fetch(
      `${emulator}/v1/payment_methods`,
      form({
        type: "card",
        "card[number]": "4242424242424242",
        "card[exp_month]": "12",
        "card[exp_year]": "2031",
        "card[cvc]": "123",
      }),
    )
  ).json()) as { id: string };
  const confirmed = await fetch(
    `${emulator}/v1/payment_intents/${(start.body as { paymentIntentId: string }).paymentIntentId}/confirm`,
    form({ payment_method: method.id }),
  );
  expect(confirmed.status).toBe(200);
  const paid = await post(`${shop.url}/api/payments/confirm`, { orderId: id, token });
  expect(paid.body).toMatchObject({ paid: true });
  return id;
}

describe("the owner's email on a withdrawal request", () => {
  it("reaches the shop's address through SMTP: the deadline, what to do, the order's admin page, the company's legal mentions", async () => {
    const inbox = await startSmtpInbox();
    try {
      const shop = await spawnShop({
        SHOP_MODE: "demo",
        SMTP_URL: inbox.url,
        MAIL_FROM: "Maison Éclat <commandes@maison-eclat.fr>",
      });
      started.push(shop);
      await shop.ready();
      const orderId = await paidOrder(shop, "camille.martin@example.fr");
      const requested = await post(`${shop.url}/api/withdrawals`, {
        orderId: String(orderId),
        email: "camille.martin@example.fr",
        reason: "Le produit ne me convient pas.",
      });
      expect(requested.status, JSON.stringify(requested.body)).toBe(200);

      const deadline = new Intl.DateTimeFormat("fr-FR", {
        timeZone: "Europe/Paris",
        day: "numeric",
        month: "long",
        year: "numeric",
      })
        .format(new Date(Date.now() + 14 * 86_400_000))
        .replace(/^1 /, "1er ");
      const subject = `Rétractation à rembourser avant le ${deadline} : commande n°${orderId}`;
      const deadlineLine = `À rembourser au plus tard le ${deadline}`;
      const started_ = Date.now();
      while (!inbox.messages.some((m) => m.subject === subject) && Date.now() - started_ < 20_000)
        await new Promise((r) => setTimeout(r, 100));
      const index = inbox.messages.findIndex((m) => m.subject === subject);
      expect(index, inbox.messages.map((m) => m.subject).join("\n")).toBeGreaterThanOrEqual(0);
      const mail = inbox.messages[index];
      expect(inbox.recipients[index]).toEqual(["contact@maison-eclat.fr"]);
      expect(mail.from?.value[0]).toMatchObject({ address: "commandes@maison-eclat.fr" });
      expect(mail.text).toContain(deadlineLine);
      expect(mail.text).toContain("Motif : Le produit ne me convient pas.");
      expect(mail.text).toContain("À faire : remboursez la commande depuis sa fiche");
      expect(mail.text).toContain(`Ouvrir la commande n°${orderId} : ${shop.url}/admin/orders/${orderId}`);
      expect(mail.text).toContain("Maison Éclat SAS au capital de 10 000 € – RCS Paris 921 458 303");
      const html = String(mail.html);
      expect(html).toContain(deadlineLine);
      expect(html).toContain(`href="${shop.url}/admin/orders/${orderId}"`);
      // Kept for a look in a browser (tests/.tmp is ignored).
      mkdirSync("tests/.tmp", { recursive: true });
      writeFileSync("tests/.tmp/owner-withdrawal.html", html);
      // The customer's acknowledgement went too, to the customer.
      expect(inbox.messages.some((m) => m.subject?.startsWith("Accusé de réception de votre rétractation"))).toBe(true);
    } finally {
      await inbox.close();
    }
  });
});
