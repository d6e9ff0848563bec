import type { Page } from "@playwright/test";
import { expect, test } from "./shopper";
import { fillDelivery, PACK_2 } from "./checkout-fixtures";

/**
 * The moment between the page on screen and its scripts running, with JavaScript on: a slow
 * phone shows the page well before it has hydrated, and a shopper taps what they see. Their
 * taps and posts must still do the right thing: the page's forms are plain HTML forms, so the
 * browser posts them as a whole page, exactly as without JavaScript.
 */
test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "the gap only exists with JavaScript on");

/** Holds back every script of the shop's build until `release` is called: the page stays as its HTML made it. */
async function holdScripts(page: Page) {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/.+\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

test("« Commander » tapped before the scripts run posts the pack to the cart as a whole page", async ({ page }) => {
  const release = await holdScripts(page);
  await page.goto("/product/1", { waitUntil: "commit" });
  await page.getByRole("radio", { name: PACK_2 }).check();
  await page.getByRole("button", { name: "Commander" }).click();

  await expect(page).toHaveURL(/\/panier$/);
  await expect(page.getByRole("heading", { level: 1, name: "Mon panier" })).toBeVisible();
  await expect(page.getByTestId("cart-line")).toContainText(PACK_2);
  await expect(page.getByTestId("cart-total")).toHaveText("25,90€");
  expect(await page.evaluate(() => document.documentElement.dataset.hydrated)).toBeUndefined();

  // Once the scripts arrive, the same page hydrates with the same cart.
  release();
  await page.waitForSelector("html[data-hydrated]");
  await expect(page.getByTestId("cart-line")).toHaveCount(1);
  await expect(page.getByTestId("cart-count")).toHaveText("1");
});

test("the delivery form sent before the scripts run reaches the payment step as a whole page", async ({ page }) => {
  // The pack, ordered on a page that has hydrated.
  await page.goto("/product/1");
  await page.waitForSelector("html[data-hydrated]");
  await page.getByRole("radio", { name: PACK_2 }).check();
  await page.getByRole("button", { name: "Commander" }).click();
  await expect(page.getByRole("dialog").getByTestId("cart-line")).toHaveCount(1);

  const release = await holdScripts(page);
  await page.goto("/panier?etape=livraison", { waitUntil: "commit" });
  await expect(page.getByRole("heading", { level: 1, name: "Informations de livraison" })).toBeVisible();
  // Sent empty first: the server's French messages, on the page it sends back.
  await page.getByRole("button", { name: "Continuer vers le paiement" }).click();
  await expect(page.getByText("Adresse email invalide")).toBeVisible();
  await fillDelivery(page);
  await page.getByRole("button", { name: "Continuer vers le paiement" }).click();
  await expect(page).toHaveURL(/etape=paiement/);
  await expect(page.getByRole("heading", { level: 1, name: "Finaliser la commande" })).toBeVisible();
  await expect(page.getByTestId("checkout-order-id")).toHaveText(/^[1-9]\d{8}$/);
  expect(await page.evaluate(() => document.documentElement.dataset.hydrated)).toBeUndefined();

  // The scripts then hydrate the payment step: its card field appears.
  release();
  await page.waitForSelector("html[data-hydrated]");
  await expect(page.getByLabel("Numéro de carte")).toBeVisible();
});
