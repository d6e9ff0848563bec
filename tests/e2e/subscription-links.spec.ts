import AxeBuilder from "@axe-core/playwright";
import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { dataDir } from "../../playwright.config";
import { gotoReady } from "../helpers/e2e";
import { expect, test } from "./checkout-fixtures";
import { adminApi, buySubscription, emailText, linkTo } from "./subscription-fixtures";

/**
 * The links of the emails give what they should and no more: an expired management link
 * offers « Recevoir un nouveau lien », whose email opens the page; an order's view link shows
 * the order but never the subscription's page, and sends a management link by email instead.
 */

test.describe.configure({ timeout: 120_000 });

/** A management link of the e2e server's subscription `id`, signed with its secret, expired an hour ago. */
function expiredManagementLink(id: string): string {
  const secret = readFileSync(path.join(dataDir, ".session-secret"), "utf8").trim().split(",")[0];
  const expire = Math.floor(Date.now() / 1000) - 3600;
  const key = createHmac("sha256", secret).update(`subscription-page:${id}:${expire}`, "utf8").digest("base64url");
  return `/mon-abonnement?id=${id}&expire=${expire}&cle=${key}`;
}

async function checkA11y(page: Page, javaScriptEnabled: boolean) {
  if (!javaScriptEnabled) return;
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  expect(
    results.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.help}`),
  ).toEqual([]);
}

test("an expired link offers « Recevoir un nouveau lien »; the email's new link opens the subscription", async ({
  page,
  browser,
  baseURL,
  javaScriptEnabled,
}) => {
  const email = `lien.${crypto.randomUUID().slice(0, 8)}@example.fr`;
  const { orderId } = await buySubscription(browser, baseURL!, { email });
  const admin = await adminApi(browser, baseURL!);
  const first = linkTo(await emailText(admin, orderId, "order_confirmation"), "/mon-abonnement");
  const id = new URL(first, baseURL).searchParams.get("id")!;

  const response = await gotoReady(page, expiredManagementLink(id), javaScriptEnabled);
  expect(response?.status()).toBe(410);
  await expect(page.getByRole("heading", { level: 1, name: "Ce lien a expiré" })).toBeVisible();
  await checkA11y(page, javaScriptEnabled);
  const field = page.getByLabel("Adresse email de l'abonnement");
  await expect(field).toHaveValue("");

  // A bad address: the form's message, nothing sent.
  await field.fill("pas-une-adresse");
  await page.getByRole("button", { name: "Recevoir un nouveau lien" }).click();
  await expect(page.getByText("Adresse email invalide")).toBeVisible();

  await page.getByLabel("Adresse email de l'abonnement").fill(email.toUpperCase());
  await page.getByRole("button", { name: "Recevoir un nouveau lien" }).click();
  await expect(page).toHaveURL(/\/mon-abonnement\?lien=envoye$/);
  await expect(page.getByTestId("new-link-sent")).toHaveText(
    "Si un abonnement correspond à cette adresse, un nouveau lien vient d'y être envoyé. Il est valable 7 jours.",
  );

  const text = await emailText(admin, orderId, "subscription_link");
  expect(text).toContain("Ce lien est valable 7 jours ; vous pourrez en demander un nouveau sur la page.");
  const fresh = linkTo(text, "/mon-abonnement");
  const opened = await gotoReady(page, fresh, javaScriptEnabled);
  expect(opened?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1, name: "Mon abonnement" })).toBeVisible();
  await expect(page.getByTestId("subscription-state")).toHaveText("Actif");
});

test("an order's view link shows the order, never the subscription's page, and emails a management link instead", async ({
  page,
  browser,
  baseURL,
  javaScriptEnabled,
}) => {
  const email = `vue.${crypto.randomUUID().slice(0, 8)}@example.fr`;
  const { orderId } = await buySubscription(browser, baseURL!, { email });
  const admin = await adminApi(browser, baseURL!);
  const tracking = linkTo(await emailText(admin, orderId, "order_confirmation"), "/track-order");
  const cle = new URL(tracking, baseURL).searchParams.get("cle")!;

  // The tracking page of the email: the order and its address, no way to the subscription's page.
  await gotoReady(page, tracking, javaScriptEnabled);
  await expect(page.getByTestId("tracking-result")).toContainText(`Commande n°${orderId}`);
  await expect(page.locator('a[href*="/mon-abonnement"]')).toHaveCount(0);

  // The confirmation page with the same key (another browser than the buyer's).
  await gotoReady(page, `/order-confirmation/${orderId}?cle=${cle}`, javaScriptEnabled);
  await expect(page.getByTestId("subscription-summary")).toBeVisible();
  await expect(page.locator('a[href*="/mon-abonnement"]')).toHaveCount(0);
  await expect(page.getByTestId("subscription-cancel-link")).toBeVisible();
  await checkA11y(page, javaScriptEnabled);
  await page.getByRole("button", { name: "Recevoir un lien de gestion par email" }).click();
  await expect(page.getByTestId("toast")).toContainText("un lien pour le gérer vient d'être envoyé à son adresse email");
  await expect(page.locator('a[href*="/mon-abonnement"]')).toHaveCount(0);

  const sent = linkTo(await emailText(admin, orderId, "subscription_link"), "/mon-abonnement");
  await gotoReady(page, sent, javaScriptEnabled);
  await expect(page.getByTestId("subscription-state")).toHaveText("Actif");
});
