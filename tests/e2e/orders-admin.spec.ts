import type { Page } from "@playwright/test";
import { expect, test } from "./shopper";
import { createContact, createOrder, createPaidOrder, signIn, unique } from "./admin-fixtures";

/**
 * Orders that are orders: an unpaid checkout stays apart and cannot be shipped; a paid order has
 * its numbered invoice (admin and customer); the admin's tables fit a desktop and a phone.
 */

const NOT_PAID = "Paiement non reçu : cette commande n'est pas encore payée.";

test("an unpaid checkout is neither among the orders nor shippable, and waits under 'Paniers abandonnés'", async ({
  page,
  request,
  javaScriptEnabled,
}) => {
  test.slow();
  await page.setViewportSize({ width: 1280, height: 900 });
  const email = `abandon+${unique()}@example.fr`;
  const order = await createOrder(request, email);
  await signIn(page);

  await page.goto(`/admin/orders?q=${encodeURIComponent(email)}`);
  await expect(page.getByRole("region", { name: "Liste des commandes" })).toContainText("Aucune commande trouvée");

  await page.getByRole("link", { name: /^Paniers abandonnés · paiement en attente/ }).click();
  await expect(page).toHaveURL(/view=unpaid/);
  await page.getByLabel("Numéro de commande ou email du client").fill(email);
  await page.getByRole("button", { name: "Filtrer" }).click();
  const row = page
    .getByRole("region", { name: "Liste des paniers en attente de paiement" })
    .getByRole("row")
    .filter({ hasText: `#${order.id}` });
  await expect(row).toContainText("Paiement en attente");
  await expect(row.getByRole("button", { name: /Marquer/ })).toHaveCount(0);

  await row.getByRole("link", { name: `Voir la commande ${order.id}` }).click();
  await expect(page.getByTestId("fulfilment-refusal")).toContainText(NOT_PAID);
  await page.getByLabel("Statut").selectOption({ label: "Expédiée" });
  await page.getByLabel("Numéro de suivi").fill("6A000111");
  await page.getByRole("button", { name: "Mettre à jour la commande" }).click();
  // The reason under the status field (the form), not only in the note above it.
  await expect(page.locator(`form#order-${order.id}`).getByText(NOT_PAID, { exact: false })).toBeVisible();
  if (javaScriptEnabled) await expect(page.getByTestId("toast")).toContainText("Mise à jour refusée");
  await page.goto(`/admin/orders/${order.id}`);
  await expect(page.getByLabel("Statut")).toHaveValue("pending");
  await expect(page.getByText("Facture (émise au paiement)")).toBeVisible();

  await page.goto(`/track-order?id=${order.id}`);
  await expect(page.getByTestId("tracking-status")).toHaveText(NOT_PAID);
});

test("a paid order's invoice: numbered in sequence, with its VAT, from the confirmation email and in the back office", async ({
  page,
  browser,
  javaScriptEnabled,
}) => {
  test.skip(!javaScriptEnabled, "one journey is enough: it runs in the JavaScript project");
  test.slow();
  const email = `facture+${unique()}@example.fr`;
  // The page's own request context: its browser is the buyer's (the orders cookie).
  const first = await createPaidOrder(page.request, email);
  const order = await createPaidOrder(page.request, email);

  // The confirmation page links the invoice once paid.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/order-confirmation/${order.id}`);
  await expect(page.getByTestId("invoice-link")).toHaveAttribute("href", new RegExp(`^/facture/${order.id}\\?cle=`));

  // The confirmation email, in the demo mailbox, carries the customer's link.
  const admin = await (
    await browser.newContext({ locale: "fr-FR", timezoneId: "Europe/Paris", viewport: { width: 1280, height: 900 } })
  ).newPage();
  await signIn(admin);
  await admin.goto(`/admin/emails?order=${order.id}`);
  const confirmation = admin.getByRole("row").filter({ hasText: "Confirmation de commande" });
  await expect(async () => {
    await admin.reload();
    await expect(confirmation).toHaveAttribute("data-status", "sent", { timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  await confirmation.getByRole("link", { name: /^Voir/ }).click();
  const text = (await admin.getByTestId("email-text").textContent()) ?? "";
  const link = text.match(/Votre facture n°(F\d{4}-\d{6}) : (https?:\/\/\S+\/facture\/\d+\?cle=[\w-]+)/);
  expect(link, text).not.toBeNull();
  const [, number, url] = link!;

  // The customer opens it on a phone: the seller, the number, the VAT breakdown, no demo banner.
  const customer = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
  await customer.goto(new URL(url).pathname + new URL(url).search);
  await expect(customer.getByTestId("invoice-number")).toHaveText(number);
  await expect(customer.getByTestId("invoice-seller")).toContainText("Maison Éclat SAS");
  await expect(customer.getByTestId("invoice-seller")).toContainText("SIRET : 921 458 303 00017");
  await expect(customer.getByTestId("invoice-seller")).toContainText("N° de TVA intracommunautaire : FR51921458303");
  // The legal form, share capital and RCS (Code de commerce R123-237).
  await expect(customer.getByTestId("invoice-legal-form")).toHaveText("SAS au capital de 10 000 €");
  await expect(customer.getByTestId("invoice-seller")).toContainText(/RCS (Paris|Bordeaux) 921 458 303/); // legal-settings.spec.ts moves the registry to Bordeaux for a while
  await expect(customer.getByText("Facturé à")).toBeVisible();
  await expect(customer.getByText("3 rue des Roses")).toBeVisible();
  // On a phone each line is a short list (the table from 640 px and on paper).
  const line = customer
    .getByRole("list", { name: "Lignes de la facture" })
    .getByRole("listitem")
    .filter({ hasText: "Masque Hydrogel au Collagène" });
  await expect(line).toContainText("21,58€");
  await expect(line).toContainText("20\u202f%");
  await expect(line).toContainText("4,32€");
  await expect(line).toContainText("25,90€");
  await expect(customer.getByTestId("invoice-total-excluding")).toHaveText("21,58€");
  await expect(customer.getByTestId("invoice-total-vat")).toHaveText("4,32€");
  await expect(customer.getByTestId("invoice-total-including")).toHaveText("25,90€");
  await expect(customer.getByText(/Boutique de démonstration/)).toHaveCount(0);
  await customer.emulateMedia({ media: "print" });
  await expect(customer.getByRole("banner")).toBeHidden();
  await expect(customer.getByRole("button", { name: /Imprimer/ })).toBeHidden();
  await expect(customer.getByTestId("invoice-seller")).toContainText(/RCS (Paris|Bordeaux) 921 458 303/); // legal-settings.spec.ts moves the registry to Bordeaux for a while
  await customer.screenshot({ path: "/tmp/shots-ownermail/invoice-390-print.png", fullPage: true });
  // A forged key: 404.
  const forged = await customer.goto(`/facture/${order.id}?cle=${"A".repeat(43)}`);
  expect(forged?.status()).toBe(404);
  await customer.context().close();

  // The back office: the same number, the order paid before it got the number before it.
  await admin.goto(`/admin/orders/${order.id}`);
  await expect(admin.getByRole("link", { name: `Facture ${number}` })).toHaveAttribute(
    "href",
    `/admin/orders/${order.id}/invoice`,
  );
  await admin.goto(`/admin/orders/${order.id}/invoice`);
  await expect(admin.getByTestId("invoice-number")).toHaveText(number);
  await expect(
    admin.getByTestId("invoice-lines").getByRole("row").filter({ hasText: "Masque Hydrogel au Collagène" }),
  ).toContainText("21,58€");
  await admin.goto(`/admin/orders/${first.id}/invoice`);
  const firstNumber = (await admin.getByTestId("invoice-number").textContent()) ?? "";
  expect(firstNumber).toMatch(/^F\d{4}-\d{6}$/);
  expect(Number(number.slice(-6))).toBeGreaterThan(Number(firstNumber.slice(-6)));
  await admin.context().close();
});

const TABLE_PAGES = [
  "/admin/orders",
  "/admin/orders?view=unpaid",
  "/admin/products",
  "/admin/users",
  "/admin/contacts",
  "/admin/emails",
  "/admin/subscriptions",
];

/** Whether the page or one of its tables scrolls sideways: the list of those that do. */
async function sidewaysScrolls(page: Page) {
  return page.evaluate(() => {
    const found: string[] = [];
    if (document.documentElement.scrollWidth > document.documentElement.clientWidth) found.push("page");
    document.querySelectorAll<HTMLElement>("[data-testid=data-table]").forEach((el) => {
      if (el.scrollWidth > el.clientWidth) found.push(el.getAttribute("aria-label") ?? "table");
    });
    return found;
  });
}

test("the admin's tables fit 1280 px without scrolling sideways, and become cards that keep every column on a phone", async ({
  page,
  request,
  javaScriptEnabled,
}) => {
  test.skip(!javaScriptEnabled, "a layout check: the JavaScript project is enough");
  test.slow();
  const subject = `Tableaux ${unique()}`;
  const message =
    "Bonjour, je voudrais savoir si les masques conviennent aux peaux sensibles et réactives, et comment les conserver après ouverture du sachet.";
  await request.post("/api/contact", {
    data: { name: "Camille Martin-Delacroix", email: `tableaux+${unique()}@example.fr`, subject, message },
  });
  await createPaidOrder(request, `tableaux+${unique()}@exemple-de-domaine-long.fr`);
  await createContact(request, `Autre ${unique()}`);
  await signIn(page);

  await page.setViewportSize({ width: 1280, height: 900 });
  for (const path of TABLE_PAGES) {
    await page.goto(path);
    await expect(page.getByTestId("data-table")).toBeVisible();
    expect(await sidewaysScrolls(page), path).toEqual([]);
  }
  // The contact list shows the first words of each message, and its actions are in view.
  await page.goto("/admin/contacts");
  const row = page.getByRole("row").filter({ hasText: subject });
  await expect(row.getByTestId("contact-excerpt")).toHaveText(
    /^Bonjour, je voudrais savoir si les masques conviennent aux peaux sensibles et\S*…$/,
  );
  await expect(row.getByRole("link", { name: /^Supprimer la demande/ })).toBeInViewport();

  await page.setViewportSize({ width: 390, height: 844 });
  for (const path of TABLE_PAGES) {
    await page.goto(path);
    await expect(page.getByTestId("data-table")).toBeVisible();
    expect(await sidewaysScrolls(page), `${path} at 390 px`).toEqual([]);
  }
  await page.goto("/admin/contacts");
  const card = page.locator("tr").filter({ hasText: subject });
  await expect(page.locator("thead")).toBeHidden();
  // Each cell of the card is labelled with its column, Actions included, and the actions are in view.
  const labels = await card.locator("td").evaluateAll((cells) => cells.map((td) => getComputedStyle(td, "::before").content));
  expect(labels).toEqual(['"Date"', '"Nom"', '"Email"', '"Objet"', '"Statut"', '"Actions"']);
  const remove = card.getByRole("link", { name: /^Supprimer la demande/ });
  await remove.scrollIntoViewIfNeeded();
  await expect(remove).toBeInViewport();
  await expect(card.getByTestId("contact-excerpt")).toBeVisible();
});
