import { signIn } from "./admin-fixtures";
import { CARDS, expect, test } from "./checkout-fixtures";

/**
 * The demo mailbox: a purchase with the card 4242 in demo mode, then its confirmation read in
 * /admin/emails, as a newcomer trying the shop would.
 */

test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "card payment needs JavaScript");
test.describe.configure({ timeout: 90_000 });

test("a purchase with 4242 puts its confirmation in the demo mailbox, with its HTML and text parts", async ({
  page,
  browser,
  paymentStep,
  payWithCard,
}) => {
  const email = `boite-demo+${Date.now()}@example.fr`;
  const { form, orderId } = await paymentStep({ email });
  await payWithCard(form, CARDS.success);
  await expect(page).toHaveURL(new RegExp(`/order-confirmation/${orderId}$`), { timeout: 15_000 });

  const admin = await (await browser.newContext({ locale: "fr-FR", timezoneId: "Europe/Paris" })).newPage();
  await signIn(admin);
  await admin.goto(`/admin/emails?order=${orderId}`);
  await expect(admin.getByTestId("demo-mailbox-note")).toBeVisible();
  const confirmation = admin.getByRole("row").filter({ hasText: "Confirmation de commande" });
  // Sent by the server's sender into the mailbox within moments of the payment.
  await expect(async () => {
    await admin.reload();
    await expect(confirmation).toHaveAttribute("data-status", "sent", { timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  await expect(confirmation).toContainText(email);
  await expect(admin.getByRole("row").filter({ hasText: "Boutique : nouvelle commande payée" })).toHaveCount(1);

  await confirmation.getByRole("link", { name: /^Voir/ }).click();
  await expect(admin.getByRole("heading", { level: 1 })).toHaveText(`Confirmation de votre commande n°${orderId}`);
  const html = admin.frameLocator("iframe[srcdoc]");
  const body = html.locator("body");
  await expect(body).toBeVisible();
  await expect(body).toContainText(`n°${orderId}`);
  await expect(body).toContainText("25,90€");
  await expect(body).toContainText("8 rue des Fleurs");
  await expect(admin.getByTestId("email-text")).toContainText("Modèle de formulaire de rétractation");
  await expect(admin.getByTestId("email-text")).toContainText("25,90€");

  // The tracking link of the email proves ownership: the tracking page shows the street.
  const text = (await admin.getByTestId("email-text").textContent()) ?? "";
  const link = text.match(/https?:\/\/\S+\/track-order\?id=\d+&cle=[\w-]+/)?.[0];
  expect(link).toBeDefined();
  const visitor = await (await browser.newContext()).newPage();
  await visitor.goto(new URL(link!).pathname + new URL(link!).search);
  await expect(visitor.getByText("8 rue des Fleurs")).toBeVisible();
  await visitor.context().close();
  await admin.context().close();
});
