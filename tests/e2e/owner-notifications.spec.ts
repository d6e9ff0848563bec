import { mkdirSync, writeFileSync } from "node:fs";
import { createPaidOrder, signIn, unique } from "./admin-fixtures";
import { expect, test } from "./checkout-fixtures";
import { gotoReady, testShopperHeaders } from "../helpers/e2e";

/**
 * The owner is told what needs them: the « Notifications » group of the settings (a plain form,
 * with or without JavaScript), and the shop's email on a withdrawal request with its refund
 * deadline, as the demo mailbox shows it. (The same email read from a real SMTP server:
 * tests/server/owner-mail.test.ts.)
 */

const SHOTS = "/tmp/shots-ownermail";

const parisDay = (at: Date) =>
  new Intl.DateTimeFormat("fr-FR", { timeZone: "Europe/Paris", day: "numeric", month: "long", year: "numeric" })
    .format(at)
    .replace(/^1 /, "1er ");

test("the shop's notifications: one switched off then on again, and the withdrawal email with its deadline", async ({
  page,
  javaScriptEnabled,
}) => {
  test.slow();
  mkdirSync(SHOTS, { recursive: true });
  const project = javaScriptEnabled ? "js" : "no-js";
  // Each project switches its own notification, so the two never race on the same box.
  const label = javaScriptEnabled ? "Remboursement fait depuis Stripe" : "Email non remis";
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page);
  await gotoReady(page, "/admin/settings", javaScriptEnabled);
  const group = page.locator("#notifications");
  await expect(group.getByRole("heading", { name: "Notifications" })).toBeVisible();
  await expect(group).toContainText("contact@maison-eclat.fr");
  const box = group.getByRole("checkbox", { name: label });
  await expect(box).toBeChecked();
  await expect(group.getByRole("checkbox", { name: /^Demande de rétractation/ })).toBeChecked();
  await expect(group.getByRole("checkbox", { name: /^Résumé quotidien/ })).not.toBeChecked();
  await expect(group).toContainText("Un seul email chaque matin à 8 h (heure de Paris)");
  await group.screenshot({ path: `${SHOTS}/settings-notifications-1280-${project}.png` });

  await box.uncheck();
  await group.getByRole("button", { name: "Enregistrer les notifications" }).click();
  await expect(page.getByTestId("toast")).toContainText("Notifications enregistrées");
  await expect(page).toHaveURL(/\/admin\/settings#notifications$/);
  await gotoReady(page, "/admin/settings", javaScriptEnabled);
  await expect(box).not.toBeChecked();
  await box.check();
  await group.getByRole("button", { name: "Enregistrer les notifications" }).click();
  await expect(page.getByTestId("toast")).toContainText("Notifications enregistrées");
  await gotoReady(page, "/admin/settings", javaScriptEnabled);
  await expect(box).toBeChecked();
  await page.setViewportSize({ width: 390, height: 844 });
  await group.screenshot({ path: `${SHOTS}/settings-notifications-390-${project}.png` });

  // A withdrawal: the shop's email, in the demo mailbox, with the refund deadline and the order's page.
  const email = `retract+${unique()}@example.fr`;
  const order = await createPaidOrder(page.request, email);
  const withdrawal = await page.request.post("/api/withdrawals", {
    headers: testShopperHeaders(),
    data: { orderId: String(order.id), email, reason: "Ne me convient pas" },
  });
  expect(withdrawal.status()).toBe(200);
  const deadline = parisDay(new Date(Date.now() + 14 * 86_400_000));
  await page.setViewportSize({ width: 1280, height: 900 });
  await gotoReady(page, `/admin/emails?order=${order.id}`, javaScriptEnabled);
  const row = page.getByRole("row").filter({ hasText: "Boutique : demande de rétractation" });
  await expect(row).toHaveCount(1);
  await expect(async () => {
    await page.reload();
    await expect(row).toHaveAttribute("data-status", "sent", { timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  await row.getByRole("link", { name: /^Voir/ }).click();
  await expect(
    page.getByRole("heading", { name: `Rétractation à rembourser avant le ${deadline} : commande n°${order.id}` }),
  ).toBeVisible();
  const text = (await page.getByTestId("email-text").textContent()) ?? "";
  expect(text).toContain(`À rembourser au plus tard le ${deadline}`);
  expect(text).toContain("Motif : Ne me convient pas");
  expect(text).toMatch(new RegExp(`Ouvrir la commande n°${order.id} : https?://[^\\s]+/admin/orders/${order.id}`));
  expect(text).toMatch(/RCS (Paris|Bordeaux) 921 458 303/); // legal-settings.spec.ts moves the registry to Bordeaux for a while
  const html = (await page.getByTestId("email-html").getAttribute("srcdoc")) ?? "";
  expect(html).toContain(`À rembourser au plus tard le ${deadline}`);
  if (javaScriptEnabled) {
    // The email itself, opened as the owner's mail client would show it, on a desktop and on a phone.
    writeFileSync(`${SHOTS}/owner-withdrawal.html`, html);
    const mail = await page.context().newPage();
    await mail.setContent(html);
    for (const width of [1280, 390]) {
      await mail.setViewportSize({ width, height: 900 });
      await mail.screenshot({ path: `${SHOTS}/owner-withdrawal-${width}.png`, fullPage: true });
    }
    await mail.close();
  }
});
