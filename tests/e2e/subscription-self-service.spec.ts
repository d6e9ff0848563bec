import type { APIRequestContext, Browser, Locator, Page } from "@playwright/test";
import { gotoReady } from "../helpers/e2e";
import { signIn } from "./admin-fixtures";
import { expect, test } from "./checkout-fixtures";
import { adminApi, buySubscription, emailText, linkTo } from "./subscription-fixtures";

/**
 * The subscriber adapts the subscription on /mon-abonnement, each change followed by a
 * simulated renewal (the admin's test-clock button) that shows its effect. With JavaScript on
 * a phone: skip the next delivery (nothing charged), then change pack (the new amount). Without
 * JavaScript on a desktop: pause then « Reprendre maintenant », and the reactivation of a
 * cancellation planned at the end of the period.
 */

test.describe.configure({ timeout: 150_000 });

const DAY_MS = 86_400_000;
const frenchDate = (iso: string | number) =>
  new Intl.DateTimeFormat("fr-FR", { timeZone: "Europe/Paris", day: "2-digit", month: "2-digit", year: "numeric" }).format(
    new Date(iso),
  );

type ApiSubscription = {
  id: number;
  nextRenewalAt: string;
  amount: string;
  timeline: { kind: string; label: string; reason: string | null }[];
};

async function subscriptionOf(admin: APIRequestContext, orderId: string): Promise<ApiSubscription> {
  const list = await (await admin.get(`/api/admin/subscriptions?q=${orderId}`)).json();
  const id = (list.subscriptions as { id: number; firstOrderId: number }[]).find((s) => String(s.firstOrderId) === orderId)!.id;
  return await (await admin.get(`/api/admin/subscriptions/${id}`)).json();
}

/** The admin simulates the next renewal (in a context of their own): the toast's text. */
async function simulateRenewal(browser: Browser, baseURL: string, id: number, javaScriptEnabled: boolean): Promise<string> {
  const context = await browser.newContext({ baseURL, javaScriptEnabled, locale: "fr-FR", timezoneId: "Europe/Paris" });
  const page = await context.newPage();
  try {
    await signIn(page);
    await gotoReady(page, `/admin/subscriptions/${id}`, javaScriptEnabled);
    await page.getByRole("button", { name: "Simuler le prochain renouvellement" }).click();
    const toast = page.getByTestId("toast");
    await expect(toast).toContainText("simulé", { timeout: 30_000 });
    return (await toast.textContent()) ?? "";
  } finally {
    await context.close();
  }
}

/** How many pixels of a select's chosen option its box cuts off (0 or less: it reads whole). */
async function textOverflow(select: Locator): Promise<number> {
  return await select.evaluate((el: HTMLSelectElement) => {
    const style = getComputedStyle(el);
    const context = document.createElement("canvas").getContext("2d")!;
    context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return context.measureText(el.options[el.selectedIndex].text).width - room;
  });
}

async function openPage(page: Page, browser: Browser, baseURL: string, javaScriptEnabled: boolean) {
  const { orderId } = await buySubscription(browser, baseURL);
  const admin = await adminApi(browser, baseURL);
  const link = linkTo(await emailText(admin, orderId, "order_confirmation"), "/mon-abonnement");
  await gotoReady(page, link, javaScriptEnabled);
  await expect(page.getByRole("heading", { level: 1, name: "Mon abonnement" })).toBeVisible();
  return { orderId, admin, link, subscription: await subscriptionOf(admin, orderId) };
}

test("on a phone: skip the next delivery (the renewal charges nothing), then change pack (the next renewal charges its price)", async ({
  page,
  browser,
  baseURL,
  javaScriptEnabled,
}) => {
  test.skip(!javaScriptEnabled, "The phone path runs with JavaScript; the desktop one without.");
  await page.setViewportSize({ width: 390, height: 844 });
  const { orderId, admin, link, subscription } = await openPage(page, browser, baseURL!, javaScriptEnabled);
  const first = subscription.nextRenewalAt;
  const second = Date.parse(first) + 28 * DAY_MS;
  const actions = page.getByTestId("subscription-actions");
  await expect(actions.getByRole("button", { name: "Sauter la prochaine livraison" })).toBeVisible();
  await expect(actions.getByRole("button", { name: "Mettre en pause" })).toBeVisible();
  await expect(actions.getByRole("button", { name: "Changer de pack" })).toBeVisible();
  await actions.scrollIntoViewIfNeeded();
  await page.screenshot({ path: "tests/.tmp/mon-abonnement-390.png", fullPage: true });
  // « Adapter mon abonnement »: the frequency's current choice reads whole in its select on a phone.
  const frequency = actions.getByLabel(/Recevoir un colis/);
  await expect(frequency.locator("option:checked")).toHaveText("toutes les 4 semaines (actuelle)");
  expect(await textOverflow(frequency)).toBeLessThanOrEqual(0);

  await actions.getByRole("button", { name: "Sauter la prochaine livraison" }).click();
  await expect(page.getByTestId("toast")).toContainText("Votre prochaine livraison est sautée");
  await expect(page.getByTestId("subscription-pause")).toContainText(
    `Prochaine livraison sautée : rien ne sera prélevé le ${frenchDate(first)}. Prochain prélèvement le ${frenchDate(second)} (25,90€).`,
  );
  await expect(page.getByTestId("subscription-next-renewal")).toHaveText(`${frenchDate(second)} : 25,90€`);
  expect(await emailText(admin, orderId, "subscription_changed")).toContain(`Livraison du ${frenchDate(first)} sautée`);

  // The renewal comes: nothing is charged, no order; the next one is four weeks later.
  expect(await simulateRenewal(browser, baseURL!, subscription.id, true)).toContain("rien n'a été prélevé");
  await gotoReady(page, link, javaScriptEnabled);
  await expect(page.getByTestId("subscription-next-renewal")).toHaveText(`${frenchDate(second)} : 25,90€`);
  await expect(page.getByTestId("subscription-pause")).toHaveCount(0);
  await expect(page.getByTestId("subscription-orders").getByRole("listitem")).toHaveCount(1);

  // Another pack from the next renewal, at its price.
  await page.getByRole("radio", { name: /9 masques \+ 3 offerts · 32,90€/ }).check();
  await page.getByRole("button", { name: "Changer de pack" }).click();
  await expect(page.getByTestId("toast")).toContainText("Votre pack a changé");
  await expect(page.getByTestId("toast")).toContainText(`32,90€ à partir du renouvellement du ${frenchDate(second)}`);
  await expect(page.getByTestId("subscription-pack")).toContainText("9 masques + 3 offerts");
  await expect(page.getByTestId("subscription-amount")).toHaveText("32,90€ toutes les 4 semaines");
  expect(await simulateRenewal(browser, baseURL!, subscription.id, true)).toMatch(
    /Renouvellement n°1 simulé : commande #\d+ créée/,
  );
  await gotoReady(page, link, javaScriptEnabled);
  await expect(page.getByTestId("subscription-orders")).toContainText("Renouvellement n°1");
  await expect(page.getByTestId("subscription-orders")).toContainText("32,90€");

  // The admin's history shows both changes, by the customer.
  const labels = (await subscriptionOf(admin, orderId)).timeline.filter((e) => e.kind === "change").map((e) => e.label);
  expect(labels).toEqual([
    expect.stringMatching(/^Par le client : Livraison du/),
    expect.stringMatching(/^Par le client : Nouveau pack/),
  ]);
});

test("without JavaScript: pause for 2 cycles then resume now; every 6 weeks; a planned cancellation is reactivated, and the renewal is charged", async ({
  page,
  browser,
  baseURL,
  javaScriptEnabled,
}) => {
  test.skip(javaScriptEnabled, "The desktop path runs without JavaScript; the phone one with.");
  await page.setViewportSize({ width: 1280, height: 900 });
  const { admin, link, subscription } = await openPage(page, browser, baseURL!, javaScriptEnabled);
  const first = subscription.nextRenewalAt;
  const resumes = Date.parse(first) + 2 * 28 * DAY_MS;

  await page.getByLabel("Faire une pause de").selectOption("2");
  await page.getByRole("button", { name: "Mettre en pause" }).click();
  await expect(page.getByTestId("toast")).toContainText("Votre abonnement est en pause");
  await expect(page.getByTestId("subscription-pause")).toContainText(`Abonnement en pause jusqu'au ${frenchDate(resumes)}`);
  await expect(page.getByTestId("subscription-next-renewal")).toHaveText(`${frenchDate(resumes)} : 25,90€`);
  await page.screenshot({ path: "tests/.tmp/mon-abonnement-pause-1280.png", fullPage: true });
  await page.getByRole("button", { name: "Reprendre maintenant" }).click();
  await expect(page.getByTestId("toast")).toContainText("Votre abonnement a repris");
  await expect(page.getByTestId("subscription-pause")).toHaveCount(0);
  await expect(page.getByTestId("subscription-next-renewal")).toHaveText(`${frenchDate(first)} : 25,90€`);

  // Every 6 weeks from the next renewal.
  await page.getByLabel(/Recevoir un colis/).selectOption("6");
  await page.getByRole("button", { name: "Changer de fréquence" }).click();
  await expect(page.getByTestId("toast")).toContainText("La fréquence de votre abonnement a changé");
  await expect(page.getByTestId("subscription-amount")).toHaveText("25,90€ toutes les 6 semaines");
  await expect(page.getByTestId("subscription-next-renewal")).toHaveText(`${frenchDate(first)} : 25,90€`);

  // The cancellation screen offers a pause, and still cancels in one click (not clicked here).
  await page.getByText("Résilier", { exact: true }).click();
  await expect(page.getByRole("link", { name: "Plutôt faire une pause ?" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Confirmer la résiliation" })).toBeVisible();

  // The shop plans the end at the end of the period; the subscriber reactivates it, nothing charged today.
  const planned = await admin.post(`/api/admin/subscriptions/${subscription.id}/cancel`, {
    data: { when: "period_end" },
    headers: { Origin: baseURL! },
  });
  expect(planned.status()).toBe(200);
  await gotoReady(page, link, javaScriptEnabled);
  await expect(page.getByTestId("subscription-state")).toContainText("Résiliation prévue");
  await page.getByRole("button", { name: "Réactiver" }).click();
  await expect(page.getByTestId("toast")).toContainText("Votre abonnement est réactivé");
  await expect(page.getByTestId("subscription-state")).toHaveText("Actif");
  await expect(page.getByTestId("subscription-orders").getByRole("listitem")).toHaveCount(1);

  // The renewal is charged as usual.
  expect(await simulateRenewal(browser, baseURL!, subscription.id, false)).toMatch(
    /Renouvellement n°1 simulé : commande #\d+ créée/,
  );
  await gotoReady(page, link, javaScriptEnabled);
  await expect(page.getByTestId("subscription-orders")).toContainText("Renouvellement n°1");
});
