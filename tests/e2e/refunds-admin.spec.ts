import { expect, test } from "./shopper";
import { createPaidOrder, signIn, unique } from "./admin-fixtures";

/**
 * A paid order refunded from the back office, in two steps: a part, then the rest (prefilled).
 * The refunds are listed with their credit notes, and the order reads « Partiellement
 * remboursée » then « Remboursée ». With and without JavaScript (a plain form post).
 */

test("the admin refunds part of a paid order, then the rest", async ({ page, request, javaScriptEnabled }) => {
  test.slow();
  await page.setViewportSize({ width: 1280, height: 900 });
  const order = await createPaidOrder(request, `remboursement+${unique()}@example.fr`);
  await signIn(page);
  await page.goto(`/admin/orders/${order.id}`);

  await expect(page.getByText("Aucun remboursement pour cette commande.")).toBeVisible();
  const amount = page.getByLabel("Montant à rembourser (€)");
  await expect(amount).toHaveValue("25,90");

  // More than what was paid: refused inline, in French, nothing refunded.
  await amount.fill("30");
  await page.getByLabel("Motif").fill("Geste commercial");
  await page.getByLabel(/Je confirme ce remboursement/).check();
  await page.getByRole("button", { name: "Rembourser" }).click();
  await expect(page.getByText("Le montant dépasse ce qu'il reste à rembourser (25,90€).")).toBeVisible();
  await expect(page.getByTestId("refunded-amount")).toHaveText("0,00€");

  // A part.
  await page.goto(`/admin/orders/${order.id}`);
  await page.getByLabel("Montant à rembourser (€)").fill("10,00");
  await page.getByLabel("Motif").fill("Un masque abîmé");
  await page.getByLabel(/Je confirme ce remboursement/).check();
  await page.getByRole("button", { name: "Rembourser" }).click();
  await expect(page.getByText("Partiellement remboursée", { exact: true })).toBeVisible();
  await expect(page.getByTestId("refunded-amount")).toHaveText("10,00€");
  const list = page.getByTestId("order-refunds");
  await expect(list.getByRole("listitem")).toHaveCount(1);
  await expect(list).toContainText("10,00€");
  await expect(list).toContainText("Un masque abîmé");
  await expect(list).toContainText("Effectué");
  await expect(list).toContainText(/avoir A\d{4}-\d{6}/);
  await expect(list).toContainText(/Stripe : re_/);

  // The rest: the amount is prefilled with what remains.
  await expect(page.getByLabel("Montant à rembourser (€)")).toHaveValue("15,90");
  await page.getByLabel("Motif").fill("Commande annulée");
  await page.getByLabel(/Je confirme ce remboursement/).check();
  await page.getByRole("button", { name: "Rembourser" }).click();
  // One final state: « Remboursée » alone, no step, and the order cannot be moved along the shipping steps.
  await expect(page.getByTestId("order-final-state-badge")).toHaveText("Remboursée");
  await expect(page.getByTestId("order-final-state")).toContainText("Commande close");
  await expect(page.getByText("Commande reçue", { exact: true })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Mettre à jour la commande" })).toHaveCount(0);
  await expect(page.getByRole("heading", { name: "Mettre à jour la commande" })).toHaveCount(0);
  await expect(page.getByRole("heading", { name: "Expédition", exact: true })).toBeVisible();
  await expect(page.getByLabel("Statut")).toHaveCount(0);
  await expect(page.getByTestId("fulfilment-refusal")).toHaveText(
    "Cette commande a été remboursée : elle ne peut plus être préparée, expédiée ni livrée.",
  );
  await expect(page.getByTestId("refunded-amount")).toHaveText("25,90€");
  await expect(list.getByRole("listitem")).toHaveCount(2);
  await expect(page.getByRole("button", { name: "Rembourser" })).toHaveCount(0);
  await expect(page.getByText("Cette commande est entièrement remboursée.")).toBeVisible();
  if (javaScriptEnabled) await expect(page.getByTestId("toast").last()).toContainText("Remboursement effectué");

  // The invoice lists both refunds with their credit notes.
  await page.goto(`/admin/orders/${order.id}/invoice`);
  const invoiceRefunds = page.getByTestId("invoice-refunds");
  await expect(invoiceRefunds.getByRole("row")).toHaveCount(3);
  await expect(invoiceRefunds).toContainText("Total remboursé : 25,90€");

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/admin/orders/${order.id}`);
  await page
    .getByTestId("order-refunds")
    .screenshot({ path: `/tmp/shots-refunds/refunds-390-${javaScriptEnabled ? "js" : "nojs"}.png` });

  // The customer's tracking page, on a phone: the final state alone, no progress « Commande reçue (étape en cours) ».
  await page.goto(`/track-order?id=${order.id}`);
  await expect(page.getByTestId("tracking-status")).toHaveText("Remboursée");
  await expect(page.getByTestId("tracking-final-state")).toHaveText(
    "Cette commande a été remboursée en totalité : elle ne sera pas expédiée. Son suivi s'arrête ici.",
  );
  await expect(page.getByTestId("tracking-steps")).toHaveCount(0);
  await expect(page.getByText("étape en cours")).toHaveCount(0);
  await expect(page.getByTestId("tracking-payment")).toHaveCount(0);
  await page.screenshot({
    path: `/tmp/shots-refunds/tracking-refunded-390-${javaScriptEnabled ? "js" : "nojs"}.png`,
    fullPage: true,
  });

  // Its confirmation page says the same, and no longer offers to follow it.
  await page.goto(`/order-confirmation/${order.id}`);
  await expect(page.getByTestId("order-status-badge")).toHaveText("Remboursée");
  await expect(page.getByTestId("order-final-state")).toHaveText(
    "Cette commande a été remboursée en totalité : elle ne sera pas expédiée. Son suivi s'arrête ici.",
  );
  await expect(page.getByText("Conservez votre numéro de commande : il vous sera demandé pour toute question.")).toBeVisible();
  await expect(page.getByText("pour la suivre")).toHaveCount(0);
  await expect(page.getByText("sera expédiée sous 24 heures")).toHaveCount(0);
});
