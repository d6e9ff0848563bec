import type { Locator, Page } from "@playwright/test";
import { expect, test as base } from "./shopper";
import { gotoReady } from "../helpers/e2e";

/**
 * Checkout fixtures: order a pack, fill the delivery form, reach the payment step, pay with
 * a card. Import `test` and `expect` from here instead of @playwright/test.
 * Each step is also exported as a plain function, for a page of another browser context.
 */

/** The shopper of the checkout tests. */
export const CUSTOMER = {
  firstName: "Camille",
  lastName: "Martin",
  email: "camille.martin@example.fr",
  address: "8 rue des Fleurs",
  postalCode: "69003",
  city: "Lyon",
};
export type Customer = typeof CUSTOMER;

/** Stripe's test cards; the local emulator answers them like Stripe. */
export const CARDS = {
  success: "4242 4242 4242 4242",
  declined: "4000 0000 0000 0002",
  incorrectCvc: "4000 0000 0000 0127",
  incorrectZip: "4000 0000 0000 0036",
};

/** The pack the checkout tests buy (25,90€). */
export const PACK_2 = "6 masques + 2 offerts";

/** The product page, pack 2, 'Commander': the drawer opens with JavaScript, /panier shows without. */
export async function orderPack2(page: Page, javaScriptEnabled = true) {
  await gotoReady(page, "/product/1", javaScriptEnabled);
  await page.getByRole("radio", { name: PACK_2 }).check();
  await page.getByRole("button", { name: "Commander" }).click();
}

/** Fills the delivery form (in the drawer or on /panier) with CUSTOMER, or the values given. */
export async function fillDelivery(scope: Page | Locator, customer: Partial<Customer> = {}) {
  const c = { ...CUSTOMER, ...customer };
  await scope.getByLabel("Prénom").fill(c.firstName);
  await scope.getByLabel("Nom", { exact: true }).fill(c.lastName);
  await scope.getByLabel("Email").fill(c.email);
  await scope.getByLabel("Adresse", { exact: true }).fill(c.address);
  await scope.getByLabel("Code postal").fill(c.postalCode);
  await scope.getByLabel("Ville").fill(c.city);
}

/**
 * With JavaScript: pack 2 ordered, the delivery form filled and sent from the drawer, the
 * payment step shown with its card field.
 */
export async function reachPaymentStep(page: Page, customer: Partial<Customer> = {}) {
  await orderPack2(page);
  const drawer = page.getByRole("dialog");
  await drawer.getByRole("button", { name: "Procéder au paiement" }).click();
  await fillDelivery(drawer, customer);
  await drawer.getByRole("button", { name: "Continuer vers le paiement" }).click();
  await expect(drawer.getByRole("heading", { name: "Finaliser la commande" })).toBeVisible();
  const orderId = (await drawer.getByTestId("checkout-order-id").textContent())!.trim();
  const form = drawer.getByTestId("payment-form");
  await expect(form.getByLabel("Numéro de carte")).toBeVisible();
  return { drawer, form, orderId };
}

/** Fills the payment form's card field: the number, an expiry two years ahead, CVC 123. */
export async function fillCard(form: Locator, number: string = CARDS.success) {
  await form.getByLabel("Numéro de carte").fill(number);
  await form.getByLabel("Expiration (MM / AA)").fill(`12${String(new Date().getFullYear() + 2).slice(2)}`);
  await form.getByLabel("CVC").fill("123");
}

/** Fills the card field, then clicks 'Payer …'. What follows is the test's to check. */
export async function payWithCard(form: Locator, number: string = CARDS.success) {
  await fillCard(form, number);
  await form.getByRole("button", { name: /^Payer / }).click();
}

type CheckoutFixtures = {
  /** Pack 2 ordered from the product page, on the test's page (drawer with JavaScript, /panier without). */
  orderPack2: () => Promise<void>;
  /** Fills the delivery form (drawer or /panier) with CUSTOMER, or the values given. */
  fillDelivery: typeof fillDelivery;
  /** The drawer's payment step for pack 2, on the test's page: { drawer, form, orderId }. */
  paymentStep: (customer?: Partial<Customer>) => ReturnType<typeof reachPaymentStep>;
  /** Fills the payment form's card field. */
  fillCard: typeof fillCard;
  /** Fills the card field and clicks 'Payer …'. */
  payWithCard: typeof payWithCard;
};

export const test = base.extend<CheckoutFixtures>({
  orderPack2: async ({ page, javaScriptEnabled }, use) => {
    await use(() => orderPack2(page, javaScriptEnabled));
  },
  fillDelivery: async ({}, use) => {
    await use(fillDelivery);
  },
  paymentStep: async ({ page }, use) => {
    await use((customer) => reachPaymentStep(page, customer));
  },
  fillCard: async ({}, use) => {
    await use(fillCard);
  },
  payWithCard: async ({}, use) => {
    await use(payWithCard);
  },
});

export { expect };
