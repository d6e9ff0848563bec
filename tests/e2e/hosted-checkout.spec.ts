import type { Page } from "@playwright/test";
import { EMULATOR, testShopperHeaders } from "../helpers/e2e";
import { CARDS, expect, test } from "./checkout-fixtures";

/**
 * Paying without JavaScript: the payment step sends the shopper to the hosted payment page
 * (a Stripe Checkout Session, served by the emulator in demo mode), and back to the shop.
 */

test.skip(({ javaScriptEnabled }) => javaScriptEnabled, "the hosted payment page is the path without JavaScript");

const AUTHENTICATION_CARD = "4000 0025 0000 3155";

test.beforeEach(async ({ page }) => {
  // A shopper of its own (the delivery form is counted per address).
  await page.setExtraHTTPHeaders(testShopperHeaders());
});

/** Pack 2, the delivery form on /panier, then « Payer sur la page de paiement sécurisée ». */
async function reachHostedPage(page: Page, orderPack2: () => Promise<void>, fillDelivery: (page: Page) => Promise<void>) {
  await orderPack2();
  await page.getByRole("link", { name: "Procéder au paiement" }).click();
  await fillDelivery(page);
  await page.getByRole("button", { name: "Continuer vers le paiement" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Finaliser la commande" })).toBeVisible();
  await expect(page.getByText("Le paiement par carte nécessite JavaScript")).toHaveCount(0);
  const orderId = (await page.getByTestId("checkout-order-id").textContent())!.trim();
  await page.getByRole("button", { name: "Payer sur la page de paiement sécurisée" }).click();
  // The emulator's own page, on its own origin.
  await expect(page).toHaveURL(new RegExp(`^${EMULATOR}/c/pay/cs_test_`));
  await expect(page.getByRole("heading", { level: 1, name: "Paiement sécurisé" })).toBeVisible();
  await expect(page.getByText("25,90 €").first()).toBeVisible();
  return orderId;
}

async function payOnHostedPage(page: Page, number: string) {
  await page.getByLabel("Numéro de carte").fill(number);
  await page.getByLabel("Date d'expiration").fill(`12/${String(new Date().getFullYear() + 2).slice(2)}`);
  await page.getByLabel("CVC").fill("123");
  await page.getByRole("button", { name: "Payer", exact: true }).click();
}

async function expectPaidConfirmation(page: Page, orderId: string) {
  await expect(page).toHaveURL(new RegExp(`/order-confirmation/${orderId}\\?session_id=cs_test_`));
  // Paid at once, or after the page's own refresh (« Paiement en cours de confirmation »).
  await expect(page.getByTestId("order-status-badge")).toHaveText("Payée", { timeout: 15_000 });
  await expect(page.getByText("Votre paiement a bien été reçu.")).toBeVisible();
  await expect(page.getByTestId("order-number")).toHaveText(orderId);
  // The name and street show: this browser is the buyer's.
  await expect(page.getByText("8 rue des Fleurs")).toBeVisible();
}

test("a one-off purchase through the hosted page with 4242 ends on « Payée », and the cart is emptied", async ({
  page,
  orderPack2,
  fillDelivery,
}) => {
  const orderId = await reachHostedPage(page, orderPack2, fillDelivery);
  await expect(page.getByRole("link", { name: "Annuler" })).toBeVisible();
  await payOnHostedPage(page, CARDS.success);
  await expectPaidConfirmation(page, orderId);
  await page.goto("/panier");
  await expect(page.getByText("Votre panier est vide")).toBeVisible();
});

test("a declined card stays on the hosted page with its French message; « Annuler » returns to the payment step", async ({
  page,
  orderPack2,
  fillDelivery,
}) => {
  const orderId = await reachHostedPage(page, orderPack2, fillDelivery);
  await payOnHostedPage(page, CARDS.declined);
  await expect(page.getByRole("alert")).toHaveText("Votre carte a été refusée.");
  await expect(page).toHaveURL(new RegExp(`^${EMULATOR}/c/pay/`));
  // Typed again, nothing kept: the card number is never shown back.
  await expect(page.getByLabel("Numéro de carte")).toHaveValue("");

  await page.getByRole("link", { name: "Annuler" }).click();
  await expect(page).toHaveURL(/\/panier\?etape=paiement$/);
  await expect(page.getByTestId("checkout-order-id")).toHaveText(orderId);
  // Still unpaid: the order's page says so.
  await page.goto(`/order-confirmation/${orderId}`);
  await expect(page.getByTestId("order-status-badge")).toHaveText("En attente");
});

test("a 3-D Secure card: the challenge is a second page; « Refuser » then « Autoriser le paiement » pays the order", async ({
  page,
  orderPack2,
  fillDelivery,
}) => {
  const orderId = await reachHostedPage(page, orderPack2, fillDelivery);
  await payOnHostedPage(page, AUTHENTICATION_CARD);
  await expect(page.getByRole("heading", { name: "Authentification 3-D Secure" })).toBeVisible();
  await page.getByRole("button", { name: "Refuser" }).click();
  await expect(page.getByRole("alert")).toHaveText(
    "L'authentification de votre carte a échoué. Réessayez ou utilisez une autre carte.",
  );

  await payOnHostedPage(page, AUTHENTICATION_CARD);
  await expect(page.getByRole("heading", { name: "Authentification 3-D Secure" })).toBeVisible();
  await page.getByRole("button", { name: "Autoriser le paiement" }).click();
  await expectPaidConfirmation(page, orderId);
});

test("the subscription needs its consent box, as on the card form", async ({ page, orderPack2, fillDelivery }) => {
  await orderPack2();
  await page.getByRole("link", { name: "Procéder au paiement" }).click();
  await fillDelivery(page);
  await page.getByRole("button", { name: "Continuer vers le paiement" }).click();
  await page.getByRole("radio", { name: /Abonnement/ }).check();
  await page.getByRole("button", { name: "Payer sur la page de paiement sécurisée" }).click();
  await expect(page).toHaveURL(/\/panier\?etape=paiement$/);
  await expect(page.getByText("Veuillez accepter les conditions de l'abonnement pour continuer.")).toBeVisible();

  await page.getByRole("radio", { name: /Abonnement/ }).check();
  await page.getByRole("checkbox", { name: /j'accepte l'abonnement/ }).check();
  await page.getByRole("button", { name: "Payer sur la page de paiement sécurisée" }).click();
  await expect(page).toHaveURL(new RegExp(`^${EMULATOR}/c/pay/cs_test_`));
  await expect(page.getByText("Abonnement : les prélèvements suivants sont faits avec cette carte.")).toBeVisible();
});
