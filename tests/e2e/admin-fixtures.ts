import { expect, type APIRequestContext, type Page } from "@playwright/test";
import { EMULATOR, emulatorAuth, testShopperHeaders } from "../helpers/e2e";

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
    data: {
      name,
      email: `camille+${unique()}@example.fr`,
      subject,
      message: "Bonjour,\nje voudrais savoir quand mon colis arrivera.\nMerci !",
    },
  });
  expect(response.status()).toBe(201);
  return (await response.json()) as { id: number };
}

/** An order of our own, through the public order API (pack 2: 6 masques + 2 offerts). */
export async function createOrder(request: APIRequestContext, email: string) {
  const response = await request.post("/api/orders", {
    headers: testShopperHeaders(),
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
  return (await response.json()) as { id: number; total: string; token: string };
}

/**
 * An order of our own, paid with the card 4242 as a browser would: the order API, the payment's
 * start with the order token, the card confirmed at the Stripe emulator, then the shop's check
 * with Stripe (the only way an order becomes paid, which issues its invoice).
 */
export async function createPaidOrder(request: APIRequestContext, email: string) {
  const order = await createOrder(request, email);
  const start = await request.post("/api/payments/start", { data: { orderId: order.id, mode: "one_off", token: order.token } });
  expect(start.status(), await start.text()).toBe(200);
  const { paymentIntentId } = (await start.json()) as { paymentIntentId: string };
  const auth = emulatorAuth();
  const method = await request.post(`${EMULATOR}/v1/payment_methods`, {
    headers: auth,
    form: {
      type: "card",
      "card[number]": "4242424242424242",
      "card[exp_month]": "12",
      "card[exp_year]": String(new Date().getFullYear() + 3),
      "card[cvc]": "123",
    },
  });
  expect(method.status(), await method.text()).toBe(200);
  const confirm = await request.post(`${EMULATOR}/v1/payment_intents/${paymentIntentId}/confirm`, {
    headers: auth,
    form: { payment_method: ((await method.json()) as { id: string }).id },
  });
  expect(confirm.status(), await confirm.text()).toBe(200);
  const paid = await request.post("/api/payments/confirm", { data: { orderId: order.id, token: order.token } });
  expect(await paid.json()).toMatchObject({ paid: true, paymentStatus: "paid" });
  return order;
}

/**
 * An administrator of the test's own (never the seeded `admin`, which the other specs use),
 * created through the users API by the seeded one, from an address of its own.
 */
export async function createAdminUser(request: APIRequestContext, prefix = "admin") {
  const username = `${prefix}-${unique()}`;
  const password = "motdepasse-admin-test-1";
  const headers = testShopperHeaders();
  const login = await request.post("/api/admin/login", { headers, data: ADMIN });
  expect(login.status(), await login.text()).toBe(200);
  const created = await request.post("/api/users", {
    headers,
    data: { username, email: `${username}@example.fr`, password, isAdmin: true },
  });
  expect(created.status(), await created.text()).toBe(201);
  await request.post("/api/admin/logout", { headers });
  return { username, password };
}
