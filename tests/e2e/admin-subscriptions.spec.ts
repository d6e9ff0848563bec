import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { gotoReady } from "../helpers/e2e";
import { signIn } from "./admin-fixtures";
import { expect, test } from "./checkout-fixtures";
import { adminApi, buySubscription, emailText, linkTo } from "./subscription-fixtures";

/**
 * The admin's subscriptions: a shopper subscribes with card 4242; the admin finds the
 * subscription, simulates its next renewal on the customer's test clock (demo mode: the
 * emulator's), and sees the renewal order and its email; the customer's own page, opened from
 * the renewal email's link, shows both orders. With JavaScript and without.
 */

test.describe.configure({ timeout: 150_000 });

/** No serious or critical axe violation, and no sideways scroll of the page. */
async function expectAccessible(page: Page, label: string) {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  const blocking = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(blocking.map((v) => `${label} ${v.id}: ${v.help}`)).toEqual([]);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${label} scrolls sideways`).toBeLessThanOrEqual(0);
}

test("the admin simulates the next renewal: the renewal order and its email appear", async ({
  page,
  browser,
  baseURL,
  javaScriptEnabled,
}) => {
  const { orderId } = await buySubscription(browser, baseURL!);
  await signIn(page);

  // The list, found by the subscription's order number (the menu has the entry).
  await gotoReady(page, "/admin/orders", javaScriptEnabled);
  await page.getByRole("navigation").getByRole("link", { name: "Abonnements" }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "Abonnements" })).toBeVisible();
  await page.getByLabel("Client (nom ou email)").fill(orderId);
  await page.getByRole("button", { name: "Filtrer" }).click();
  const table = page.getByRole("region", { name: "Liste des abonnements" });
  await expect(table.getByRole("row")).toHaveCount(2);
  const row = table.getByRole("row").nth(1);
  await expect(row).toContainText("Camille Martin");
  await expect(row).toContainText("25,90€");
  await expect(row).toContainText("Actif");
  await row.getByRole("link", { name: /Voir l'abonnement/ }).click();

  // The detail: the first order, then the simulation.
  await expect(page.getByRole("heading", { level: 1, name: /^Abonnement n°\d+$/ })).toBeVisible();
  const orders = page.getByTestId("subscription-orders");
  await expect(orders).toContainText(`#${orderId}`);
  await expect(orders).toContainText("Commande de souscription");
  await page.getByRole("button", { name: "Simuler le prochain renouvellement" }).click();
  const toast = page.getByTestId("toast");
  await expect(toast).toContainText(/Renouvellement n°1 simulé : commande #\d+ créée/, { timeout: 30_000 });
  const renewalId = /commande #(\d+) créée/.exec((await toast.textContent()) ?? "")![1];
  await expect(orders).toContainText(`#${renewalId}`);
  await expect(orders).toContainText("Renouvellement n°1");
  await expect(page.getByTestId("subscription-timeline")).toContainText(`Renouvellement n°1 payé : commande #${renewalId}`);

  // The detail and its confirmation step, at a phone's width and a desktop's (axe runs scripts: JavaScript only).
  if (javaScriptEnabled) {
    const detail = page.url();
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await gotoReady(page, detail);
      await expectAccessible(page, `${width}px detail`);
      await page.getByRole("link", { name: "Résilier maintenant" }).click();
      await expect(page.getByRole("alertdialog", { name: "Résilier maintenant ?" })).toBeVisible();
      await expectAccessible(page, `${width}px confirmation`);
      await page.getByRole("link", { name: "Ne pas résilier" }).click();
      await expect(page.getByRole("alertdialog")).toHaveCount(0);
    }
  }

  // The renewal order in the order list, and its email in the mailbox.
  await gotoReady(page, `/admin/orders?q=${renewalId}`, javaScriptEnabled);
  const orderRow = page.getByRole("row", { name: new RegExp(`#${renewalId}`) });
  await expect(orderRow).toContainText("Renouvellement n°1");
  await expect(orderRow).toContainText("Commande reçue");
  await gotoReady(page, `/admin/emails?order=${renewalId}`, javaScriptEnabled);
  await expect(page.getByRole("main")).toContainText("Renouvellement d'abonnement payé");

  // The customer's receipt links to their page, which now lists the first order and the renewal.
  const receipt = await emailText(await adminApi(browser, baseURL!), renewalId, "renewal_receipt");
  expect(receipt).toContain(`n°${renewalId}`);
  await gotoReady(page, linkTo(receipt, "/mon-abonnement"), javaScriptEnabled);
  await expect(page.getByRole("heading", { level: 1, name: "Mon abonnement" })).toBeVisible();
  const customerOrders = page.getByTestId("subscription-orders");
  await expect(customerOrders).toContainText(`Commande n°${orderId}`);
  await expect(customerOrders).toContainText(`Commande n°${renewalId}`);
  await expect(customerOrders.getByRole("link", { name: /^Suivre la commande n°/ })).toHaveCount(2);
});
