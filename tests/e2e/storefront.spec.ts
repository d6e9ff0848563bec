import type { Locator, Page } from "@playwright/test";
import { gotoReady } from "../helpers/e2e";
import { CARDS, CUSTOMER, expect, fillDelivery, orderPack2, test } from "./checkout-fixtures";

/**
 * The shopper's pages on a phone (390 px) and a desktop (1280 px): the subscription's pay
 * button and confirmation, the cancellation's answer, toasts that hide nothing, the contact
 * and delivery forms' messages.
 */

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const SHOTS = process.env.SHOTS_DIR;

async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png` });
}

/** True when the two elements' boxes on screen share some area. */
async function overlap(a: Locator, b: Locator): Promise<boolean> {
  const [x, y] = [await a.boundingBox(), await b.boundingBox()];
  if (!x || !y) return false;
  return x.x < y.x + y.width && y.x < x.x + x.width && x.y < y.y + y.height && y.y < x.y + x.height;
}

/** dd/mm/yyyy in Paris, `days` from today. */
function parisDate(days: number): string {
  return new Intl.DateTimeFormat("fr-FR", { timeZone: "Europe/Paris", day: "2-digit", month: "2-digit", year: "numeric" }).format(
    new Date(Date.now() + days * 86_400_000),
  );
}

// Whole journeys (product page, cart, delivery, payment) on a shared machine.
test.describe.configure({ timeout: 60_000 });

test.describe("with JavaScript", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "the card payment and the drawer need JavaScript");

  test("a subscription on a phone: the button says it repeats, the consent toast goes once ticked, the confirmation says when the next charge is and where to cancel", async ({
    page,
    paymentStep,
    fillCard,
  }) => {
    await page.setViewportSize(PHONE);
    const { form, orderId } = await paymentStep();

    // The terms of sale and the withdrawal right, next to the button, in a new tab (the card typed stays).
    const terms = form.getByTestId("pay-terms");
    await expect(terms.getByRole("link", { name: /conditions générales de vente/ })).toHaveAttribute("href", "/cgv");
    await expect(terms.getByRole("link", { name: /droit de rétractation de 14 jours/ })).toHaveAttribute(
      "href",
      "/cgv#retractation",
    );
    await expect(terms.getByRole("link", { name: /droit de rétractation/ })).toHaveAttribute("target", "_blank");
    await expect(form.getByRole("button", { name: "Payer 25,90€", exact: true })).toBeVisible();

    await form.getByRole("radio", { name: /Abonnement/ }).check();
    const pay = form.getByRole("button", { name: "Payer 25,90€ puis toutes les 4 semaines" });
    await expect(pay).toBeVisible();
    const consent = form.getByRole("checkbox", { name: /J'accepte l'abonnement/ });
    await expect(
      form.getByText(/J'accepte l'abonnement/).getByRole("link", { name: /conditions générales de vente/ }),
    ).toHaveAttribute("href", "/cgv#abonnement");

    // Paid without the consent: the toast and the message; ticked, both go.
    await fillCard(form, CARDS.success);
    await pay.click();
    const toast = page.getByTestId("toast");
    await expect(toast).toContainText("Informations manquantes");
    await expect(form.getByTestId("payment-error")).toContainText("Veuillez accepter les conditions de l'abonnement");
    expect(await overlap(toast, pay)).toBe(false);
    await consent.check();
    await expect(toast).toHaveCount(0);
    await expect(form.getByTestId("payment-error")).toHaveCount(0);

    await pay.click();
    await expect(page).toHaveURL(new RegExp(`/order-confirmation/${orderId}$`), { timeout: 15_000 });
    const summary = page.getByTestId("subscription-summary");
    await expect(summary.getByRole("heading", { name: "Votre abonnement est actif" })).toBeVisible();
    await expect(summary.getByTestId("subscription-amount")).toHaveText("25,90€ toutes les 4 semaines");
    await expect(summary.getByTestId("subscription-next-charge")).toHaveText(
      `Le ${parisDate(30)} (25,90€), puis toutes les 4 semaines`,
    );
    await expect(summary.getByTestId("subscription-email")).toContainText(CUSTOMER.email);
    await expect(summary.getByTestId("subscription-manage-link")).toHaveAttribute(
      "href",
      /^\/mon-abonnement\?id=\d+&expire=\d+&cle=[\w-]{43}$/,
    );
    const cancelLink = summary.getByTestId("subscription-cancel-link");
    await expect(cancelLink).toHaveAttribute("href", `/abonnement/resilier?commande=${orderId}`);
    // The payment's toast covers neither the subscription nor the total.
    if (await toast.count()) {
      expect(await overlap(toast, summary)).toBe(false);
      expect(await overlap(toast, page.getByTestId("order-total"))).toBe(false);
    }
    await shot(page, "subscription-confirmation-390");

    await page.setViewportSize(DESKTOP);
    await expect(summary).toBeInViewport();
    await shot(page, "subscription-confirmation-1280");

    // Cancelled online from there, on a phone: the answer is brought into view.
    await page.setViewportSize(PHONE);
    await cancelLink.click();
    await expect(page.getByLabel("Numéro de commande")).toHaveValue(orderId);
    await page.getByLabel("Adresse email").fill(CUSTOMER.email);
    await page.getByRole("button", { name: "Résilier mon abonnement" }).click();
    const done = page.getByTestId("subscription-cancel-success");
    await expect(done).toContainText("Votre abonnement a été résilié.");
    await expect(done).toBeInViewport();
    await expect(done).toBeFocused();
    await shot(page, "subscription-canceled-390");
  });

  test("a declined card on a phone: the toast covers neither the pay button nor the message, and goes when the card is changed", async ({
    page,
    paymentStep,
    payWithCard,
  }) => {
    await page.setViewportSize(PHONE);
    const { form } = await paymentStep();
    await payWithCard(form, CARDS.declined);
    const toast = page.getByTestId("toast");
    const error = form.getByTestId("payment-error");
    const pay = form.getByTestId("pay-button");
    await expect(toast).toContainText("Carte refusée");
    await expect(error).toContainText("Carte refusée");
    await expect(pay).toBeInViewport();
    await expect(error).toBeInViewport();
    // Focus moves to the message that reports the result.
    await expect(error).toBeFocused();
    expect(await overlap(toast, pay)).toBe(false);
    expect(await overlap(toast, error)).toBe(false);
    await shot(page, "declined-390");

    await form.getByLabel("Numéro de carte").fill(CARDS.success);
    await expect(toast).toHaveCount(0);
    await expect(error).toHaveCount(0);
  });

  test("the contact form shows its French messages on an empty submit", async ({ page }) => {
    await gotoReady(page, "/contact");
    await page.getByRole("button", { name: "Envoyer le message" }).click();
    for (const message of [
      "Le nom doit contenir au moins 2 caractères.",
      "Veuillez entrer une adresse email valide.",
      "L'objet doit contenir au moins 2 caractères.",
      "Le message doit contenir au moins 10 caractères.",
    ]) {
      await expect(page.getByText(message)).toBeVisible();
    }
    await expect(page.getByLabel("Nom", { exact: true })).toBeFocused();
    await expect(page.getByLabel("Nom", { exact: true })).toHaveAttribute("aria-invalid", "true");
  });
});

test("the delivery form refuses a postal code that is not 5 digits and a foreign telephone, and keeps the second address line", async ({
  page,
  javaScriptEnabled,
}) => {
  await orderPack2(page, javaScriptEnabled);
  const scope = javaScriptEnabled ? page.getByRole("dialog") : page.locator("main");
  await scope.getByTestId("cart-checkout").click();

  await fillDelivery(scope, { postalCode: "ABCDE" });
  await scope.getByLabel("Téléphone (facultatif)").fill("+44 20 7946 0958");
  await scope.getByRole("button", { name: "Continuer vers le paiement" }).click();
  await expect(scope.getByText("Saisissez un code postal à 5 chiffres")).toBeVisible();
  await expect(scope.getByText(/Saisissez un numéro de téléphone français à 10 chiffres/)).toBeVisible();
  await expect(scope.getByRole("heading", { name: "Finaliser la commande" })).toHaveCount(0);

  await scope.getByLabel("Code postal").fill("69003");
  await scope.getByLabel("Téléphone (facultatif)").fill("06 12 34 56 78");
  await scope.getByLabel("Complément d'adresse (facultatif)").fill("Bâtiment B");
  await scope.getByRole("button", { name: "Continuer vers le paiement" }).click();
  await expect(scope.getByRole("heading", { name: "Finaliser la commande" })).toBeVisible();
  await expect(scope).toContainText("8 rue des Fleurs, Bâtiment B, 69003 Lyon");
});

test.describe("without JavaScript", () => {
  test.skip(({ javaScriptEnabled }) => javaScriptEnabled, "the × of a toast without JavaScript");

  test("a toast's × closes it", async ({ page }) => {
    await orderPack2(page, false);
    await expect(page).toHaveURL(/\/panier$/);
    const toast = page.getByTestId("toast");
    await expect(toast).toContainText("Produit ajouté");
    await toast.getByRole("button", { name: "Fermer la notification" }).click();
    await expect(page).toHaveURL(/\/panier$/);
    await expect(toast).toHaveCount(0);
    await expect(page.getByTestId("cart-line")).toContainText("6 masques + 2 offerts");
  });
});

test("the search and the FAQ lead to the online cancellation", async ({ page }) => {
  await page.goto("/recherche?q=résilier");
  await expect(page.getByTestId("search-results").getByRole("link").first()).toHaveAttribute("href", "/abonnement/resilier");
  await page.goto("/faq#comment-fonctionne-l-abonnement");
  const answer = page.locator("#comment-fonctionne-l-abonnement");
  await expect(answer).toContainText("résilier en ligne");
  await expect(answer.getByRole("link", { name: "Résilier mon abonnement" })).toHaveAttribute("href", "/abonnement/resilier");
});
