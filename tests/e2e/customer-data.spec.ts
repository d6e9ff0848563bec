import { readFile } from "node:fs/promises";
import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "./shopper";
import { createPaidOrder, signIn, unique } from "./admin-fixtures";

/**
 * A customer's data rights in the back office: the administrator opens the customer from the
 * users list, downloads the export, is refused the erasure while the paid order waits to be
 * shipped, and erases once it is delivered; amounts and order numbers stay.
 */

test("an administrator exports a customer's data, then erases it once the order is delivered", async ({
  page,
  javaScriptEnabled,
}) => {
  test.slow();
  await page.setViewportSize({ width: javaScriptEnabled ? 1280 : 390, height: 900 });
  const email = `rgpd+${unique()}@example.fr`;
  const order = await createPaidOrder(page.request, email);
  const contact = await page.request.post("/api/contact", {
    data: { name: "Camille Martin", email, subject: "Mes données personnelles", message: "Bonjour, que gardez-vous de moi ?" },
  });
  expect(contact.status()).toBe(201);
  await signIn(page);

  // From the users list to the customer's page.
  await page.goto("/admin/users");
  const row = page.getByRole("region", { name: "Liste des utilisateurs" }).getByRole("row").filter({ hasText: email });
  await row.getByRole("link", { name: /^Fiche client de / }).click();
  await expect(page).toHaveURL(/\/admin\/customers\/\d+$/);
  const customerUrl = page.url();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Camille Martin");
  await expect(page.getByTestId("customer-orders")).toContainText(`#${order.id}`);
  await expect(page.getByTestId("customer-orders")).toContainText("25,90€");
  await expect(page.getByTestId("customer-contacts")).toContainText("Mes données personnelles");
  await expect(page.getByTestId("customer-emails")).toContainText("Confirmation de commande");

  // The export: one JSON file named after the customer and the day.
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Exporter les données (JSON)" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^donnees-client-\d+-\d{4}-\d{2}-\d{2}\.json$/);
  const text = await readFile((await download.path())!, "utf8");
  const file = JSON.parse(text);
  expect(file.client).toMatchObject({ email, prenom: "Camille", nom: "Martin" });
  expect(file.commandes).toEqual([expect.objectContaining({ numero: order.id, total: "25.90", paiement: "Payée" })]);
  expect(file.demandesDeContact).toEqual([expect.objectContaining({ objet: "Mes données personnelles" })]);
  expect(text).not.toMatch(/password|hash|token/i);

  // Refused while the paid order is not shipped: the reason, and no erase button.
  await page.goto(customerUrl);
  await expect(page.getByTestId("erasure-refusal")).toHaveText(
    `Effacement impossible : la commande n° ${order.id} n'est pas encore expédiée.`,
  );
  await expect(page.getByRole("link", { name: "Effacer les données personnelles" })).toHaveCount(0);
  await expect(page.getByTestId("customer-audit")).toContainText("Export des données (JSON)");

  // The order delivered (from the order's page, which links back to the customer).
  await page.getByRole("link", { name: `#${order.id}` }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/orders/${order.id}$`));
  await page.getByLabel("Statut").selectOption({ label: "Livrée" });
  await page.getByRole("button", { name: "Mettre à jour la commande" }).click();
  await expect(page.getByTestId("toast")).toBeVisible();
  await page.goto(`/admin/orders/${order.id}`);
  await expect(page.getByLabel("Statut")).toHaveValue("delivered");
  await page.getByRole("link", { name: "Fiche client" }).click();
  await expect(page).toHaveURL(customerUrl);

  // The erasure, after its confirmation.
  await page.getByRole("link", { name: "Effacer les données personnelles" }).click();
  const dialog = page.getByRole("alertdialog", { name: "Effacer les données personnelles ?" });
  await expect(dialog).toContainText("Les factures émises sont conservées 10 ans");
  await dialog.getByRole("button", { name: "Effacer définitivement" }).click();
  await expect(page.getByTestId("toast")).toContainText("Données effacées");
  await expect(page.getByTestId("erased-note")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^Client n°\d+ \(données effacées\)$/);
  await expect(page.getByText(email)).toHaveCount(0);
  await expect(page.getByTestId("customer-orders")).toContainText(`#${order.id}`);
  await expect(page.getByTestId("customer-orders")).toContainText("25,90€");
  await expect(page.getByTestId("customer-contacts")).toContainText("[effacé]");
  await expect(page.getByTestId("customer-audit")).toContainText("Effacement des données personnelles");
  // At Stripe too: the order's payment no longer carries the receipt email.
  await expect(page.getByTestId("stripe-erasure-done")).toContainText("Effacé aussi chez Stripe");
  await expect(page.getByTestId("stripe-erasure-pending")).toHaveCount(0);
  await expect(page.getByTestId("customer-audit")).toContainText("Effacement chez Stripe");
  await expect(page.getByTestId("customer-audit")).toContainText("1 paiement effacé");

  // The order keeps its number, amount and status; its customer is gone.
  await page.goto(`/admin/orders/${order.id}`);
  await expect(page.getByText("Camille Martin")).toHaveCount(0);
  await expect(page.getByText(email)).toHaveCount(0);
  await expect(page.getByLabel("Statut")).toHaveValue("delivered");

  // The users list shows the last exports and erasures.
  await page.goto("/admin/users");
  await expect(page.getByTestId("audit-log")).toContainText("Effacement des données personnelles");
});

test.describe("the customer page's accessibility", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "axe runs once, in the JavaScript project");

  for (const width of [390, 1280]) {
    test(`at ${width}px: no serious or critical violation, one h1, no horizontal page scroll, with and without the confirmation`, async ({
      page,
    }) => {
      test.slow();
      await page.setViewportSize({ width, height: 900 });
      const email = `rgpd.a11y+${unique()}@example.fr`;
      await createPaidOrder(page.request, email);
      await signIn(page);
      await page.goto("/admin/users");
      await page
        .getByRole("region", { name: "Liste des utilisateurs" })
        .getByRole("row")
        .filter({ hasText: email })
        .getByRole("link", { name: /^Fiche client de / })
        .click();
      await expect(page).toHaveURL(/\/admin\/customers\/\d+$/);
      const customerUrl = page.url();
      for (const url of [customerUrl, `${customerUrl}?confirm=erase`]) {
        await page.goto(url);
        await expect(page.locator("h1")).toHaveCount(1);
        const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
        const blocking = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
        expect(blocking.map((v) => `${url} ${v.id}: ${v.help}`)).toEqual([]);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow, `${url} scrolls sideways`).toBeLessThanOrEqual(0);
      }
      // The refusal, in the confirmation too.
      await expect(page.getByRole("alertdialog")).toContainText("n'est pas encore expédiée");
    });
  }
});
