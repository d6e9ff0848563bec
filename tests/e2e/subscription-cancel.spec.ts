import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { EMULATOR, emulatorAuth, gotoReady } from "../helpers/e2e";
import { CUSTOMER, expect, test } from "./checkout-fixtures";
import { buySubscription } from "./subscription-fixtures";

/**
 * Online cancellation of a subscription (/abonnement/resilier), with JavaScript and without:
 * the form is a plain POST form.
 */

const PAGE = "/abonnement/resilier";
const NEUTRAL = "Aucun abonnement actif ne correspond à ces informations.";
const EMAIL = CUSTOMER.email;

async function open(page: Page, javaScriptEnabled: boolean) {
  await gotoReady(page, PAGE, javaScriptEnabled);
  return page.locator("#subscription-cancel-form");
}

test("the page explains what cancelling does and has no serious accessibility violation", async ({ page, javaScriptEnabled }) => {
  const response = await gotoReady(page, PAGE, javaScriptEnabled);
  expect(response?.status()).toBe(200);
  await expect(page).toHaveTitle(/^Résilier mon abonnement/);
  await expect(page.getByRole("heading", { level: 1, name: "Résilier mon abonnement" })).toBeVisible();
  await expect(page.getByText("aucun autre prélèvement ne sera effectué")).toBeVisible();
  await expect(page.getByText("La commande déjà payée vous reste acquise")).toBeVisible();
  await expect(page.getByLabel("Numéro de commande")).toBeVisible();
  await expect(page.getByLabel("Adresse email")).toHaveAttribute("type", "email");
  await expect(page.getByRole("button", { name: "Résilier mon abonnement" })).toBeEnabled();
  // axe runs scripts in the page: once, in the JavaScript project.
  if (!javaScriptEnabled) return;
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  const blocking = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(blocking.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
});

test("empty or malformed fields get the French messages", async ({ page, javaScriptEnabled }) => {
  const form = await open(page, javaScriptEnabled);
  await form.getByRole("button", { name: "Résilier mon abonnement" }).click();
  await expect(form.getByText("Le numéro de commande est requis")).toBeVisible();
  await expect(form.getByText("Adresse email invalide")).toBeVisible();
  await expect(form.getByLabel("Numéro de commande")).toHaveAttribute("aria-invalid", "true");

  await form.getByLabel("Numéro de commande").fill("123456789");
  await form.getByLabel("Adresse email").fill("pas-un-email");
  // Without JavaScript the browser's own email check would stop the post; the server's message is the point here.
  await form.evaluate((f) => f.setAttribute("novalidate", ""));
  await form.getByRole("button", { name: "Résilier mon abonnement" }).click();
  await expect(form.getByText("Adresse email invalide")).toBeVisible();
  await expect(form.getByText("Le numéro de commande est requis")).toHaveCount(0);
});

test("an unknown order gets the neutral message", async ({ page, javaScriptEnabled }) => {
  const form = await open(page, javaScriptEnabled);
  await form.getByLabel("Numéro de commande").fill("123456789");
  await form.getByLabel("Adresse email").fill(EMAIL);
  const posted = page.waitForResponse((r) => r.request().method() === "POST" && r.url().includes(PAGE));
  await form.getByRole("button", { name: "Résilier mon abonnement" }).click();
  expect((await posted).status()).toBe(404);
  await expect(page.getByTestId("subscription-cancel-error")).toHaveText(NEUTRAL);
  await expect(page.getByTestId("subscription-cancel-success")).toHaveCount(0);
});

type StripeEvent = { id: string; type: string; data: { object: { id: string; metadata?: Record<string, string> } } };

/** The shop's Stripe emulator (demo mode), with the demo secret key. */
async function stripeGet(page: Page, path: string) {
  const response = await page.request.get(`${EMULATOR}${path}`, { headers: emulatorAuth() });
  expect(response.status()).toBe(200);
  return response.json();
}

test.describe("a real subscription", () => {
  test.describe.configure({ timeout: 90_000 });

  test("bought with a card, then cancelled with this form: ended at Stripe, the date shown, idempotent", async ({
    page,
    browser,
    baseURL,
    javaScriptEnabled,
  }) => {
    const { orderId, subscriptionId } = await buySubscription(browser, baseURL!);

    const form = await open(page, javaScriptEnabled);
    await form.getByLabel("Numéro de commande").fill(orderId);
    // A wrong email first: the neutral message, nothing cancelled.
    await form.getByLabel("Adresse email").fill("autre.personne@example.fr");
    await form.getByRole("button", { name: "Résilier mon abonnement" }).click();
    await expect(page.getByTestId("subscription-cancel-error")).toHaveText(NEUTRAL);

    await page.locator("#subscription-cancel-form").getByLabel("Numéro de commande").fill(orderId);
    await page.locator("#subscription-cancel-form").getByLabel("Adresse email").fill(` ${EMAIL.toUpperCase()} `);
    await page.getByRole("button", { name: "Résilier mon abonnement" }).click();
    const success = page.getByTestId("subscription-cancel-success");
    await expect(success.getByRole("heading", { name: "Votre abonnement a été résilié." })).toBeVisible();
    const today = new Intl.DateTimeFormat("fr-FR", {
      timeZone: "Europe/Paris",
      day: "2-digit",
      month: "2-digit",
      year: "numeric",
    }).format(new Date());
    await expect(page.getByTestId("subscription-canceled-at")).toHaveText(today);
    await expect(success).toContainText(`commande n°${orderId}`);
    await expect(success).toContainText("Aucun autre prélèvement ne sera effectué.");

    // Stripe (the emulator) ended it, and its signed customer.subscription.deleted webhook reached the shop.
    const sub = await stripeGet(page, `/v1/subscriptions/${subscriptionId}`);
    expect(sub).toMatchObject({ status: "canceled" });
    expect(sub.canceled_at).toEqual(expect.any(Number));
    const deleted = await stripeGet(page, "/v1/events?type=customer.subscription.deleted&limit=100");
    const event = (deleted.data as StripeEvent[]).find((e) => e.data.object.id === subscriptionId);
    expect(event).toBeDefined();
    await expect
      .poll(async () => {
        const { data } = (await (
          await page.request.get(`${EMULATOR}/__emulator/events`, { headers: emulatorAuth() })
        ).json()) as {
          data: Array<{ id: string; deliveries: Array<{ status: number }> }>;
        };
        return data.find((e) => e.id === event!.id)?.deliveries.some((d) => d.status === 200) ?? false;
      })
      .toBe(true);
    // The order is still paid and to be shipped.
    expect(await (await page.request.get(`/api/orders/${orderId}`)).json()).toMatchObject({
      paymentStatus: "paid",
      status: "pending",
    });

    // Again: already cancelled, same day.
    await open(page, javaScriptEnabled);
    await page.getByLabel("Numéro de commande").fill(orderId);
    await page.getByLabel("Adresse email").fill(EMAIL);
    await page.getByRole("button", { name: "Résilier mon abonnement" }).click();
    await expect(
      page.getByTestId("subscription-cancel-success").getByRole("heading", { name: "Votre abonnement est déjà résilié." }),
    ).toBeVisible();
    await expect(page.getByTestId("subscription-canceled-at")).toHaveText(today);
  });
});
