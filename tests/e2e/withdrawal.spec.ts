import type { Browser, Page } from "@playwright/test";
import { createPaidOrder, signIn, unique } from "./admin-fixtures";
import { CARDS, expect, test } from "./checkout-fixtures";
import { gotoReady } from "../helpers/e2e";

/**
 * Online withdrawal from the contract (/retractation): the footer's link, the form, the
 * confirmation step, the neutral answer, the acknowledgement in the demo mailbox, and the back
 * office's view. The form is plain POST forms: it works with JavaScript and without.
 */

const NEUTRAL =
  "Si une commande correspond à ces informations, votre demande de rétractation est enregistrée et un accusé de réception vous est envoyé par e-mail dans les minutes qui suivent.";
const SHOTS = "/tmp/shots-withdrawal";

const parisDay = () =>
  new Intl.DateTimeFormat("fr-FR", { timeZone: "Europe/Paris", day: "numeric", month: "long", year: "numeric" })
    .format(new Date())
    .replace(/^1 /, "1er ");

async function fillRequest(page: Page, fields: { orderId: string; email: string; reason?: string }) {
  const form = page.locator("#withdrawal-form");
  await form.getByLabel("Numéro de commande").fill(fields.orderId);
  await form.getByLabel("Adresse email de la commande").fill(fields.email);
  if (fields.reason !== undefined) await form.getByLabel(/^Motif/).fill(fields.reason);
  await form.getByRole("button", { name: "Continuer" }).click();
}

async function confirmRequest(page: Page) {
  const step = page.getByTestId("withdrawal-confirm-step");
  await expect(step.getByRole("heading", { name: "Confirmez votre demande de rétractation" })).toBeVisible();
  await step.getByRole("button", { name: "Confirmer la rétractation" }).click();
  await expect(page.getByTestId("withdrawal-neutral")).toHaveText(NEUTRAL);
  // Without an acknowledgement (a typo matches nothing, and the answer cannot say so): what to do.
  await expect(page.getByTestId("withdrawal-no-ack")).toContainText("Vérifiez vos courriers indésirables");
  await expect(page.getByTestId("withdrawal-no-ack").getByRole("link", { name: "page Contact" })).toHaveAttribute(
    "href",
    "/contact",
  );
  await expect(page).toHaveURL(/\/retractation\?demande=envoyee$/);
}

async function adminPage(browser: Browser) {
  const admin = await (await browser.newContext({ locale: "fr-FR", timezoneId: "Europe/Paris" })).newPage();
  await signIn(admin);
  return admin;
}

test("the footer links the withdrawal page, which says what the right covers", async ({ page, javaScriptEnabled }) => {
  await gotoReady(page, "/", javaScriptEnabled);
  await page.getByRole("contentinfo").getByRole("link", { name: "Se rétracter du contrat ici" }).click();
  await expect(page).toHaveURL(/\/retractation$/);
  await expect(page).toHaveTitle(/^Se rétracter du contrat/);
  await expect(page.getByRole("heading", { level: 1, name: "Se rétracter du contrat" })).toBeVisible();
  const rights = page.getByTestId("withdrawal-rights");
  await expect(rights).toContainText("14 jours à compter de la réception de votre commande");
  await expect(rights).toContainText("article L. 221-28, 5° du Code de la consommation");
  await expect(rights).toContainText("Les frais de retour sont à votre charge");
  await expect(rights).toContainText("article L. 221-24");
  await expect(page.getByTestId("withdrawal-return-address")).toContainText("12 rue des Lilas");
  await expect(rights.getByRole("link", { name: "modèle de formulaire de rétractation" })).toHaveAttribute(
    "href",
    "/cgv#retractation",
  );
  await expect(rights.getByRole("link", { name: "Retours et remboursements" })).toHaveAttribute("href", "/retours");
});

test("both fields are required, with French messages, and the order number has 9 digits", async ({ page, javaScriptEnabled }) => {
  await gotoReady(page, "/retractation", javaScriptEnabled);
  const form = page.locator("#withdrawal-form");
  await form.getByRole("button", { name: "Continuer" }).click();
  await expect(form.getByText("Le numéro de commande est requis")).toBeVisible();
  await expect(form.getByText("L'adresse email est requise")).toBeVisible();
  await expect(form.getByLabel("Numéro de commande")).toHaveAttribute("aria-invalid", "true");

  await fillRequest(page, { orderId: "12345", email: "camille@example.fr" });
  await expect(form.getByText("Le numéro de commande comporte 9 chiffres")).toBeVisible();
  await expect(page.getByTestId("withdrawal-confirm-step")).toHaveCount(0);
});

test("an unknown order: the request is shown to confirm, can be edited, then gets the neutral answer", async ({
  page,
  javaScriptEnabled,
}) => {
  await gotoReady(page, "/retractation", javaScriptEnabled);
  await fillRequest(page, { orderId: "123 456 789", email: "personne@example.fr", reason: "Je me suis trompée de pack." });
  const step = page.getByTestId("withdrawal-confirm-step");
  await expect(step.getByTestId("withdrawal-recap-order")).toHaveText("n°123456789");
  await expect(step.getByTestId("withdrawal-recap-email")).toHaveText("personne@example.fr");
  await expect(step.getByTestId("withdrawal-recap-reason")).toHaveText("Je me suis trompée de pack.");

  await step.getByRole("button", { name: "Modifier ma demande" }).click();
  const form = page.locator("#withdrawal-form");
  await expect(form.getByLabel("Numéro de commande")).toHaveValue("123456789");
  await expect(form.getByLabel("Adresse email de la commande")).toHaveValue("personne@example.fr");
  await expect(form.getByLabel(/^Motif/)).toHaveValue("Je me suis trompée de pack.");
  await form.getByLabel(/^Motif/).fill("");
  await form.getByRole("button", { name: "Continuer" }).click();
  await expect(page.getByTestId("withdrawal-recap-reason")).toHaveText("Aucun (facultatif)");
  await confirmRequest(page);
});

test("a paid order, withdrawn without JavaScript too: recorded and shown to the administrator", async ({
  page,
  browser,
  request,
  javaScriptEnabled,
}) => {
  const email = `retractation+${unique()}@example.fr`;
  const order = await createPaidOrder(request, email);
  await gotoReady(page, `/retractation?commande=${order.id}`, javaScriptEnabled);
  await expect(page.locator("#withdrawal-form").getByLabel("Numéro de commande")).toHaveValue(String(order.id));
  await fillRequest(page, { orderId: String(order.id), email: email.toUpperCase() });
  await confirmRequest(page);

  const admin = await adminPage(browser);
  await admin.goto(`/admin/orders/${order.id}`);
  const block = admin.getByTestId("order-withdrawal");
  await expect(admin.getByRole("heading", { name: "Rétractation demandée" })).toBeVisible();
  await expect(block.getByTestId("withdrawal-deadline")).toHaveText("14 jours restants");
  await expect(block.getByTestId("order-withdrawal-reason")).toHaveText("Aucun motif indiqué");
  // In the orders list too: one final state, no shipping step offered; the next step is its refund.
  await admin.goto(`/admin/orders?q=${order.id}`);
  const row = admin.getByRole("row").filter({ hasText: `#${order.id}` });
  await expect(row.getByTestId("order-final-state-badge")).toHaveText("Rétractation enregistrée");
  await expect(row.getByText("Commande reçue", { exact: true })).toHaveCount(0);
  await expect(row.getByText("Payée", { exact: true })).toHaveCount(0);
  await expect(row.getByRole("button", { name: `Passer la commande ${order.id} en préparation` })).toHaveCount(0);
  const refund = row.getByRole("link", { name: `Rembourser la commande ${order.id}` });
  // Its label on one line, never « Rembourse / r ».
  expect(await refund.evaluate((el) => el.getBoundingClientRect().height < 2 * parseFloat(getComputedStyle(el).lineHeight))).toBe(
    true,
  );
  await refund.click();
  await expect(admin).toHaveURL(new RegExp(`/admin/orders/${order.id}#rembourser$`));
  await expect(admin.getByRole("heading", { name: "Rembourser", exact: true })).toBeVisible();
  await admin.context().close();
});

test.describe("after a card payment", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "card payment needs JavaScript");
  test.describe.configure({ timeout: 120_000 });

  test("paid with 4242, withdrawn from the footer's link: acknowledgement in the mailbox, request in the back office, refunded in full with its email", async ({
    page,
    browser,
    paymentStep,
    payWithCard,
  }) => {
    const email = `retractation-carte+${unique()}@example.fr`;
    const { form, orderId } = await paymentStep({ email });
    await payWithCard(form, CARDS.success);
    await expect(page).toHaveURL(new RegExp(`/order-confirmation/${orderId}$`), { timeout: 15_000 });

    await page.getByRole("contentinfo").getByRole("link", { name: "Se rétracter du contrat ici" }).click();
    await expect(page).toHaveURL(/\/retractation$/);
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: `${SHOTS}/form-${width}.png`, fullPage: true });
    }
    await fillRequest(page, { orderId, email: ` ${email} `, reason: "Le parfum ne me plaît pas." });
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: `${SHOTS}/confirm-${width}.png`, fullPage: true });
    }
    await confirmRequest(page);
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: `${SHOTS}/done-${width}.png`, fullPage: true });
    }

    const admin = await adminPage(browser);
    await admin.goto(`/admin/emails?order=${orderId}`);
    const ack = admin.getByRole("row").filter({ hasText: "Accusé de réception de rétractation" });
    await expect(async () => {
      await admin.reload();
      await expect(ack).toHaveAttribute("data-status", "sent", { timeout: 1_000 });
    }).toPass({ timeout: 15_000 });
    await expect(ack).toContainText(email);
    await ack.getByRole("link", { name: /^Voir/ }).click();
    await expect(admin.getByRole("heading", { level: 1 })).toHaveText(
      `Accusé de réception de votre rétractation (commande n°${orderId})`,
    );
    const text = admin.getByTestId("email-text");
    await expect(text).toContainText(new RegExp(`Demande reçue : le ${parisDay()} à \\d{2}:\\d{2}`));
    await expect(text).toContainText(`n°${orderId}`);
    await expect(text).toContainText("Le parfum ne me plaît pas.");
    await expect(text).toContainText("Seuls les sachets de masques encore scellés peuvent être retournés");
    await expect(admin.frameLocator("iframe[srcdoc]").locator("body")).toContainText(`le ${parisDay()} à`);

    await admin.goto(`/admin/orders/${orderId}`);
    await expect(admin.getByRole("heading", { name: "Rétractation demandée" })).toBeVisible();
    const block = admin.getByTestId("order-withdrawal");
    await expect(block.getByTestId("order-withdrawal-reason")).toHaveText("Le parfum ne me plaît pas.");
    await expect(block.getByTestId("withdrawal-deadline")).toHaveText("14 jours restants");
    for (const width of [390, 1280]) {
      await admin.setViewportSize({ width, height: 900 });
      await admin.screenshot({ path: `${SHOTS}/admin-order-${width}.png`, fullPage: true });
    }

    await admin.goto("/admin/dashboard");
    const list = admin.getByTestId("withdrawals-to-process");
    const row = list.getByRole("link", { name: new RegExp(`Commande #${orderId}`) });
    await expect(row).toBeVisible();
    await expect(row).toContainText("Camille Martin");
    await expect(row).toContainText("14 jours restants");
    await admin.screenshot({ path: `${SHOTS}/admin-dashboard-1280.png`, fullPage: true });
    await row.click();
    await expect(admin).toHaveURL(new RegExp(`/admin/orders/${orderId}$`));

    await admin.goto(`/admin/orders?q=${orderId}`);
    await expect(admin.getByRole("row").filter({ hasText: `#${orderId}` })).toContainText("Rétractation");

    // The administrator refunds the whole amount (prefilled) through Stripe: the order reads « Remboursée »,
    // the customer gets the refund email, and the request leaves the dashboard's list.
    await admin.goto(`/admin/orders/${orderId}`);
    await admin.locator("html[data-hydrated]").waitFor({ state: "attached" });
    // Withdrawn: one state until its refund, and no shipping step can be taken.
    await expect(admin.getByTestId("order-final-state-badge")).toHaveText("Rétractation enregistrée");
    await expect(admin.getByRole("button", { name: "Mettre à jour la commande" })).toHaveCount(0);
    await expect(admin.getByLabel("Montant à rembourser (€)")).toHaveValue("25,90");
    await admin.getByLabel("Motif").fill("Rétractation du client");
    await admin.getByLabel(/Je confirme ce remboursement/).check();
    await admin.getByRole("button", { name: "Rembourser" }).click();
    await expect(admin.getByTestId("order-final-state-badge")).toHaveText("Remboursée");
    await expect(admin.getByTestId("refunded-amount")).toHaveText("25,90€");
    await expect(admin.getByTestId("order-refunds").getByRole("listitem")).toHaveCount(1);
    await expect(admin.getByTestId("order-refunds")).toContainText("Rétractation du client");

    await admin.goto(`/admin/emails?order=${orderId}`);
    const refundEmail = admin.getByRole("row").filter({ hasText: `Remboursement de votre commande n°${orderId}` });
    await expect(async () => {
      await admin.reload();
      await expect(refundEmail).toHaveAttribute("data-status", "sent", { timeout: 1_000 });
    }).toPass({ timeout: 15_000 });
    await expect(refundEmail).toContainText(email);
    await refundEmail.getByRole("link", { name: /^Voir/ }).click();
    await expect(admin.getByTestId("email-text")).toContainText("25,90€");

    await admin.goto("/admin/dashboard");
    await expect(
      admin.getByTestId("withdrawals-to-process").getByRole("link", { name: new RegExp(`Commande #${orderId}`) }),
    ).toHaveCount(0);
    await admin.context().close();
  });
});
