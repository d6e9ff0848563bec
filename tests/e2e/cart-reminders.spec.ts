import AxeBuilder from "@axe-core/playwright";
import type { APIRequestContext, Page } from "@playwright/test";
import { gotoReady, testShopperHeaders } from "../helpers/e2e";
import { CARDS, expect, fillCard, fillDelivery, orderPack2, test } from "./checkout-fixtures";
import { adminApi } from "./subscription-fixtures";

/**
 * The reminder of an abandoned checkout, with and without JavaScript: the box ticked on the
 * delivery form, the scheduler's rule run 4 hours later (the demo tool moves its clock), one
 * reminder with its one-click unsubscribe headers in the demo mailbox, its link that restores the
 * cart at the payment step in another browser, and the payment with 4242. Without the box, no
 * reminder; the unsubscribe link works by a mail client's POST and by the page's button.
 */

test.describe.configure({ timeout: 90_000 });

const CONSENT = "M'envoyer un rappel si je ne finalise pas ma commande";
const HOUR = 3_600_000;

type EmailDetail = { id: number; kind: string; status: string; subject: string; text: string; headers: Record<string, string> };

/** The scheduler's rule, worked out as if `hoursLater` hours had passed. */
async function runReminders(admin: APIRequestContext, hoursLater: number) {
  const response = await admin.post("/api/admin/cart-reminders/run", {
    data: { at: new Date(Date.now() + hoursLater * HOUR).toISOString() },
  });
  expect(response.status()).toBe(200);
}

/** The order's reminders in the demo mailbox, once sent. */
async function remindersOf(admin: APIRequestContext, orderId: string): Promise<EmailDetail[]> {
  const list = await (await admin.get(`/api/admin/emails?order=${orderId}&kind=cart_reminder`)).json();
  return await Promise.all(
    (list.emails as { id: number }[]).map(
      async (e) => (await (await admin.get(`/api/admin/emails/${e.id}`)).json()) as EmailDetail,
    ),
  );
}

async function sentReminder(admin: APIRequestContext, orderId: string): Promise<EmailDetail> {
  let sent: EmailDetail | undefined;
  await expect(async () => {
    const reminders = await remindersOf(admin, orderId);
    expect(reminders).toHaveLength(1);
    expect(reminders[0].status).toBe("sent");
    sent = reminders[0];
  }).toPass({ timeout: 15_000 });
  return sent!;
}

/** Pack 2 to the delivery form, filled for `email`, the box ticked or not, sent: the order's number. */
async function checkoutUpToPayment(page: Page, javaScriptEnabled: boolean, email: string, consent: boolean) {
  await orderPack2(page, javaScriptEnabled);
  const scope = javaScriptEnabled ? page.getByRole("dialog") : page;
  await scope.getByRole(javaScriptEnabled ? "button" : "link", { name: "Procéder au paiement" }).click();
  await fillDelivery(scope, { email });
  const box = scope.getByRole("checkbox", { name: CONSENT });
  await expect(box).not.toBeChecked();
  if (consent) await box.check();
  await scope.getByRole("button", { name: "Continuer vers le paiement" }).click();
  await expect(scope.getByRole("heading", { name: "Finaliser la commande" })).toBeVisible();
  return (await scope.getByTestId("checkout-order-id").textContent())!.trim();
}

test("a consented checkout left unpaid gets one reminder, whose link restores the cart at the payment step, and 4242 pays it", async ({
  page,
  browser,
  baseURL,
  javaScriptEnabled,
}) => {
  const email = `rappel.${crypto.randomUUID().slice(0, 8)}@example.fr`;
  const orderId = await checkoutUpToPayment(page, javaScriptEnabled, email, true);
  const admin = await adminApi(browser, baseURL!);

  // 4 hours and a minute later (the tests running beside this one may move it too): the reminder, with its one-click unsubscribe.
  await runReminders(admin, 4 + 1 / 60);
  const reminder = await sentReminder(admin, orderId);
  expect(reminder.subject).toBe("Votre commande vous attend");
  expect(reminder.text).toContain("6 masques + 2 offerts");
  expect(reminder.text).toContain("Montant : 25,90€");
  expect(reminder.headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
  expect(reminder.headers["List-Unsubscribe"]).toMatch(
    new RegExp(`^<${baseURL}/rappels/desinscription\\?commande=${orderId}&cle=[\\w-]{43}>, <mailto:[^>]+@[^>]+>$`),
  );
  // Never a second one.
  await runReminders(admin, 6);
  expect(await remindersOf(admin, orderId)).toHaveLength(1);

  // The link, opened on another device: the same pack, at the payment step of that order.
  const link = new URL(/Finaliser ma commande : (\S+)/.exec(reminder.text)![1]);
  const phone = await browser.newContext({
    baseURL,
    javaScriptEnabled,
    locale: "fr-FR",
    timezoneId: "Europe/Paris",
    extraHTTPHeaders: testShopperHeaders(),
  });
  try {
    const other = await phone.newPage();
    await gotoReady(other, `${link.pathname}${link.search}`, javaScriptEnabled);
    await expect(other).toHaveURL(/\/panier\?etape=paiement$/);
    await expect(other.getByRole("heading", { level: 1, name: "Finaliser la commande" })).toBeVisible();
    await expect(other.getByTestId("checkout-order-id")).toHaveText(orderId);
    await expect(other.getByRole("paragraph").filter({ hasText: "Montant à régler" })).toContainText("25,90€");

    if (javaScriptEnabled) {
      const form = other.getByTestId("payment-form");
      await fillCard(form, CARDS.success);
      await form.getByRole("button", { name: /^Payer / }).click();
      await expect(other).toHaveURL(new RegExp(`/order-confirmation/${orderId}$`), { timeout: 15_000 });
    } else {
      await other.getByRole("button", { name: "Payer sur la page de paiement sécurisée" }).click();
      await other.getByLabel("Numéro de carte").fill(CARDS.success);
      await other.getByLabel("Date d'expiration").fill(`12/${String(new Date().getFullYear() + 2).slice(2)}`);
      await other.getByLabel("CVC").fill("123");
      await other.getByRole("button", { name: "Payer", exact: true }).click();
      await expect(other).toHaveURL(new RegExp(`/order-confirmation/${orderId}\\?session_id=cs_test_`));
    }
    await expect(other.getByTestId("order-status-badge")).toHaveText("Payée", { timeout: 15_000 });

    // Paid: the link now says so, in French.
    const again = await other.goto(`${link.pathname}${link.search}`);
    expect(again?.status()).toBe(409);
    await expect(other.getByRole("heading", { level: 1, name: "Commande déjà réglée" })).toBeVisible();
    // An altered link: a French page, nothing restored.
    link.searchParams.set("expire", String(Number(link.searchParams.get("expire")) + 1));
    const altered = await other.goto(`${link.pathname}${link.search}`);
    expect(altered?.status()).toBe(404);
    await expect(other.getByRole("heading", { level: 1, name: "Lien introuvable" })).toBeVisible();
  } finally {
    await phone.close();
  }
});

test("no reminder without the box; the unsubscribe link works by a mail client's POST and by its page's button", async ({
  page,
  browser,
  baseURL,
  javaScriptEnabled,
  request,
}) => {
  const admin = await adminApi(browser, baseURL!);
  const email = `sans.rappel.${crypto.randomUUID().slice(0, 8)}@example.fr`;
  const orderId = await checkoutUpToPayment(page, javaScriptEnabled, email, false);

  /** A consented order of this address, made through the API. */
  const apiOrder = async (address: string) => {
    const created = await request.post("/api/orders", {
      headers: testShopperHeaders(),
      data: {
        customerEmail: address,
        customerName: "Camille Martin",
        shippingAddress: "8 rue des Fleurs",
        shippingPostalCode: "69003",
        shippingCity: "Lyon",
        items: [{ productId: 1, packId: 2, quantity: 1 }],
        reminderConsent: true,
      },
    });
    expect(created.status()).toBe(201);
    return String((await created.json()).id);
  };
  const consented = await apiOrder(email);

  await runReminders(admin, 4 + 1 / 60);
  const reminder = await sentReminder(admin, consented);
  expect(await remindersOf(admin, orderId)).toEqual([]);

  // The mail client's one-click: a POST to the List-Unsubscribe address, no cookie, nothing else.
  const url = /^<([^>]+)>/.exec(reminder.headers["List-Unsubscribe"])![1];
  const clicked = await request.post(url, {
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...testShopperHeaders() },
    data: "List-Unsubscribe=One-Click",
    maxRedirects: 0,
  });
  expect(clicked.status()).toBe(303);
  // Another consented checkout of that address, 4 hours later: nothing.
  const later = await apiOrder(email.toUpperCase());
  await runReminders(admin, 4 + 2 / 60);
  expect(await remindersOf(admin, later)).toEqual([]);

  // The page of the link: a button that posts, with or without JavaScript.
  const second = `desinscription.${crypto.randomUUID().slice(0, 8)}@example.fr`;
  const secondOrder = await apiOrder(second);
  await runReminders(admin, 4 + 3 / 60);
  const secondUrl = new URL(/^<([^>]+)>/.exec((await sentReminder(admin, secondOrder)).headers["List-Unsubscribe"])![1]);
  await gotoReady(page, `${secondUrl.pathname}${secondUrl.search}`, javaScriptEnabled);
  await expect(page.getByRole("heading", { level: 1, name: "Ne plus recevoir de rappels" })).toBeVisible();
  if (javaScriptEnabled) {
    const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  }
  await page.getByRole("button", { name: "Me désinscrire des rappels" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Vous êtes désinscrit" })).toBeVisible();
  await expect(page.getByText("Vous ne recevrez plus aucun rappel de commande non finalisée")).toBeVisible();
});
