import type { Page } from "@playwright/test";
import { expect, test } from "./shopper";
import { gotoReady } from "../helpers/e2e";
import { signIn } from "./admin-fixtures";

/**
 * The seller's legal identity lives in the site settings: the administrator changes the RCS, the
 * host and the consumer mediator in /admin/settings, and the legal notice and the terms of sale
 * show the new values. The settings are shared by the whole server, so the tests run once (in the
 * JavaScript project, the form without JavaScript in a second browser context), one after the
 * other, and put the demo values back.
 */
test.skip(
  ({ javaScriptEnabled }) => !javaScriptEnabled,
  "the settings are shared: the no-JavaScript form runs in its own context below",
);
test.describe.configure({ mode: "serial", timeout: 60_000 });

const DEMO = {
  "Ville du greffe (RCS)": "Paris",
  "Nom de l'hébergeur": "OVH SAS",
  "Adresse de l'hébergeur": "2 rue Kellermann\n59100 Roubaix\nFrance",
  "Téléphone de l'hébergeur": "1007",
  "Nom du médiateur": "CM2C (Centre de la Médiation de la Consommation de Conciliateurs de Justice)",
  "Adresse postale du médiateur": "49 rue de Ponthieu\n75008 Paris",
  "Site web du médiateur": "https://www.cm2c.net",
};

const CHANGED = {
  "Ville du greffe (RCS)": "Bordeaux",
  "Nom de l'hébergeur": "Scaleway SAS",
  "Adresse de l'hébergeur": "8 rue de la Ville-l'Évêque\n75008 Paris",
  "Téléphone de l'hébergeur": "01 84 13 00 00",
  "Nom du médiateur": "Médiateur de la consommation FEVAD",
  "Adresse postale du médiateur": "BP 20015\n75362 Paris Cedex 8",
  "Site web du médiateur": "https://www.mediateurfevad.fr",
};

async function fillAndSave(page: Page, values: Record<string, string>) {
  for (const [label, value] of Object.entries(values)) await page.getByLabel(label, { exact: true }).fill(value);
  await page.getByRole("button", { name: "Enregistrer les paramètres" }).click();
}

test("the administrator changes the RCS, the host and the mediator: the legal notice and the terms of sale show them", async ({
  page,
}) => {
  await signIn(page);
  await gotoReady(page, "/admin/settings");
  for (const heading of ["Identité de la société", "Hébergeur", "Médiateur de la consommation"]) {
    await expect(page.getByRole("heading", { level: 2, name: heading })).toBeVisible();
  }
  try {
    // A mediator's website without https: the French message under the field, nothing saved.
    await fillAndSave(page, { "Site web du médiateur": "www.mediateurfevad.fr" });
    await expect(
      page.getByText("L'adresse du site du médiateur doit être une adresse web complète commençant par https://"),
    ).toBeVisible();
    await expect(page.getByLabel("Site web du médiateur")).toHaveAttribute("aria-invalid", "true");

    await fillAndSave(page, CHANGED);
    await expect(page.getByTestId("toast")).toContainText("Paramètres mis à jour");
    await expect(page.getByLabel("Ville du greffe (RCS)")).toHaveValue("Bordeaux");

    await page.goto("/mentions-legales");
    const notice = page.locator("main");
    await expect(notice).toContainText("Immatriculation : RCS Bordeaux 921 458 303");
    await expect(page.getByTestId("legal-host")).toHaveText(
      "Le site est hébergé par Scaleway SAS, 8 rue de la Ville-l'Évêque, 75008 Paris, téléphone : 01 84 13 00 00.",
    );
    await expect(page.getByTestId("mediator-notice")).toContainText(
      "Médiateur de la consommation FEVAD, BP 20015, 75362 Paris Cedex 8",
    );
    await expect(page.getByTestId("mediator-notice").getByRole("link", { name: "www.mediateurfevad.fr" })).toHaveAttribute(
      "href",
      "https://www.mediateurfevad.fr",
    );
    await expect(notice).not.toContainText("OVH");

    await page.goto("/cgv");
    const terms = page.locator("main");
    await expect(terms).toContainText("immatriculée au RCS Bordeaux 921 458 303");
    await expect(terms).toContainText("Médiateur de la consommation FEVAD, BP 20015, 75362 Paris Cedex 8");
    await expect(terms.getByRole("link", { name: "www.mediateurfevad.fr" })).toHaveAttribute(
      "href",
      "https://www.mediateurfevad.fr",
    );
    await expect(terms).not.toContainText("CM2C");
    await expect(terms).toContainText("« Se rétracter du contrat ici »");
  } finally {
    await gotoReady(page, "/admin/settings");
    await fillAndSave(page, DEMO);
    await expect(page.getByTestId("toast")).toContainText("Paramètres mis à jour");
  }
  await page.goto("/mentions-legales");
  await expect(page.locator("main")).toContainText("Immatriculation : RCS Paris 921 458 303");
});

test("without JavaScript, the server answers a bad SIRET and VAT number with French messages under the fields", async ({
  browser,
  baseURL,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
  const page = await context.newPage();
  try {
    await signIn(page);
    await page.goto("/admin/settings");
    await page.getByLabel("SIRET").fill("921 458 303");
    await page.getByLabel("Numéro de TVA intracommunautaire").fill("US123456789");
    await page.getByRole("button", { name: "Enregistrer les paramètres" }).click();
    await expect(page.getByText("Le SIRET compte 14 chiffres (par exemple 921 458 303 00017).")).toBeVisible();
    await expect(
      page.getByText(/^Le numéro de TVA intracommunautaire commence par le code d'un pays de l'Union européenne/),
    ).toBeVisible();
    const api = await page.request.get("/api/settings");
    expect(await api.json()).toMatchObject({ siret: "921 458 303 00017", vatNumber: "FR51921458303" });
  } finally {
    await context.close();
  }
});
