import type { Locator, Page, TestInfo } from "@playwright/test";
import { gotoReady } from "../helpers/e2e";
import { signIn } from "./admin-fixtures";
import { CARDS, expect, fillCard, payWithCard, reachPaymentStep, test } from "./checkout-fixtures";
import { adminApi, emailText, linkTo } from "./subscription-fixtures";

/**
 * 3-D Secure, as French banks run it: the emulator's Stripe.js stand-in shows the bank's
 * challenge (« Authentification 3-D Secure ») for Stripe's authentication test cards, and a
 * renewal the bank asks the customer to authenticate is paid from the email's pay link.
 */

test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "the card payment and its challenge need JavaScript");
test.describe.configure({ timeout: 90_000 });

const AUTH_FIRST_PAYMENT = "4000 0025 0000 3155";
const AUTH_ALWAYS = "4000 0027 6000 3184";
const AUTH_THEN_DECLINED = "4000 0082 6000 3178";
const AUTHENTICATION_FAILED = "L'authentification de votre carte a échoué. Réessayez ou utilisez une autre carte.";

function challenge(page: Page): Locator {
  return page.getByRole("dialog", { name: "Authentification 3-D Secure" });
}

async function paymentStatus(page: Page, orderId: string) {
  const order = await (await page.request.get(`/api/orders/${orderId}`)).json();
  return order.paymentStatus as string;
}

/** The challenge fits the screen, its buttons can be reached, the focus is inside; a screenshot is attached. */
async function expectChallengeShown(page: Page, testInfo: TestInfo, name: string) {
  const dialog = challenge(page);
  await expect(dialog).toBeVisible();
  await expect(dialog).toHaveAttribute("aria-modal", "true");
  await expect(dialog).toContainText("25,90");
  const authorize = dialog.getByRole("button", { name: "Autoriser le paiement" });
  await expect(authorize).toBeFocused();
  await expect(dialog.getByRole("button", { name: "Refuser" })).toBeVisible();
  const viewport = page.viewportSize()!;
  const box = (await dialog.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
  expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
  // Tab goes round the two buttons: the focus never leaves the challenge.
  await page.keyboard.press("Tab");
  await expect(dialog.getByRole("button", { name: "Refuser" })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(authorize).toBeFocused();
  await testInfo.attach(name, { body: await page.screenshot(), contentType: "image/png" });
}

for (const width of [390, 1280]) {
  test(`3155 at ${width} px: the bank's challenge shows, « Autoriser le paiement » pays the order`, async ({
    page,
  }, testInfo) => {
    await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
    const { form, orderId } = await reachPaymentStep(page);
    await payWithCard(form, AUTH_FIRST_PAYMENT);
    await expectChallengeShown(page, testInfo, `challenge-${width}`);
    // Nothing is paid before the customer answers.
    expect(await paymentStatus(page, orderId)).toBe("unpaid");
    await challenge(page).getByRole("button", { name: "Autoriser le paiement" }).click();
    await expect(page).toHaveURL(new RegExp(`/order-confirmation/${orderId}$`), { timeout: 15_000 });
    await expect(page.getByText("Payée").first()).toBeVisible();
    expect(await paymentStatus(page, orderId)).toBe("paid");
  });
}

test("3155 refused: the payment step says the authentication failed, the order stays unpaid, 4242 then pays it", async ({
  page,
}) => {
  const { form, orderId } = await reachPaymentStep(page);
  await payWithCard(form, AUTH_FIRST_PAYMENT);
  await challenge(page).getByRole("button", { name: "Refuser" }).click();
  await expect(challenge(page)).toHaveCount(0);
  await expect(form.getByTestId("payment-error")).toContainText(AUTHENTICATION_FAILED);
  await expect(page).not.toHaveURL(/order-confirmation/);
  expect(await paymentStatus(page, orderId)).toBe("unpaid");

  await payWithCard(form, CARDS.success);
  await expect(page).toHaveURL(new RegExp(`/order-confirmation/${orderId}$`), { timeout: 15_000 });
  await expect(page.getByText("Payée").first()).toBeVisible();
});

test("3178: the challenge succeeds, then the bank declines the card for insufficient funds", async ({ page }) => {
  const { form, orderId } = await reachPaymentStep(page);
  await payWithCard(form, AUTH_THEN_DECLINED);
  await challenge(page).getByRole("button", { name: "Autoriser le paiement" }).click();
  await expect(form.getByTestId("payment-error")).toContainText("Votre carte a été refusée");
  await expect(page).not.toHaveURL(/order-confirmation/);
  expect(await paymentStatus(page, orderId)).toBe("unpaid");
});

test("a subscription with 3184: the renewal needs the customer, who confirms it from the email and gets the renewal order", async ({
  page,
  browser,
  baseURL,
}, testInfo) => {
  test.setTimeout(150_000);
  // The subscription, its first payment authenticated.
  const { form, orderId } = await reachPaymentStep(page);
  await form.getByRole("radio", { name: /Abonnement/ }).check();
  await form.getByRole("checkbox", { name: /J'accepte l'abonnement/ }).check();
  await payWithCard(form, AUTH_ALWAYS);
  await challenge(page).getByRole("button", { name: "Autoriser le paiement" }).click();
  await expect(page).toHaveURL(new RegExp(`/order-confirmation/${orderId}$`), { timeout: 15_000 });
  await expect(page.getByText("Payée").first()).toBeVisible();

  // The next renewal, simulated from the back office: the bank asks for the customer.
  await signIn(page);
  await gotoReady(page, `/admin/subscriptions?q=${orderId}`);
  await page
    .getByRole("region", { name: "Liste des abonnements" })
    .getByRole("link", { name: /Voir l'abonnement/ })
    .click();
  await page.getByRole("button", { name: "Simuler le prochain renouvellement" }).click();
  await expect(page.getByTestId("toast")).toContainText("la banque demande au client de confirmer le paiement", {
    timeout: 30_000,
  });
  await expect(page.getByTestId("action-required")).toContainText(/Authentification requise depuis le \d{2}\/\d{2}\/\d{4}/);
  const detail = page.url();

  // The email: the amount, the bank's request, the pay link.
  const admin = await adminApi(browser, baseURL!);
  const email = await emailText(admin, orderId, "renewal_action_required");
  expect(email).toContain("25,90");
  expect(email).toContain("Votre banque demande une confirmation");
  const list = await (await admin.get(`/api/admin/emails?order=${orderId}&kind=renewal_action_required`)).json();
  expect(list.emails).toHaveLength(1);
  expect(list.emails[0].subject).toBe("Action requise : confirmez le paiement de votre abonnement");

  // The pay page: the card, the challenge, authorized.
  await gotoReady(page, linkTo(email, "/abonnement/payer"));
  await expect(page.getByTestId("action-required")).toContainText("Votre banque demande une confirmation");
  const payForm = page.getByTestId("invoice-payment-form");
  await expect(payForm.getByLabel("Numéro de carte")).toBeVisible();
  await fillCard(payForm, AUTH_ALWAYS);
  await payForm.getByRole("button", { name: /^Payer / }).click();
  await expectChallengeShown(page, testInfo, "challenge-pay-page");
  await challenge(page).getByRole("button", { name: "Autoriser le paiement" }).click();
  await expect(page.getByTestId("invoice-paid")).toContainText("Paiement reçu");

  // One renewal order, paid, with its receipt; the authentication is no longer required.
  await gotoReady(page, detail);
  const orders = page.getByTestId("subscription-orders");
  await expect(async () => {
    await page.reload();
    await expect(orders).toContainText("Renouvellement n°1", { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await expect(page.getByTestId("action-required")).toHaveCount(0);
  const renewalId = /#(\d{9})/.exec(
    (await orders.getByRole("listitem").filter({ hasText: "Renouvellement n°1" }).textContent()) ?? "",
  )?.[1];
  expect(renewalId).toBeDefined();
  expect(await emailText(admin, renewalId!, "renewal_receipt")).toContain(`n°${renewalId}`);
});
