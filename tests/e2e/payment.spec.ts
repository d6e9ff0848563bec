import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { EMULATOR, emulatorAuth, gotoReady } from "../helpers/e2e";

/**
 * Card payment in the checkout drawer, against the production build in demo mode: the
 * browser's Stripe.js is the local emulator's stand-in, reached through our own origin.
 */

test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "card payment needs JavaScript");
// A whole purchase (product page, drawer, delivery, payment, confirmation) per test.
test.describe.configure({ timeout: 60_000 });

const CARD = {
  success: "4242 4242 4242 4242",
  declined: "4000 0000 0000 0002",
  incorrectCvc: "4000 0000 0000 0127",
  incorrectZip: "4000 0000 0000 0036",
};

async function reachPaymentStep(page: Page) {
  await gotoReady(page, "/product/1");
  await page.getByRole("radio", { name: "6 masques + 2 offerts" }).check();
  await page.getByRole("button", { name: "Commander" }).click();
  const drawer = page.getByRole("dialog");
  await drawer.getByRole("button", { name: "Procéder au paiement" }).click();
  await drawer.getByLabel("Prénom").fill("Camille");
  await drawer.getByLabel("Nom", { exact: true }).fill("Martin");
  await drawer.getByLabel("Email").fill("camille.martin@example.fr");
  await drawer.getByLabel("Adresse").fill("8 rue des Fleurs");
  await drawer.getByLabel("Code postal").fill("69003");
  await drawer.getByLabel("Ville").fill("Lyon");
  await drawer.getByRole("button", { name: "Continuer vers le paiement" }).click();
  await expect(drawer.getByRole("heading", { name: "Finaliser la commande" })).toBeVisible();
  const orderId = (await drawer.getByTestId("checkout-order-id").textContent())!.trim();
  const form = drawer.getByTestId("payment-form");
  await expect(form.getByLabel("Numéro de carte")).toBeVisible();
  return { drawer, form, orderId };
}

async function fillCard(form: Locator, number: string) {
  await form.getByLabel("Numéro de carte").fill(number);
  await form.getByLabel("Expiration (MM / AA)").fill(`12${String(new Date().getFullYear() + 2).slice(2)}`);
  await form.getByLabel("CVC").fill("123");
}

async function paymentStatus(page: Page, orderId: string) {
  const order = await (await page.request.get(`/api/orders/${orderId}`)).json();
  return order.paymentStatus as string;
}

test("Stripe.js is only loaded on the payment step", async ({ page }) => {
  const scripts: string[] = [];
  page.on("request", (r) => {
    if (r.url().includes("stripe")) scripts.push(r.url());
  });
  await page.goto("/");
  await page.goto("/product/1");
  expect(await page.evaluate(() => "Stripe" in window)).toBe(false);
  expect(scripts).toEqual([]);
  await reachPaymentStep(page);
  expect(await page.evaluate(() => "Stripe" in window)).toBe(true);
  expect(scripts.some((url) => url.endsWith("/stripe-emulator.js"))).toBe(true);
  expect(scripts.some((url) => url.includes("js.stripe.com"))).toBe(false);
});

test("one-off purchase with 4242: the server confirms, the cart empties, the confirmation shows the order paid", async ({ page }) => {
  const { form, orderId } = await reachPaymentStep(page);
  // Prefilled from the delivery form.
  await expect(form.getByLabel("Prénom")).toHaveValue("Camille");
  await expect(form.getByLabel("Code postal")).toHaveValue("69003");
  await expect(form.getByLabel("Code postal")).toHaveAttribute("maxlength", "5");
  await expect(form.getByRole("radio", { name: /Achat unique/ })).toBeChecked();

  const pay = form.getByRole("button", { name: "Payer 25,90€" });
  await expect(pay).toBeDisabled();
  await fillCard(form, CARD.success);
  await expect(pay).toBeEnabled();

  // Enter in the card field does not pay.
  let started = 0;
  page.on("request", (r) => {
    if (r.url().endsWith("/api/payments/start")) started++;
  });
  await form.getByLabel("CVC").press("Enter");
  await form.getByLabel("Ville").press("Enter");
  await page.waitForTimeout(300);
  expect(started).toBe(0);

  await pay.click();
  await expect(page).toHaveURL(new RegExp(`/order-confirmation/${orderId}$`), { timeout: 15_000 });
  await expect(page.getByText("Merci pour votre commande!")).toBeVisible();
  await expect(page.getByText("Payée").first()).toBeVisible();
  expect(started).toBe(1);
  expect(await paymentStatus(page, orderId)).toBe("paid");
  await expect(page.getByTestId("cart-button")).not.toContainText(/[1-9]/);

  // Stripe's signed webhook reached the shop too (the emulator's own record of its deliveries).
  await expect
    .poll(async () => {
      const { data } = (await (await page.request.get(`${EMULATOR}/__emulator/events`, { headers: emulatorAuth() })).json()) as { data: Array<{ type: string; deliveries: Array<{ status: number }> }> };
      return data.some((e) => e.type === "payment_intent.succeeded" && e.deliveries.some((d) => d.status === 200));
    })
    .toBe(true);
});

test("the payment step has no serious accessibility violation", async ({ page }) => {
  const { form } = await reachPaymentStep(page);
  await form.getByRole("radio", { name: /Abonnement/ }).check();
  await form.getByLabel("Ville").fill("");
  await form.getByRole("button", { name: "Payer 25,90€" }).isDisabled();
  const results = await new AxeBuilder({ page }).include('[data-testid="payment-form"]').withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  const blocking = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(blocking.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`)).toEqual([]);
});

test("a declined card shows why, leaves the order unpaid, and another card then pays it", async ({ page }) => {
  const { form, orderId } = await reachPaymentStep(page);
  await fillCard(form, CARD.declined);
  await form.getByRole("button", { name: "Payer 25,90€" }).click();
  const alert = form.getByRole("alert");
  await expect(alert).toContainText("Carte refusée");
  await expect(page.getByTestId("toast")).toContainText("Carte refusée");
  expect(await paymentStatus(page, orderId)).toBe("unpaid");

  await form.getByLabel("Numéro de carte").fill(CARD.success);
  await form.getByRole("button", { name: "Payer 25,90€" }).click();
  await expect(page).toHaveURL(new RegExp(`/order-confirmation/${orderId}$`), { timeout: 15_000 });
  expect(await paymentStatus(page, orderId)).toBe("paid");
});

test("incorrect CVC and postal code are named", async ({ page }) => {
  const { form, orderId } = await reachPaymentStep(page);
  await fillCard(form, CARD.incorrectCvc);
  await form.getByRole("button", { name: "Payer 25,90€" }).click();
  await expect(form.getByRole("alert")).toContainText("Code CVC incorrect");
  await form.getByLabel("Numéro de carte").fill(CARD.incorrectZip);
  await form.getByRole("button", { name: "Payer 25,90€" }).click();
  await expect(form.getByRole("alert")).toContainText("Code postal incorrect");
  expect(await paymentStatus(page, orderId)).toBe("unpaid");
});

test("the billing address is checked with the spec's messages", async ({ page }) => {
  const { form } = await reachPaymentStep(page);
  await fillCard(form, CARD.success);
  await form.getByLabel("Code postal").fill("");
  await form.getByLabel("Ville").fill("");
  await form.getByRole("button", { name: "Payer 25,90€" }).click();
  await expect(form.getByText("Le code postal est requis")).toBeVisible();
  await expect(form.getByText("La ville est requise")).toBeVisible();
  await expect(page.getByTestId("toast")).toContainText("Informations manquantes");
  await expect(form.getByLabel("Code postal")).toHaveAttribute("aria-invalid", "true");
  await form.getByLabel("Code postal").fill("690");
  await form.getByLabel("Code postal").blur();
  await expect(form.getByText("Le code postal doit contenir 5 chiffres")).toBeVisible();
  await form.getByLabel("Code postal").fill("6900312");
  await expect(form.getByLabel("Code postal")).toHaveValue("69003");
});

test("subscription: terms shown, consent required, first charge paid and confirmed by the server", async ({ page }) => {
  const { form, orderId } = await reachPaymentStep(page);
  await form.getByRole("radio", { name: /Abonnement/ }).check();
  await expect(form).toContainText("25,90€ débités aujourd'hui, puis 25,90€ toutes les 4 semaines à partir du 30e jour");
  await expect(form).toContainText("résiliable à tout moment");
  const consent = form.getByRole("checkbox", { name: /J'accepte l'abonnement/ });
  await expect(consent).not.toBeChecked();

  await fillCard(form, CARD.success);
  await form.getByRole("button", { name: "Payer 25,90€" }).click();
  await expect(form.getByRole("alert")).toContainText("Veuillez accepter les conditions de l'abonnement pour continuer.");
  await expect(consent).toHaveAttribute("aria-invalid", "true");
  expect(await paymentStatus(page, orderId)).toBe("unpaid");

  await consent.check();
  await form.getByRole("button", { name: "Payer 25,90€" }).click();
  await expect(page).toHaveURL(new RegExp(`/order-confirmation/${orderId}$`), { timeout: 15_000 });
  expect(await paymentStatus(page, orderId)).toBe("paid");
});

test("the browser's confirmation never reaches the shop: Stripe's webhook alone marks the order paid", async ({ page }) => {
  const { form, orderId } = await reachPaymentStep(page);
  // The connection drops before the server-side confirmation.
  await page.route("**/api/payments/confirm", (route) => route.abort());
  await fillCard(form, CARD.success);
  await form.getByRole("button", { name: "Payer 25,90€" }).click();
  await expect(form.getByRole("alert")).toContainText("Paiement en cours de vérification", { timeout: 20_000 });
  await expect(page).not.toHaveURL(/order-confirmation/);
  await expect.poll(() => paymentStatus(page, orderId)).toBe("paid");

  // Paying again is not possible: the order is paid once.
  await page.unroute("**/api/payments/confirm");
  const again = await page.request.post("/api/payments/start", { data: { orderId: Number(orderId) }, headers: { Origin: new URL(page.url()).origin } });
  expect(await again.json()).toEqual({ paid: true, orderId: Number(orderId) });
});

test("when the payment module cannot load, the step says the order cannot be processed and offers Retour", async ({ page }) => {
  await page.route("**/stripe-emulator.js", (route) => route.abort());
  await gotoReady(page, "/product/1");
  await page.getByRole("button", { name: "Commander" }).click();
  const drawer = page.getByRole("dialog");
  await drawer.getByRole("button", { name: "Procéder au paiement" }).click();
  await drawer.getByLabel("Prénom").fill("Camille");
  await drawer.getByLabel("Nom", { exact: true }).fill("Martin");
  await drawer.getByLabel("Email").fill("camille.martin@example.fr");
  await drawer.getByLabel("Adresse").fill("8 rue des Fleurs");
  await drawer.getByLabel("Code postal").fill("69003");
  await drawer.getByLabel("Ville").fill("Lyon");
  await drawer.getByRole("button", { name: "Continuer vers le paiement" }).click();
  await expect(drawer.getByText("Impossible de traiter la commande. Veuillez réessayer.")).toBeVisible({ timeout: 15_000 });
  await drawer.getByRole("button", { name: "Retour" }).click();
  await expect(drawer.getByLabel("Ville")).toBeVisible();
});
