import type { APIRequestContext, Browser } from "@playwright/test";
import { EMULATOR, emulatorAuth } from "../helpers/e2e";
import { ADMIN } from "./admin-fixtures";
import { expect, payWithCard, reachPaymentStep, type Customer } from "./checkout-fixtures";

/** Shared steps of the subscription specs: buying one, and reading its emails as the customer would. */

type StripeEvent = { id: string; type: string; data: { object: { id: string; metadata?: Record<string, string> } } };

/**
 * A subscription bought with 4242 through the checkout drawer, in a JavaScript context of its
 * own (by the given customer, the usual one by default): its order number, and the Stripe
 * subscription the emulator made for it.
 */
export async function buySubscription(browser: Browser, baseURL: string, customer: Partial<Customer> = {}) {
  const context = await browser.newContext({ baseURL, javaScriptEnabled: true, locale: "fr-FR", timezoneId: "Europe/Paris" });
  const page = await context.newPage();
  try {
    const { form, orderId } = await reachPaymentStep(page, customer);
    await form.getByRole("radio", { name: /Abonnement/ }).check();
    await form.getByRole("checkbox", { name: /J'accepte l'abonnement/ }).check();
    await payWithCard(form);
    await expect(page).toHaveURL(new RegExp(`/order-confirmation/${orderId}$`), { timeout: 15_000 });
    const order = await (await page.request.get(`/api/orders/${orderId}`)).json();
    expect(order).toMatchObject({ paymentStatus: "paid" });
    // The public order view has no Stripe ids: ask the emulator which subscription the order created.
    const created = await (
      await page.request.get(`${EMULATOR}/v1/events?type=customer.subscription.created&limit=100`, { headers: emulatorAuth() })
    ).json();
    const sub = (created.data as StripeEvent[]).find((e) => e.data.object.metadata?.orderId === orderId)?.data.object;
    expect(sub?.id).toMatch(/^sub_/);
    return { orderId, subscriptionId: sub!.id };
  } finally {
    await context.close();
  }
}

/** The administrator's API, to read the demo mailbox. */
export async function adminApi(browser: Browser, baseURL: string) {
  const context = await browser.newContext({ baseURL });
  const signedIn = await context.request.post("/api/admin/login", { data: ADMIN, headers: { Origin: baseURL } });
  expect(signedIn.status()).toBe(200);
  return context.request;
}

/** The text part of the order's email of this kind, once the sender has sent it. */
export async function emailText(admin: APIRequestContext, orderId: string, kind: string): Promise<string> {
  let text = "";
  await expect(async () => {
    const list = await (await admin.get(`/api/admin/emails?order=${orderId}&kind=${kind}`)).json();
    const email = (list.emails as Array<{ id: number; kind: string; status: string }>).find(
      (e) => e.kind === kind && e.status === "sent",
    );
    expect(email).toBeDefined();
    const detail = await (await admin.get(`/api/admin/emails/${email!.id}`)).json();
    text = detail.text;
  }).toPass({ timeout: 20_000 });
  return text;
}

/** The path and query of the first link of the text to this page. */
export function linkTo(text: string, pathname: string): string {
  const url = text.match(new RegExp(`https?://\\S+${pathname.replace(/\//g, "\\/")}\\?\\S+`))?.[0];
  expect(url, pathname).toBeDefined();
  const parsed = new URL(url!);
  return `${parsed.pathname}${parsed.search}`;
}
