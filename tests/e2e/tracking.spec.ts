import AxeBuilder from "@axe-core/playwright";
import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./shopper";
import { testShopperHeaders } from "../helpers/e2e";

/** Runs with and without JavaScript: the tracking form is a plain GET form. */

const EMAIL = "suivi.e2e@example.fr";

/** The consumer mediator of the settings (Code de la consommation L616-1); legal-settings.spec.ts changes it for a moment. */
const MEDIATOR_LINE =
  /^En cas de litige, vous pouvez recourir gratuitement au médiateur de la consommation : .+, www\.[a-z0-9.-]+\.[a-z]+\.$/;

/** An order through the API, as the spec's client sends it (its `status` is never honoured). */
async function createOrder(request: APIRequestContext) {
  const response = await request.post("/api/orders", {
    headers: testShopperHeaders(),
    data: {
      total: "32.90",
      status: "delivered",
      userId: 3,
      customerEmail: EMAIL,
      customerName: "Louise Petit",
      shippingAddress: "5 quai de la Loire",
      shippingCity: "Nantes",
      shippingPostalCode: "44000",
      shippingCountry: "France",
      items: [{ productId: 1, quantity: 1, price: "32.90", packId: 3 }],
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as { id: number; total: string; status: string; token: string };
}

test("tracking finds an order created through the API and says its payment has not been received: no step reached yet", async ({
  page,
  request,
}) => {
  const order = await createOrder(request);
  expect(order).toMatchObject({ total: "32.90", status: "pending" });
  await page.goto("/track-order");
  await expect(page).toHaveTitle(/^Suivre ma commande/);
  await page.getByLabel("Numéro de commande").fill(String(order.id));
  await page.getByRole("button", { name: "Suivre" }).click();
  await expect(page).toHaveURL(new RegExp(`/track-order\\?id=${order.id}(&email=)?$`));
  const result = page.getByTestId("tracking-result");
  await expect(result.getByRole("heading", { name: `Commande n°${order.id}` })).toBeVisible();
  // Unpaid: not 'Commande reçue' but the payment not received, and no step highlighted.
  await expect(page.getByTestId("tracking-status")).toHaveText("Paiement non reçu : cette commande n'est pas encore payée.");
  await expect(page.getByTestId("tracking-unpaid")).toBeVisible();
  const steps = page.getByTestId("tracking-steps").getByRole("listitem");
  await expect(steps).toHaveCount(4);
  await expect(steps.nth(0)).toContainText("Commande reçue");
  await expect(steps.nth(3)).toContainText("Livrée");
  await expect(page.getByTestId("tracking-steps").locator("[aria-current=step]")).toHaveCount(0);
  await expect(steps.nth(0)).toHaveAttribute("data-state", "later");
  await expect(page.getByTestId("shipping-address")).toContainText("44000 Nantes");
  await expect(page.getByTestId("tracking-total")).toHaveText("32,90€");
  await expect(result.getByTestId("mediator-notice")).toHaveText(MEDIATOR_LINE);
  // The result can be bookmarked.
  await page.goto(`/track-order?id=${order.id}`);
  await expect(page.getByTestId("tracking-result")).toBeVisible();
});

test("the number alone hides the street and the name; the order's email shows them; a wrong email is answered like an unknown number", async ({
  page,
  request,
}) => {
  const order = await createOrder(request);
  await page.goto("/track-order");
  await page.getByLabel("Numéro de commande").fill(String(order.id));
  await page.getByRole("button", { name: "Suivre" }).click();
  const address = page.getByTestId("shipping-address");
  await expect(address).toContainText("44000 Nantes");
  await expect(address).not.toContainText("quai de la Loire");
  await expect(address).not.toContainText("Louise Petit");
  await expect(page.getByTestId("tracking-result")).not.toContainText(EMAIL);
  await expect(page.getByTestId("address-hidden-note")).toBeVisible();

  await page.getByLabel("Email de la commande (facultatif)").fill("Suivi.E2E@example.fr");
  await page.getByRole("button", { name: "Suivre" }).click();
  await expect(address).toContainText("5 quai de la Loire");
  await expect(page.getByTestId("shipping-name")).toHaveText("Louise Petit");
  await expect(address).toContainText("44000 Nantes");
  await expect(page.getByTestId("address-hidden-note")).toHaveCount(0);

  const wrong = await page.goto(`/track-order?id=${order.id}&email=${encodeURIComponent("autre@example.fr")}`);
  expect(wrong?.status()).toBe(404);
  const wrongText = await page.getByTestId("tracking-not-found").textContent();
  expect(wrongText).toContain("Aucune commande ne correspond à ce numéro et à cette adresse email.");
  await expect(page.getByTestId("tracking-result")).toHaveCount(0);
  const unknown = await page.goto(`/track-order?id=123456789&email=${encodeURIComponent("autre@example.fr")}`);
  expect(unknown?.status()).toBe(404);
  expect(await page.getByTestId("tracking-not-found").textContent()).toBe(wrongText);
});

test("unknown and malformed numbers: 'Commande introuvable'; an empty one: the required message", async ({ page }) => {
  await page.goto("/track-order");
  await page.getByRole("button", { name: "Suivre" }).click();
  await expect(page.getByText("Le numéro de commande est requis")).toBeVisible();
  await page.getByLabel("Numéro de commande").fill("123456789");
  await page.getByRole("button", { name: "Suivre" }).click();
  await expect(page.getByTestId("tracking-not-found")).toContainText("Commande introuvable");
  const response = await page.goto("/track-order?id=abc");
  expect(response?.status()).toBe(404);
  await expect(page.getByTestId("tracking-not-found")).toContainText("Commande introuvable");
});

test("order confirmation: the order, or 'Commande introuvable' with a 404", async ({ page, request }) => {
  const order = await createOrder(request);
  await page.goto(`/order-confirmation?id=${order.id}`);
  await expect(page).toHaveURL(new RegExp(`/order-confirmation/${order.id}$`));
  await expect(page.getByRole("heading", { level: 1, name: "Merci pour votre commande\u00a0!" })).toBeVisible();
  await expect(page.getByText("Votre commande sera expédiée sous 24 heures.", { exact: true })).toBeVisible();
  await expect(page.getByTestId("order-number")).toHaveText(String(order.id));
  await expect(page.getByTestId("order-status-badge")).toHaveText("En attente");
  await expect(page.getByRole("table")).toContainText("9 masques + 3 offerts");
  await expect(page.getByTestId("order-total")).toHaveText("32,90€");
  await expect(page.getByText("Gratuite", { exact: true })).toBeVisible();
  await expect(page.getByTestId("tracking-number")).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Continuer mes achats" })).toHaveAttribute("href", "/");
  await expect(page.getByTestId("mediator-notice")).toHaveText(MEDIATOR_LINE);

  const missing = await page.goto("/order-confirmation/123456789");
  expect(missing?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Commande introuvable" })).toBeVisible();
  await page.getByRole("link", { name: "Retour à l'accueil" }).click();
  await expect(page).toHaveURL(/\/$/);

  await page.goto("/order-confirmation");
  await expect(page).toHaveURL(/\/$/);
});

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).include("main").analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map(
      (v) =>
        `${v.id}: ${v.nodes
          .map((n) => n.target.join(" "))
          .slice(0, 3)
          .join(", ")}`,
    );
}

test("tracking result and confirmation have no serious accessibility violation", async ({ page, request, javaScriptEnabled }) => {
  test.skip(!javaScriptEnabled, "axe runs in the JavaScript project");
  test.slow();
  const order = await createOrder(request);
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/track-order?id=${order.id}`);
    await expect(page.getByTestId("tracking-result")).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.goto(`/order-confirmation/${order.id}`);
    await expect(page.getByTestId("order-number")).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  }
});
