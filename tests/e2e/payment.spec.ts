import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { EMULATOR, emulatorAuth, gotoReady } from "../helpers/e2e";
import { CARDS, expect, test } from "./checkout-fixtures";

/**
 * Card payment in the checkout drawer, against the production build in demo mode: the
 * browser's Stripe.js is the local emulator's stand-in, reached through our own origin.
 */

test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "card payment needs JavaScript");
// A whole purchase (product page, drawer, delivery, payment, confirmation) per test.
test.describe.configure({ timeout: 60_000 });

async function paymentStatus(page: Page, orderId: string) {
  const order = await (await page.request.get(`/api/orders/${orderId}`)).json();
  return order.paymentStatus as string;
}

test("Stripe.js is only loaded on the payment step", async ({ page, paymentStep }) => {
  const scripts: string[] = [];
  page.on("request", (r) => {
    if (r.url().includes("stripe")) scripts.push(r.url());
  });
  await page.goto("/");
  await page.goto("/product/1");
  expect(await page.evaluate(() => "Stripe" in window)).toBe(false);
  expect(scripts).toEqual([]);
  await paymentStep();
  expect(await page.evaluate(() => "Stripe" in window)).toBe(true);
  expect(scripts.some((url) => url.endsWith("/stripe-emulator.js"))).toBe(true);
  expect(scripts.some((url) => url.includes("js.stripe.com"))).toBe(false);
});

test("one-off purchase with 4242: the server confirms, the cart empties, the confirmation shows the order paid", async ({
  page,
  paymentStep,
  fillCard,
}) => {
  const { form, orderId } = await paymentStep();
  // Prefilled from the delivery form.
  await expect(form.getByLabel("Prénom")).toHaveValue("Camille");
  await expect(form.getByLabel("Code postal")).toHaveValue("69003");
  await expect(form.getByLabel("Code postal")).toHaveAttribute("maxlength", "5");
  await expect(form.getByRole("radio", { name: /Achat unique/ })).toBeChecked();

  const pay = form.getByRole("button", { name: "Payer 25,90€" });
  await expect(pay).toBeDisabled();
  await fillCard(form, CARDS.success);
  await expect(pay).toBeEnabled();

  // Enter in the card field or a billing field does not pay. A payment started by Enter would
  // turn the button into 'Paiement en cours...' at once, and its request would come before the
  // click's: the click's request must be the first.
  let started = 0;
  page.on("request", (r) => {
    if (r.url().endsWith("/api/payments/start")) started++;
  });
  await form.getByLabel("CVC").press("Enter");
  await form.getByLabel("Ville").press("Enter");
  await expect(pay).toBeEnabled();
  const clickStarted = page.waitForResponse((r) => r.url().endsWith("/api/payments/start"));
  await pay.click();
  await clickStarted;
  expect(started).toBe(1);
  await expect(page).toHaveURL(new RegExp(`/order-confirmation/${orderId}$`), { timeout: 15_000 });
  await expect(page.getByText("Merci pour votre commande\u00a0!")).toBeVisible();
  await expect(page.getByText("Payée").first()).toBeVisible();
  expect(started).toBe(1);
  expect(await paymentStatus(page, orderId)).toBe("paid");
  await expect(page.getByTestId("cart-button")).not.toContainText(/[1-9]/);

  // Stripe's signed webhook reached the shop too (the emulator's own record of its deliveries).
  await expect
    .poll(async () => {
      const { data } = (await (await page.request.get(`${EMULATOR}/__emulator/events`, { headers: emulatorAuth() })).json()) as {
        data: Array<{ type: string; deliveries: Array<{ status: number }> }>;
      };
      return data.some((e) => e.type === "payment_intent.succeeded" && e.deliveries.some((d) => d.status === 200));
    })
    .toBe(true);
});

test("the payment step has no serious accessibility violation", async ({ page, paymentStep }) => {
  const { form } = await paymentStep();
  await form.getByRole("radio", { name: /Abonnement/ }).check();
  await form.getByLabel("Ville").fill("");
  await form.getByRole("button", { name: "Payer 25,90€" }).isDisabled();
  const results = await new AxeBuilder({ page })
    .include('[data-testid="payment-form"]')
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    .analyze();
  const blocking = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(blocking.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`)).toEqual([]);
});

test("a declined card shows why, leaves the order unpaid, and another card then pays it", async ({
  page,
  paymentStep,
  payWithCard,
}) => {
  const { form, orderId } = await paymentStep();
  await payWithCard(form, CARDS.declined);
  const alert = form.getByRole("alert");
  await expect(alert).toContainText("Carte refusée");
  await expect(page.getByTestId("toast")).toContainText("Carte refusée");
  expect(await paymentStatus(page, orderId)).toBe("unpaid");

  await form.getByLabel("Numéro de carte").fill(CARDS.success);
  await form.getByRole("button", { name: "Payer 25,90€" }).click();
  await expect(page).toHaveURL(new RegExp(`/order-confirmation/${orderId}$`), { timeout: 15_000 });
  expect(await paymentStatus(page, orderId)).toBe("paid");
});

test("incorrect CVC and postal code are named", async ({ page, paymentStep, payWithCard }) => {
  const { form, orderId } = await paymentStep();
  await payWithCard(form, CARDS.incorrectCvc);
  await expect(form.getByRole("alert")).toContainText("Code CVC incorrect");
  await form.getByLabel("Numéro de carte").fill(CARDS.incorrectZip);
  await form.getByRole("button", { name: "Payer 25,90€" }).click();
  await expect(form.getByRole("alert")).toContainText("Code postal incorrect");
  expect(await paymentStatus(page, orderId)).toBe("unpaid");
});

test("the billing address is checked with the spec's messages", async ({ page, paymentStep, fillCard }) => {
  const { form } = await paymentStep();
  await fillCard(form, CARDS.success);
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

test("subscription: terms shown, consent required, first charge paid and confirmed by the server", async ({
  page,
  paymentStep,
  payWithCard,
}) => {
  const { form, orderId } = await paymentStep();
  await form.getByRole("radio", { name: /Abonnement/ }).check();
  await expect(form).toContainText("25,90€ débités aujourd'hui, puis 25,90€ toutes les 4 semaines à partir du 30e jour");
  await expect(form).toContainText("résiliable à tout moment");
  const consent = form.getByRole("checkbox", { name: /J'accepte l'abonnement/ });
  await expect(consent).not.toBeChecked();

  await payWithCard(form, CARDS.success);
  await expect(form.getByRole("alert")).toContainText("Veuillez accepter les conditions de l'abonnement pour continuer.");
  await expect(consent).toHaveAttribute("aria-invalid", "true");
  expect(await paymentStatus(page, orderId)).toBe("unpaid");

  await consent.check();
  await form.getByRole("button", { name: "Payer 25,90€" }).click();
  await expect(page).toHaveURL(new RegExp(`/order-confirmation/${orderId}$`), { timeout: 15_000 });
  expect(await paymentStatus(page, orderId)).toBe("paid");
});

test("the browser's confirmation never reaches the shop: Stripe's webhook alone marks the order paid", async ({
  page,
  paymentStep,
  payWithCard,
}) => {
  const { form, orderId } = await paymentStep();
  // The connection drops before the server-side confirmation.
  await page.route("**/api/payments/confirm", (route) => route.abort());
  await payWithCard(form, CARDS.success);
  await expect(form.getByRole("alert")).toContainText("Paiement en cours de vérification", { timeout: 20_000 });
  await expect(page).not.toHaveURL(/order-confirmation/);
  await expect.poll(() => paymentStatus(page, orderId)).toBe("paid");

  // Paying again is not possible: the order is paid once.
  await page.unroute("**/api/payments/confirm");
  const again = await page.request.post("/api/payments/start", {
    data: { orderId: Number(orderId) },
    headers: { Origin: new URL(page.url()).origin },
  });
  expect(await again.json()).toEqual({ paid: true, orderId: Number(orderId) });
});

test("when the payment module cannot load, the step says the order cannot be processed and offers Retour", async ({
  page,
  orderPack2,
  fillDelivery,
}) => {
  await page.route("**/stripe-emulator.js", (route) => route.abort());
  await orderPack2();
  const drawer = page.getByRole("dialog");
  await drawer.getByRole("button", { name: "Procéder au paiement" }).click();
  await fillDelivery(drawer);
  await drawer.getByRole("button", { name: "Continuer vers le paiement" }).click();
  await expect(drawer.getByText("Impossible de traiter la commande. Veuillez réessayer.")).toBeVisible({ timeout: 15_000 });
  await drawer.getByRole("button", { name: "Retour" }).click();
  await expect(drawer.getByLabel("Ville")).toBeVisible();
});

test("the trial pack: no subscription offered, and once paid, not again for the same email", async ({
  page,
  fillDelivery,
  payWithCard,
}) => {
  const email = `essai.${Date.now().toString(36)}@example.fr`;
  const orderTrial = async () => {
    await gotoReady(page, "/product/1");
    await page.getByRole("radio", { name: "3 masques d'essai" }).check();
    await page.getByRole("button", { name: "Commander" }).click();
    const drawer = page.getByRole("dialog");
    await drawer.getByRole("button", { name: "Procéder au paiement" }).click();
    await fillDelivery(drawer, { email });
    await drawer.getByRole("button", { name: "Continuer vers le paiement" }).click();
    return drawer;
  };

  const drawer = await orderTrial();
  await expect(drawer.getByRole("heading", { name: "Finaliser la commande" })).toBeVisible();
  const form = drawer.getByTestId("payment-form");
  await expect(form.getByRole("radio", { name: /Abonnement/ })).toBeDisabled();
  await expect(form.getByTestId("subscription-refusal")).toHaveText(/s'achète uniquement en achat unique/);
  await payWithCard(form);
  await expect(page).toHaveURL(/\/order-confirmation\/\d+$/, { timeout: 15_000 });
  // The buyer's own browser sees its street and name.
  await expect(page.getByTestId("shipping-street")).toHaveText("8 rue des Fleurs");

  const again = await orderTrial();
  await expect(again.getByText(/ne peut être acheté qu.une fois par adresse email/).first()).toBeVisible();
  await expect(again.getByLabel("Email")).toHaveAttribute("aria-invalid", "true");
  await expect(again.getByRole("heading", { name: "Finaliser la commande" })).toHaveCount(0);
});
