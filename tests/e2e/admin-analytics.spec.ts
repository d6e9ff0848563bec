import { expect, test } from "./shopper";
import { createPaidOrder, signIn, unique } from "./admin-fixtures";

/**
 * The owner's analytics, from the dashboard, on a phone and a desktop, with and without
 * JavaScript (one project each): a purchase of the test's own is in the figures, each chart has
 * its data as a table, and the CSV holds the same rows. Other tests buy at the same time: the
 * figures are checked to hold at least this purchase.
 */

const euros = (text: string) => Number(text.replace(/[\s\u202f\u00a0€]/g, "").replace(",", "."));
const parisToday = () =>
  new Intl.DateTimeFormat("fr-FR", { timeZone: "Europe/Paris", day: "2-digit", month: "2-digit", year: "numeric" }).format(
    new Date(),
  );

test("a purchase shows in the analytics' figures, charts' tables and CSV, at 390 and 1280 px", async ({ page, request }) => {
  const order = await createPaidOrder(request, `analytique-${unique()}@example.fr`);
  const total = Number(order.total);
  await signIn(page);

  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/admin/dashboard");
    const summary = page.getByRole("region", { name: "L'activité" });
    await expect(summary).toContainText("Chiffre d'affaires net, 7 jours");
    await expect(summary).toContainText("Abonnés actifs");
    await summary.getByRole("link", { name: "Voir l'analytique" }).click();
    await expect(page).toHaveURL(/\/admin\/analytique$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Analytique");

    // The period picker is a GET form: 7 days.
    await page.getByRole("radio", { name: "7 jours" }).check();
    await page.getByRole("button", { name: "Afficher" }).click();
    await expect(page).toHaveURL(/periode=7j/);
    await expect(page.getByText(/\(7 jours\), comparé/)).toBeVisible();

    const paidOrders = page.locator("dt", { hasText: "Commandes payées" }).locator("xpath=following-sibling::dd[1]");
    expect(Number((await paidOrders.innerText()).replace(/\D/g, ""))).toBeGreaterThanOrEqual(1);
    const revenue = page.locator("dt", { hasText: "Chiffre d'affaires net TTC" }).locator("xpath=following-sibling::dd[1]");
    expect(euros(await revenue.innerText())).toBeGreaterThanOrEqual(total);

    // The revenue chart is an image with its data as a table: today's row holds the purchase.
    const chart = page.locator("section", { has: page.getByRole("heading", { name: /Chiffre d'affaires net TTC, par jour/ }) });
    await expect(chart.getByRole("img", { name: "Chiffre d'affaires net TTC" })).toBeVisible();
    await chart.getByText("Voir les données").click();
    const table = chart.getByRole("table", { name: "Chiffre d'affaires net" });
    await expect(table.getByRole("columnheader")).toHaveText(["Période", "Net TTC", "Net HT", "Commandes"]);
    await expect(table.getByRole("row")).toHaveCount(8); // the header and 7 days
    const today = table.getByRole("row", { name: new RegExp(parisToday()) });
    expect(euros(await today.getByRole("cell").first().innerText())).toBeGreaterThanOrEqual(total);
    for (const name of ["Abonnés actifs et MRR", "Chiffre d'affaires par pack", "Motifs de résiliation", "Entonnoir d'achat"])
      await expect(page.getByRole("table", { name, includeHidden: true })).toHaveCount(1);

    // Nothing wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  }

  // The CSV of the same chart and period: the same days, amounts in euros with a decimal comma.
  const csv = await page.request.get("/admin/analytique/csv/chiffre-affaires?periode=7j");
  expect(csv.status()).toBe(200);
  expect(csv.headers()["content-type"]).toContain("text/csv");
  const lines = (await csv.text())
    .replace(/^\uFEFF/, "")
    .trim()
    .split("\r\n");
  expect(lines[0]).toBe('"Du";"Au";"Net TTC (€)";"Net HT (€)";"Commandes"');
  expect(lines).toHaveLength(8);
  const [day, month, year] = parisToday().split("/");
  const todayLine = lines.find((line) => line.startsWith(`"${year}-${month}-${day}"`));
  expect(Number(todayLine!.split(";")[2].replace(",", "."))).toBeGreaterThanOrEqual(total);

  // Dates that cannot be read: a French message, and the last 30 days instead.
  await page.goto("/admin/analytique?periode=dates&du=2026-02-30&au=2026-03-01");
  await expect(page.getByRole("alert")).toContainText("Date de début invalide");
  await expect(page.getByText(/\(30 jours\), comparé/)).toBeVisible();
});
