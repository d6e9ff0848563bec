import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { EMULATOR, emulatorAuth, gotoReady, testShopperHeaders } from "../helpers/e2e";
import { signIn, unique } from "./admin-fixtures";
import { expect, fillDelivery, orderPack2, payWithCard, test } from "./checkout-fixtures";
import { adminApi } from "./subscription-fixtures";

/**
 * Promotion codes as shoppers meet them: the « Code promo » field of the cart (drawer with
 * JavaScript, /panier without), its refusals in French, the discount line and the new total,
 * the payment of the discounted amount and the invoice's discount line; a code once per email
 * and a code past its limit after two shoppers paid at once; a subscription's fixed code for two
 * renewals, simulated on the emulator's test clock.
 */

type Admin = APIRequestContext;

async function createCode(admin: Admin, baseURL: string, body: Record<string, unknown>) {
  const code = `${String(body.code)}${unique()
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, "")}`.slice(0, 32);
  const response = await admin.post("/api/admin/promotions", { headers: { Origin: baseURL }, data: { ...body, code } });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as { id: number; code: string };
}

/** The cart's scope: the drawer with JavaScript, the /panier page without. */
function cartScope(page: Page, javaScriptEnabled: boolean): Page | Locator {
  return javaScriptEnabled ? page.getByRole("dialog") : page;
}

async function applyCode(scope: Page | Locator, code: string) {
  await scope.getByLabel("Code promo").fill(code);
  await scope.getByRole("button", { name: "Appliquer" }).click();
}

/** An order of pack 2 with a code, through the API, paid with 4242 as a browser would (see admin-fixtures createPaidOrder). */
async function paidApiOrder(request: APIRequestContext, email: string, promotionCode: string) {
  const headers = testShopperHeaders();
  const created = await request.post("/api/orders", {
    headers,
    data: {
      customerEmail: email,
      customerName: "Camille Martin",
      shippingAddress: "3 rue des Roses",
      shippingPostalCode: "69001",
      shippingCity: "Lyon",
      items: [{ productId: 1, quantity: 1, packId: 2 }],
      promotionCode,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const order = (await created.json()) as { id: number; token: string; total: string };
  return {
    order,
    pay: async () => {
      const start = await request.post("/api/payments/start", {
        data: { orderId: order.id, mode: "one_off", token: order.token },
      });
      expect(start.status(), await start.text()).toBe(200);
      const { paymentIntentId } = (await start.json()) as { paymentIntentId: string };
      const method = await request.post(`${EMULATOR}/v1/payment_methods`, {
        headers: emulatorAuth(),
        form: {
          type: "card",
          "card[number]": "4242424242424242",
          "card[exp_month]": "12",
          "card[exp_year]": "2040",
          "card[cvc]": "123",
        },
      });
      await request.post(`${EMULATOR}/v1/payment_intents/${paymentIntentId}/confirm`, {
        headers: emulatorAuth(),
        form: { payment_method: ((await method.json()) as { id: string }).id },
      });
      const paid = await request.post("/api/payments/confirm", { data: { orderId: order.id, token: order.token } });
      return (await paid.json()) as { paid: boolean };
    },
  };
}

test("a percentage code on a one-off purchase: refusals in French, the discount and the new total, paid, and the invoice's discount line", async ({
  page,
  browser,
  baseURL,
  javaScriptEnabled,
}) => {
  const admin = await adminApi(browser, baseURL!);
  const percent = await createCode(admin, baseURL!, { code: "DIX", kind: "percent", value: 10, appliesTo: "one_off" });
  const expired = await createCode(admin, baseURL!, {
    code: "VIEUX",
    kind: "percent",
    value: 20,
    appliesTo: "one_off",
    startsAt: "2025-01-01",
    endsAt: "2025-12-31",
  });
  await page.setViewportSize({ width: 390, height: 844 });
  await orderPack2(page, javaScriptEnabled);
  const cart = cartScope(page, javaScriptEnabled);

  await applyCode(cart, expired.code.toLowerCase());
  await expect(cart.getByTestId("promo-code-refusal")).toHaveText("Ce code a expiré");
  await expect(cart.getByTestId("cart-total")).toHaveText("25,90€");
  await cart.getByRole("button", { name: "Retirer le code" }).click();
  await applyCode(cart, percent.code);
  await expect(cart.getByTestId("cart-discount")).toContainText(`Remise (code ${percent.code})`);
  await expect(cart.getByTestId("cart-discount")).toContainText("-2,59€");
  await expect(cart.getByTestId("cart-total")).toHaveText("23,31€");
  await expect(cart.getByText("Valable sur un achat unique.")).toBeVisible();
  // The drawer fills the phone's screen with JavaScript; /panier is a page of its own without.
  await page.screenshot({
    path: `test-results/promo-cart-390-${javaScriptEnabled ? "js" : "no-js"}.png`,
    fullPage: !javaScriptEnabled,
  });
  await page.setViewportSize({ width: 1280, height: 900 });

  const email = `promo.${unique()}@example.fr`;
  if (javaScriptEnabled) {
    await cart.getByRole("button", { name: "Procéder au paiement" }).click();
    await fillDelivery(cart, { email });
    await cart.getByRole("button", { name: "Continuer vers le paiement" }).click();
    const form = cart.getByTestId("payment-form");
    await expect(form.getByRole("button", { name: "Payer 23,31€" })).toBeVisible();
    await payWithCard(form);
  } else {
    await page.getByRole("link", { name: "Procéder au paiement" }).click();
    await fillDelivery(page, { email });
    await page.getByRole("button", { name: "Continuer vers le paiement" }).click();
    await page.getByRole("button", { name: "Payer sur la page de paiement sécurisée" }).click();
    await expect(page.getByText("23,31 €").first()).toBeVisible();
    await page.getByLabel("Numéro de carte").fill("4242 4242 4242 4242");
    await page.getByLabel("Date d'expiration").fill(`12/${String(new Date().getFullYear() + 2).slice(2)}`);
    await page.getByLabel("CVC").fill("123");
    await page.getByRole("button", { name: "Payer", exact: true }).click();
  }
  await expect(page).toHaveURL(/\/order-confirmation\/\d+/, { timeout: 15_000 });
  await expect(page.getByTestId("order-status-badge")).toHaveText("Payée", { timeout: 15_000 });
  await page.getByTestId("invoice-link").click();
  const invoice = page.getByTestId("invoice-document");
  const lines = invoice.getByTestId("invoice-lines");
  await expect(lines).toContainText(`Remise (code ${percent.code})`);
  await expect(lines).toContainText("-2,59€");
  // 23,31 € TTC: 19,43 € HT and 3,88 € of VAT, computed on the discounted amount.
  await expect(invoice).toContainText("19,43€");
  await expect(invoice).toContainText("3,88€");
  await expect(invoice).toContainText("23,31€");
  await page.screenshot({ path: `test-results/promo-invoice-1280-${javaScriptEnabled ? "js" : "no-js"}.png`, fullPage: true });

  // The back office counts its use and the revenue it brought.
  const listed = await (await admin.get(`/api/admin/promotions/${percent.id}`)).json();
  expect(listed).toMatchObject({ uses: 1, revenue: "23.31" });
});

test("a code once per email, and a code past its limit after two shoppers paid at once, say why", async ({
  page,
  browser,
  baseURL,
  request,
  javaScriptEnabled,
}) => {
  const admin = await adminApi(browser, baseURL!);
  const once = await createCode(admin, baseURL!, {
    code: "UNEFOIS",
    kind: "amount",
    value: "3.00",
    appliesTo: "one_off",
    oncePerEmail: true,
  });
  const limited = await createCode(admin, baseURL!, {
    code: "PREMIER",
    kind: "percent",
    value: 15,
    appliesTo: "one_off",
    maxUses: 1,
  });
  const email = `deja.${unique()}@example.fr`;
  expect(await (await paidApiOrder(request, email, once.code)).pay()).toMatchObject({ paid: true });

  // Two shoppers, both past every check, pay at the same moment: the code is honoured once.
  const [a, b] = await Promise.all([
    paidApiOrder(request, `course.a.${unique()}@example.fr`, limited.code),
    paidApiOrder(request, `course.b.${unique()}@example.fr`, limited.code),
  ]);
  await Promise.all([a.pay(), b.pay()]);
  expect(await (await admin.get(`/api/admin/promotions/${limited.id}`)).json()).toMatchObject({ uses: 1 });
  const third = await request.post("/api/orders", {
    headers: testShopperHeaders(),
    data: {
      customerEmail: `trop.tard.${unique()}@example.fr`,
      shippingAddress: "3 rue des Roses",
      shippingPostalCode: "69001",
      shippingCity: "Lyon",
      items: [{ productId: 1, quantity: 1, packId: 2 }],
      promotionCode: limited.code,
    },
  });
  expect(third.status()).toBe(422);
  expect(await third.json()).toMatchObject({ error: "Ce code a atteint son nombre maximal d'utilisations." });

  // In the cart: the used-up code is refused; the once-per-email code is accepted, then refused for that email.
  await orderPack2(page, javaScriptEnabled);
  const cart = cartScope(page, javaScriptEnabled);
  await applyCode(cart, limited.code);
  await expect(cart.getByTestId("promo-code-refusal")).toHaveText("Ce code a atteint son nombre maximal d'utilisations.");
  await cart.getByRole("button", { name: "Retirer le code" }).click();
  await applyCode(cart, once.code);
  await expect(cart.getByTestId("cart-total")).toHaveText("22,90€");
  if (javaScriptEnabled) await cart.getByRole("button", { name: "Procéder au paiement" }).click();
  else await page.getByRole("link", { name: "Procéder au paiement" }).click();
  await fillDelivery(cart, { email });
  await cart.getByRole("button", { name: "Continuer vers le paiement" }).click();
  await expect(cart.getByText("Ce code a déjà été utilisé avec cette adresse email").first()).toBeVisible();
});

test("a fixed code on a subscription for two cycles: the first payment and two renewals discounted, not the third", async ({
  page,
  browser,
  baseURL,
  javaScriptEnabled,
}) => {
  test.skip(!javaScriptEnabled, "the renewals are the same without JavaScript; the card form is the JavaScript path");
  test.slow();
  const admin = await adminApi(browser, baseURL!);
  const fixed = await createCode(admin, baseURL!, {
    code: "CINQ",
    kind: "amount",
    value: "5.00",
    appliesTo: "every_payment",
    cycles: 2,
  });
  await orderPack2(page);
  const drawer = page.getByRole("dialog");
  await applyCode(drawer, fixed.code);
  await expect(drawer.getByTestId("cart-total")).toHaveText("20,90€");
  await drawer.getByRole("button", { name: "Procéder au paiement" }).click();
  await fillDelivery(drawer, { email: `abonne.${unique()}@example.fr` });
  await drawer.getByRole("button", { name: "Continuer vers le paiement" }).click();
  const orderId = (await drawer.getByTestId("checkout-order-id").textContent())!.trim();
  const form = drawer.getByTestId("payment-form");
  await form.getByRole("radio", { name: /Abonnement/ }).check();
  await form.getByRole("checkbox", { name: /J'accepte l'abonnement/ }).check();
  await payWithCard(form);
  await expect(page).toHaveURL(new RegExp(`/order-confirmation/${orderId}$`), { timeout: 15_000 });

  await signIn(page);
  await gotoReady(page, `/admin/subscriptions?q=${orderId}`);
  await page.getByLabel("Client (nom ou email)").fill(orderId);
  await page.getByRole("button", { name: "Filtrer" }).click();
  await page
    .getByRole("region", { name: "Liste des abonnements" })
    .getByRole("link", { name: /Voir l'abonnement/ })
    .click();
  const orders = page.getByTestId("subscription-orders");
  await expect(orders).toContainText("20,90€");
  const toast = page.getByTestId("toast");
  const totals: string[] = [];
  for (const n of [1, 2, 3]) {
    await page.getByRole("button", { name: "Simuler le prochain renouvellement" }).click();
    await expect(toast).toContainText(new RegExp(`Renouvellement n°${n} simulé : commande #\\d+ créée`), { timeout: 30_000 });
    const renewalId = new RegExp(`n°${n} simulé : commande #(\\d+) créée`).exec((await toast.textContent()) ?? "")![1];
    const order = await (await admin.get(`/api/orders/${renewalId}`)).json();
    totals.push(`${order.total} ${order.discount} ${order.promotionCode ?? "-"}`);
  }
  expect(totals).toEqual([`20.90 5.00 ${fixed.code}`, `20.90 5.00 ${fixed.code}`, "25.90 0.00 -"]);
});
