import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { EMULATOR, emulatorAuth, gotoReady } from "../helpers/e2e";
import { CARDS, expect, fillCard, test } from "./checkout-fixtures";
import { adminApi, buySubscription, emailText, linkTo } from "./subscription-fixtures";

/**
 * The subscription's private page (/mon-abonnement), opened with the link of its emails, and
 * the page to pay a failed renewal (/abonnement/payer), with JavaScript and without.
 */

test.describe.configure({ timeout: 120_000 });

async function emulatorPost(page: Page, path: string, form: Record<string, string> = {}) {
  const response = await page.request.post(`${EMULATOR}${path}`, { headers: emulatorAuth(), form });
  expect(response.status(), path).toBe(200);
  return response.json();
}

/** The subscription's card becomes one whose charges fail, and the next period is billed: the renewal fails. */
async function failRenewal(page: Page, subscriptionId: string) {
  const sub = await (
    await page.request.get(`${EMULATOR}/v1/subscriptions/${subscriptionId}`, { headers: emulatorAuth() })
  ).json();
  const pm = await emulatorPost(page, "/v1/payment_methods", {
    type: "card",
    "card[number]": "4000000000000341",
    "card[exp_month]": "12",
    "card[exp_year]": String(new Date().getFullYear() + 3),
    "card[cvc]": "123",
  });
  await emulatorPost(page, `/v1/payment_methods/${pm.id}/attach`, { customer: sub.customer });
  await emulatorPost(page, `/v1/subscriptions/${subscriptionId}`, { default_payment_method: pm.id });
  const invoice = await emulatorPost(page, `/v1/test_helpers/emulator/subscriptions/${subscriptionId}/renew`);
  expect(invoice.status).toBe("open");
}

test("a forged link shows a neutral page, not a subscription", async ({ page, javaScriptEnabled }) => {
  const response = await gotoReady(page, `/mon-abonnement?id=1&expire=4102444800&cle=${"A".repeat(43)}`, javaScriptEnabled);
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Lien introuvable" })).toBeVisible();
  expect(response?.headers()["cache-control"]).toBe("private, no-store");
  expect(response?.headers()["referrer-policy"]).toBe("same-origin");
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
});

test("the confirmation email's link opens the subscription; the next deliveries move to a new address; then it is cancelled", async ({
  page,
  browser,
  baseURL,
  javaScriptEnabled,
}) => {
  const { orderId } = await buySubscription(browser, baseURL!);
  const admin = await adminApi(browser, baseURL!);
  const link = linkTo(await emailText(admin, orderId, "order_confirmation"), "/mon-abonnement");

  const response = await gotoReady(page, link, javaScriptEnabled);
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1, name: "Mon abonnement" })).toBeVisible();
  await expect(page.getByTestId("subscription-state")).toHaveText("Actif");
  await expect(page.getByTestId("subscription-pack")).toContainText("6 masques + 2 offerts");
  await expect(page.getByText("25,90€ toutes les 4 semaines")).toBeVisible();
  const orders = page.getByTestId("subscription-orders");
  await expect(orders).toContainText(`Commande n°${orderId}`);
  await expect(orders).toContainText("Première commande");
  await expect(orders.getByRole("link", { name: `Suivre la commande n°${orderId}` })).toHaveAttribute(
    "href",
    new RegExp(`^/track-order\\?id=${orderId}&cle=`),
  );
  if (javaScriptEnabled) {
    const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
    expect(
      results.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.help}`),
    ).toEqual([]);
  }

  // A new address for the next renewals: the delivery form's messages, then saved.
  await page.getByText("Changer l'adresse").click();
  const form = page.locator("#subscription-address-form");
  await form.getByLabel("Code postal").fill("69");
  await form.getByRole("button", { name: "Enregistrer cette adresse" }).click();
  await expect(
    page.locator("#subscription-address-form").getByText("Le code postal doit contenir au moins 5 caractères"),
  ).toBeVisible();
  await page.locator("#subscription-address-form").getByLabel("Adresse", { exact: true }).fill("4 avenue Jean Jaurès");
  await page.locator("#subscription-address-form").getByLabel("Code postal").fill("69007");
  await page.locator("#subscription-address-form").getByLabel("Ville").fill("Lyon");
  await page.locator("#subscription-address-form").getByRole("button", { name: "Enregistrer cette adresse" }).click();
  await expect(page.getByTestId("toast")).toContainText("Adresse enregistrée");
  await expect(page.getByTestId("subscription-address")).toContainText("4 avenue Jean Jaurès");
  await expect(page.getByTestId("subscription-address")).toContainText("69007 Lyon");

  // Cancelled from the page: the state says so, and the confirmation email is sent.
  await page.getByText("Résilier", { exact: true }).click();
  await page.getByRole("button", { name: "Confirmer la résiliation" }).click();
  await expect(page.getByTestId("toast")).toContainText("Votre abonnement est résilié");
  const today = new Intl.DateTimeFormat("fr-FR", {
    timeZone: "Europe/Paris",
    day: "2-digit",
    month: "2-digit",
    year: "numeric",
  }).format(new Date());
  await expect(page.getByTestId("subscription-state")).toHaveText(`Résilié le ${today}`);
  await expect(page.getByRole("button", { name: "Confirmer la résiliation" })).toHaveCount(0);
  expect(await emailText(admin, orderId, "subscription_canceled")).toContain("/mon-abonnement?");
});

test("a failed renewal is paid with another card on the shop's page", async ({ page, browser, baseURL, javaScriptEnabled }) => {
  const { orderId, subscriptionId } = await buySubscription(browser, baseURL!);
  await failRenewal(page, subscriptionId);
  const admin = await adminApi(browser, baseURL!);
  const text = await emailText(admin, orderId, "renewal_payment_failed");

  // The subscription's page says a payment is due and links to the pay page.
  await gotoReady(page, linkTo(text, "/mon-abonnement"), javaScriptEnabled);
  await expect(page.getByTestId("subscription-state")).toHaveText("Paiement en retard");
  // What is owed and what happens next; the unpaid renewal's date is never announced as the next one.
  await expect(page.getByTestId("subscription-amount-due")).toHaveText(
    /^Montant dû : 25,90€, renouvellement n°1 du \d{2}\/\d{2}\/\d{4}\.$/,
  );
  await expect(page.getByTestId("subscription-unpaid")).toContainText("ce montant n'est jamais prélevé deux fois");
  await expect(page.getByTestId("subscription-next-renewal")).toContainText("une fois le montant dû réglé");
  // The failed-renewal email names the renewal, not the first order.
  expect(text).toMatch(/Le paiement du renouvellement n°1 du \d{2}\/\d{2}\/\d{4} de votre abonnement, 25,90€, n'a pas abouti/);
  const payLink = linkTo(text, "/abonnement/payer");
  // A fresh pay link for the same invoice (each one carries its own expiry).
  const invoiceId = new URL(payLink, baseURL).searchParams.get("facture")!;
  await expect(page.getByTestId("subscription-pay-link")).toHaveAttribute(
    "href",
    new RegExp(`^/abonnement/payer\\?facture=${invoiceId}&expire=\\d+&cle=`),
  );

  const response = await gotoReady(page, payLink, javaScriptEnabled);
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1, name: "Régler mon abonnement" })).toBeVisible();
  await expect(page.getByTestId("invoice-amount")).toHaveText("25,90€");
  await expect(page.getByText("Renouvellement n°1")).toBeVisible();
  if (javaScriptEnabled) {
    const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
    expect(
      results.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.help}`),
    ).toEqual([]);
  }

  if (!javaScriptEnabled) {
    await expect(page.getByTestId("invoice-pay-needs-js")).toContainText("Le paiement par carte nécessite JavaScript");
    return;
  }
  // On a phone: the answer, once paid, is in view (the long card form is gone).
  await page.setViewportSize({ width: 390, height: 844 });
  const form = page.getByTestId("invoice-payment-form");
  // A declined card: the checkout's French message.
  await fillCard(form, CARDS.declined);
  await form.getByTestId("pay-button").click();
  await expect(page.getByTestId("payment-error")).toContainText("Carte refusée");
  await fillCard(form, CARDS.success);
  await form.getByTestId("pay-button").click();
  await expect(page.getByTestId("invoice-paid")).toContainText(
    "Paiement reçu, votre commande de renouvellement est en préparation",
  );
  await expect(page.getByTestId("invoice-paid")).toBeInViewport();
  await expect(page.getByTestId("invoice-paid")).toBeFocused();
  await page.screenshot({ path: "/tmp/shots-aftersale/renewal-paid-390.png" });
  await page.setViewportSize({ width: 1280, height: 900 });

  // The webhook made the renewal's order; the subscription is active again; the link now says it is paid.
  await expect(async () => {
    await gotoReady(page, linkTo(text, "/mon-abonnement"));
    await expect(page.getByTestId("subscription-state")).toHaveText("Actif", { timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  await expect(page.getByTestId("subscription-orders")).toContainText("Renouvellement n°1");
  // Every order with its invoice, which opens for the subscriber (the order's own key, no account).
  const invoiceLinks = page.getByTestId("subscription-invoice-link");
  await expect(invoiceLinks).toHaveCount(2);
  const renewalItem = page.getByTestId("subscription-orders").getByRole("listitem").filter({ hasText: "Renouvellement n°1" });
  const renewalId = (await renewalItem.textContent())!.match(/Commande n°(\d{9})/)![1];
  const receipt = await emailText(admin, renewalId, "renewal_receipt");
  const invoiceUrl = linkTo(receipt, `/facture/${renewalId}`);
  expect(invoiceUrl).toMatch(new RegExp(`^/facture/${renewalId}\\?cle=[\\w-]{43}$`));
  await expect(renewalItem.getByTestId("subscription-invoice-link")).toHaveAttribute("href", invoiceUrl);
  await renewalItem.getByTestId("subscription-invoice-link").click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Facture n°");
  await expect(page.getByText(`Commande n°\u00a0${renewalId}`, { exact: false }).first()).toBeVisible();
  await gotoReady(page, payLink);
  await expect(page.getByRole("heading", { level: 1, name: "Cette échéance est déjà réglée" })).toBeVisible();
  // Paid: the pay link leads nowhere else; a fresh management link comes by email only.
  await expect(page.locator('a[href*="/mon-abonnement"]')).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Recevoir un nouveau lien" })).toBeVisible();
});
