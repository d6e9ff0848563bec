import { expect, test } from "./shopper";
import { signIn } from "./admin-fixtures";

/**
 * The owner's health page from the back office's menu, with and without JavaScript. Its colours
 * under a failing SMTP server and a stale backup: tests/server/admin-sante.test.ts (a shop
 * process of its own, since this suite's server sends to the demo mailbox).
 */
test("the menu leads to « Santé de la boutique », whose items say their colour in words and lead on", async ({ page }) => {
  await signIn(page);
  await page.getByRole("navigation", { name: "Administration" }).getByRole("link", { name: "Santé de la boutique" }).click();
  await expect(page).toHaveURL(/\/admin\/sante$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Santé de la boutique");
  for (const title of [
    "Sauvegarde",
    "Emails",
    "Notifications de paiement (webhooks Stripe)",
    "Renouvellements d'abonnement",
    "Limites anti-abus",
    "Mode et mentions légales",
  ])
    await expect(page.getByRole("heading", { level: 2, name: title })).toBeVisible();
  const mode = page.getByTestId("health-mode");
  await expect(mode).toHaveAttribute("data-level", "amber");
  await expect(mode).toContainText("Orange · à surveiller");
  await expect(mode).toContainText("Mode démonstration : les paiements ne sont pas réels.");
  await expect(page.getByTestId("health-backup")).toContainText("Une sauvegarde automatique est prévue toutes les 24 heures.");
  await page.getByTestId("health-emails").getByRole("link", { name: "Voir les emails" }).click();
  await expect(page).toHaveURL(/\/admin\/emails$/);
});
