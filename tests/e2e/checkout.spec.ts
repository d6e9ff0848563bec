import { reloadReady } from "../helpers/e2e";
import { expect, test } from "./checkout-fixtures";

const MESSAGES = [
  "Le prénom doit contenir au moins 2 caractères",
  "Le nom doit contenir au moins 2 caractères",
  "Adresse email invalide",
  "L'adresse doit contenir au moins 5 caractères",
  "Le code postal doit contenir au moins 5 caractères",
  "La ville doit contenir au moins 2 caractères",
];

test.describe("checkout in the drawer (JavaScript)", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "the drawer needs JavaScript");

  test("delivery form validation, then the payment step; a reload keeps it reachable with the same order", async ({
    page,
    orderPack2,
    fillDelivery,
  }) => {
    test.slow();
    await orderPack2();
    const drawer = page.getByRole("dialog");
    await expect(drawer.getByTestId("cart-line")).toHaveCount(1);
    await drawer.getByRole("button", { name: "Procéder au paiement" }).click();
    await expect(drawer.getByRole("heading", { name: "Informations de livraison" })).toBeVisible();

    await drawer.getByRole("button", { name: "Continuer vers le paiement" }).click();
    for (const message of MESSAGES) await expect(drawer.getByText(message, { exact: true })).toBeVisible();
    await expect(drawer.getByLabel("Email")).toHaveAttribute("aria-invalid", "true");

    await fillDelivery(drawer);
    for (const message of MESSAGES) await expect(drawer.getByText(message, { exact: true })).toHaveCount(0);
    await drawer.getByRole("button", { name: "Continuer vers le paiement" }).click();
    await expect(drawer.getByRole("heading", { name: "Finaliser la commande" })).toBeVisible();
    const orderId = (await drawer.getByTestId("checkout-order-id").textContent())!.trim();
    expect(orderId).toMatch(/^[1-9]\d{8}$/);
    await expect(drawer).toContainText("25,90€");

    await reloadReady(page);
    await page.getByTestId("cart-button").click();
    await expect(drawer.getByTestId("cart-line")).toHaveCount(1);
    await drawer.getByRole("button", { name: /Finaliser la commande/ }).click();
    await expect(drawer.getByRole("heading", { name: "Finaliser la commande" })).toBeVisible();
    await expect(drawer.getByTestId("checkout-order-id")).toHaveText(orderId);

    // Back to the delivery step: the form is prefilled, and submitting again keeps the same order.
    await drawer.getByRole("button", { name: /Informations de livraison/ }).click();
    await expect(drawer.getByLabel("Ville")).toHaveValue("Lyon");
    await drawer.getByRole("button", { name: "Continuer vers le paiement" }).click();
    await expect(drawer.getByTestId("checkout-order-id")).toHaveText(orderId);
  });

  test("the order made at checkout is the one the API shows, priced by the server", async ({
    page,
    request,
    orderPack2,
    fillDelivery,
  }) => {
    await orderPack2();
    const drawer = page.getByRole("dialog");
    await drawer.getByRole("button", { name: "Procéder au paiement" }).click();
    await fillDelivery(drawer);
    await drawer.getByRole("button", { name: "Continuer vers le paiement" }).click();
    const orderId = (await drawer.getByTestId("checkout-order-id").textContent())!.trim();
    const order = await (await request.get(`/api/orders/${orderId}`)).json();
    expect(order).toMatchObject({
      status: "pending",
      paymentStatus: "unpaid",
      total: "25.90",
      shippingCity: "Lyon",
      items: [{ quantity: 1, price: "25.90", product: { variantName: "6 masques + 2 offerts" } }],
    });
  });
});

test.describe("checkout on /panier (without JavaScript)", () => {
  test.skip(({ javaScriptEnabled }) => javaScriptEnabled, "plain forms only");

  test("cart, delivery form with its messages, then the card step offers the hosted payment page", async ({
    page,
    orderPack2,
    fillDelivery,
  }) => {
    await orderPack2();
    await expect(page).toHaveURL(/\/panier$/);
    await page.getByRole("link", { name: "Procéder au paiement" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Informations de livraison" })).toBeVisible();

    await page.getByRole("button", { name: "Continuer vers le paiement" }).click();
    for (const message of MESSAGES) await expect(page.getByText(message, { exact: true })).toBeVisible();

    await fillDelivery(page);
    await page.getByRole("button", { name: "Continuer vers le paiement" }).click();
    await expect(page).toHaveURL(/etape=paiement/);
    await expect(page.getByRole("heading", { level: 1, name: "Finaliser la commande" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Payer sur la page de paiement sécurisée" })).toBeVisible();
    const orderId = (await page.getByTestId("checkout-order-id").textContent())!.trim();

    // A reload, or coming back later, shows the same step and the same order.
    await page.goto("/panier?etape=paiement");
    await expect(page.getByTestId("checkout-order-id")).toHaveText(orderId);
    await page.getByRole("link", { name: "Modifier mes informations de livraison" }).click();
    await expect(page.getByLabel("Prénom")).toHaveValue("Camille");
  });

  test("the payment step is not reachable before the delivery form", async ({ page, orderPack2 }) => {
    await orderPack2();
    await page.goto("/panier?etape=paiement");
    await expect(page.getByRole("heading", { level: 1, name: "Informations de livraison" })).toBeVisible();
  });
});
