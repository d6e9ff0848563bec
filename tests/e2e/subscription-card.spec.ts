import type { Browser, Page } from "@playwright/test";
import { EMULATOR, emulatorAuth, gotoReady } from "../helpers/e2e";
import { signIn } from "./admin-fixtures";
import { expect, fillCard, test } from "./checkout-fixtures";
import { adminApi, buySubscription, emailText, linkTo } from "./subscription-fixtures";

/**
 * « Changer de carte » on /mon-abonnement. With JavaScript on a phone: a subscriber whose renewal
 * failed saves a 3-D Secure card (3155), answers the bank's challenge, sees the new card and the
 * renewal paid, and the next simulated renewal is charged on that card. Without JavaScript: the
 * button says plainly that the card form needs it.
 */

test.describe.configure({ timeout: 150_000 });

async function emulatorGet(page: Page, path: string) {
  const response = await page.request.get(`${EMULATOR}${path}`, { headers: emulatorAuth() });
  expect(response.status(), path).toBe(200);
  return response.json();
}

async function emulatorPost(page: Page, path: string, form: Record<string, string> = {}) {
  const response = await page.request.post(`${EMULATOR}${path}`, { headers: emulatorAuth(), form });
  expect(response.status(), path).toBe(200);
  return response.json();
}

/** The subscription's card becomes one whose charges fail (its next renewal fails). */
async function switchToFailingCard(page: Page, subscriptionId: string) {
  const sub = await emulatorGet(page, `/v1/subscriptions/${subscriptionId}`);
  const pm = await emulatorPost(page, "/v1/payment_methods", {
    type: "card",
    "card[number]": "4000000000000341",
    "card[exp_month]": "12",
    "card[exp_year]": String(new Date().getFullYear() + 3),
    "card[cvc]": "123",
  });
  await emulatorPost(page, `/v1/payment_methods/${pm.id}/attach`, { customer: sub.customer });
  await emulatorPost(page, `/v1/subscriptions/${subscriptionId}`, { default_payment_method: pm.id });
}

/** The last 4 digits of the card that paid the subscription's newest invoice, at Stripe. */
async function lastChargedCard(page: Page, subscriptionId: string) {
  const invoices = await emulatorGet(page, `/v1/invoices?subscription=${subscriptionId}&limit=1&expand[]=data.payments`);
  const pi = invoices.data[0].payments.data[0].payment.payment_intent as string;
  const intent = await emulatorGet(page, `/v1/payment_intents/${pi}?expand[]=payment_method`);
  return { status: invoices.data[0].status as string, last4: intent.payment_method.card.last4 as string };
}

/** The admin simulates the next renewal (in a context of their own): the toast's text. */
async function simulateRenewal(browser: Browser, baseURL: string, id: number): Promise<string> {
  const context = await browser.newContext({ baseURL, locale: "fr-FR", timezoneId: "Europe/Paris" });
  const page = await context.newPage();
  try {
    await signIn(page);
    await gotoReady(page, `/admin/subscriptions/${id}`, true);
    await page.getByRole("button", { name: "Simuler le prochain renouvellement" }).click();
    const toast = page.getByTestId("toast");
    await expect(toast).toContainText("simulé", { timeout: 30_000 });
    return (await toast.textContent()) ?? "";
  } finally {
    await context.close();
  }
}

test("on a phone, after a failed renewal: a 3-D Secure card is saved, the renewal is paid on it, and so is the next one", async ({
  page,
  browser,
  baseURL,
  javaScriptEnabled,
}) => {
  test.skip(!javaScriptEnabled, "The card form is Stripe's field: it needs JavaScript (the no-JS case is below).");
  await page.setViewportSize({ width: 390, height: 844 });
  const { orderId, subscriptionId } = await buySubscription(browser, baseURL!);
  const admin = await adminApi(browser, baseURL!);
  const list = await (await admin.get(`/api/admin/subscriptions?q=${orderId}`)).json();
  const id = (list.subscriptions as { id: number; firstOrderId: number }[]).find((s) => String(s.firstOrderId) === orderId)!.id;
  // The first renewal fails on the old card.
  await switchToFailingCard(page, subscriptionId);
  expect(await simulateRenewal(browser, baseURL!, id)).toContain("Renouvellement n°1 simulé : le paiement a été refusé");
  const link = linkTo(await emailText(admin, orderId, "renewal_payment_failed"), "/mon-abonnement");
  await gotoReady(page, link, true);
  await expect(page.getByTestId("subscription-state")).toHaveText("Paiement en retard");

  const section = page.getByTestId("subscription-card");
  await expect(section).toContainText("Le renouvellement en attente sera réglé aussitôt sur la nouvelle carte.");
  await section.getByRole("button", { name: "Changer de carte" }).click();
  const form = section.getByTestId("card-setup-form");
  await expect(form.getByLabel("Numéro de carte")).toBeVisible();
  await fillCard(form, "4000002500003155");
  await form.getByRole("button", { name: "Enregistrer cette carte" }).click();

  // The bank's challenge, then the card is saved and the unpaid renewal paid on it.
  const challenge = page.getByRole("dialog", { name: "Authentification 3-D Secure" });
  await expect(challenge).toBeVisible();
  await page.screenshot({ path: "tests/.tmp/card-challenge-390.png" });
  await challenge.getByRole("button", { name: "Autoriser l'enregistrement" }).click();
  await expect(page.getByTestId("toast")).toContainText("Carte enregistrée");
  await expect(page.getByTestId("toast")).toContainText(
    "Le renouvellement n°1 en attente (25,90€) a été réglé avec cette carte.",
  );
  await expect(page.getByTestId("subscription-card-label")).toHaveText("Carte enregistrée : Visa •••• 3155");
  await expect(page.getByTestId("subscription-state")).toHaveText("Actif");
  await expect(page.getByTestId("subscription-unpaid")).toHaveCount(0);
  await expect(page.getByTestId("subscription-orders")).toContainText("Renouvellement n°1");
  await page.getByTestId("subscription-card").scrollIntoViewIfNeeded();
  await page.screenshot({ path: "tests/.tmp/card-changed-390.png" });
  expect(await lastChargedCard(page, subscriptionId)).toEqual({ status: "paid", last4: "3155" });
  const email = await emailText(admin, orderId, "subscription_changed");
  expect(email).toContain("Carte enregistrée : Visa •••• 3155.");
  expect(email).toContain("a été réglé avec cette carte");

  // The admin's history says who changed what; the next renewal is charged on the new card.
  const detail = await (await admin.get(`/api/admin/subscriptions/${id}`)).json();
  expect((detail.timeline as { kind: string; label: string }[]).filter((e) => e.kind === "change").map((e) => e.label)).toEqual([
    expect.stringMatching(/^Par le client : carte de paiement changée \(Visa •••• 3155\)/),
  ]);
  expect(await simulateRenewal(browser, baseURL!, id)).toMatch(/Renouvellement n°2 simulé : commande #\d+ créée/);
  expect(await lastChargedCard(page, subscriptionId)).toEqual({ status: "paid", last4: "3155" });
});

test("without JavaScript, « Changer de carte » says the card form needs it, with a way out", async ({
  page,
  browser,
  baseURL,
  javaScriptEnabled,
}) => {
  test.skip(javaScriptEnabled, "Without JavaScript only.");
  const { orderId } = await buySubscription(browser, baseURL!);
  const admin = await adminApi(browser, baseURL!);
  await gotoReady(page, linkTo(await emailText(admin, orderId, "order_confirmation"), "/mon-abonnement"), false);
  await page.getByTestId("subscription-card").getByRole("button", { name: "Changer de carte" }).click();
  const problem = page.getByTestId("card-problem");
  await expect(problem).toContainText("nécessite JavaScript : activez-le dans votre navigateur puis rechargez cette page");
  await expect(problem.getByRole("link", { name: "Nous contacter" })).toHaveAttribute("href", "/contact");
  await problem.scrollIntoViewIfNeeded();
  await page.screenshot({ path: "tests/.tmp/card-no-js-1280.png" });
  // Still the subscription's page, with everything else on it.
  await expect(page.getByRole("heading", { level: 1, name: "Mon abonnement" })).toBeVisible();
  await expect(page.getByTestId("subscription-card-label")).toHaveText("La carte de votre premier paiement");
});
