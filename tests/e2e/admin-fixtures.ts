import { expect, type APIRequestContext, type Page } from "@playwright/test";

/** The e2e server seeds this administrator (playwright.config.ts). */
export const ADMIN = { username: "admin", password: "motdepasse-e2e-1" };

export const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;

/** Signs in through the login page (works with and without JavaScript). */
export async function signIn(page: Page, username = ADMIN.username, password = ADMIN.password, path = "/admin/login") {
  await page.goto(path);
  await page.getByLabel("Nom d'utilisateur").fill(username);
  await page.getByLabel("Mot de passe").fill(password);
  await page.getByRole("button", { name: "Se connecter" }).click();
  await expect(page.getByTestId("toast")).toContainText("Connexion réussie");
}

export async function signOut(page: Page) {
  await page.getByRole("button", { name: "Déconnexion" }).first().click();
  await expect(page).toHaveURL(/\/admin\/login$/);
  await expect(page.getByTestId("toast")).toContainText("Déconnexion réussie");
}

/** A contact request of our own, through the public JSON API. */
export async function createContact(request: APIRequestContext, subject: string, name = "Camille Martin") {
  const response = await request.post("/api/contact", {
    data: { name, email: `camille+${unique()}@example.fr`, subject, message: "Bonjour,\nje voudrais savoir quand mon colis arrivera.\nMerci !" },
  });
  expect(response.status()).toBe(201);
  return (await response.json()) as { id: number };
}

/** An order of our own, through the public order API (pack 2: 6 masques + 2 offerts). */
export async function createOrder(request: APIRequestContext, email: string) {
  const response = await request.post("/api/orders", {
    data: {
      customerEmail: email,
      customerName: "Camille Martin",
      shippingAddress: "3 rue des Roses",
      shippingPostalCode: "69001",
      shippingCity: "Lyon",
      items: [{ productId: 1, quantity: 1, packId: 2 }],
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as { id: number; total: string };
}
