import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, test } from "./shopper";
import { ALL_FAQ } from "../../app/content/faq";

/** Runs in both projects: with JavaScript ("js") and without ("no-js"). */

async function expectNoAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).include("main").analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

test.describe("Conditions générales de vente", () => {
  test("14 numbered sections, free delivery, 14-day withdrawal, Stripe, French law, company details", async ({ page }) => {
    await page.goto("/cgv");
    await expect(page).toHaveTitle("Conditions générales de vente | Maison Éclat");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Conditions générales de vente");
    await expect(page.getByText(/Dernière mise à jour : \d{1,2} \S+ \d{4}/)).toBeVisible();

    const sections = page.locator("main h2");
    await expect(sections).toHaveCount(14);
    const titles = await sections.allTextContents();
    titles.forEach((title, i) => expect(title).toMatch(new RegExp(`^${i + 1}\\. \\S`)));
    expect(titles).toContain("8. Droit de rétractation");
    expect(titles[13]).toBe("14. Droit applicable");

    const main = page.locator("main");
    await expect(main).toContainText("14 jours à compter de la réception");
    await expect(main).toContainText("La livraison est gratuite");
    await expect(main).toContainText("Stripe");
    await expect(main).toContainText("Visa, Mastercard et American Express");
    await expect(main).toContainText("toutes les 4 semaines");
    await expect(main).toContainText("Modèle de formulaire de rétractation");
    await expect(main).toContainText("soumises au droit français");
    // Shipping is free everywhere: no shipping fee may appear in the terms.
    await expect(main).not.toContainText(/(?<![0-9])5,90€/);
    // Contact details come from the site settings.
    await expect(main).toContainText("contact@maison-eclat.fr");
    await expect(main).toContainText("12 rue des Lilas");
    await expect(main).toContainText("01 84 60 12 34");

    await page
      .getByRole("navigation", { name: "Sommaire" })
      .getByRole("link", { name: "13. Médiation de la consommation" })
      .click();
    await expect(page).toHaveURL(/\/cgv#mediation$/);
    await expect(page.getByRole("heading", { name: "13. Médiation de la consommation" })).toBeInViewport();
  });
});

test("Mentions légales: publisher, director of publication, host and contact", async ({ page }) => {
  await page.goto("/mentions-legales");
  await expect(page).toHaveTitle("Mentions légales | Maison Éclat");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Mentions légales");
  const main = page.locator("main");
  await expect(main).toContainText("Maison Éclat SAS");
  // The city is not checked: legal-settings.spec.ts changes it for a few seconds on the shared server.
  await expect(main).toContainText(/RCS \S+ \d{3} \d{3} \d{3}/);
  await expect(main).toContainText("Siège social : 12 rue des Lilas, 75011 Paris, France");
  await expect(page.getByRole("heading", { name: "Direction de la publication" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Hébergeur" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Propriété intellectuelle" })).toBeVisible();
  await expect(main.getByRole("link", { name: "contact@maison-eclat.fr" }).first()).toHaveAttribute(
    "href",
    "mailto:contact@maison-eclat.fr",
  );
  await expect(main.getByRole("link", { name: "01 84 60 12 34" }).first()).toHaveAttribute("href", "tel:0184601234");
});

test("Politique de confidentialité: data, purposes, Stripe, necessary cookies only, GDPR rights, CNIL", async ({ page }) => {
  await page.goto("/politique-confidentialite");
  await expect(page).toHaveTitle("Politique de confidentialité | Maison Éclat");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Politique de confidentialité");
  const main = page.locator("main");
  for (const heading of [
    "Données collectées",
    "Finalités et bases légales",
    "Durées de conservation",
    "Destinataires",
    "Cookies",
    "Vos droits",
  ]) {
    await expect(page.getByRole("heading", { level: 2, name: heading })).toBeVisible();
  }
  await expect(main).toContainText("Formulaire de contact");
  await expect(main).toContainText("Stripe");
  await expect(main).toContainText("aucun cookie publicitaire");
  await expect(main).toContainText("Panier");
  await expect(main).toContainText("droit d'accès");
  await expect(main).toContainText("droit à l'effacement");
  await expect(main).toContainText("CNIL");
  await expect(main).toContainText("contact@maison-eclat.fr");
});

test.describe("FAQ", () => {
  test("lists every question; an answer opens on click, without JavaScript too", async ({ page }) => {
    await page.goto("/faq");
    await expect(page).toHaveTitle("Questions fréquentes | Maison Éclat");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Questions fréquentes");
    for (const entry of ALL_FAQ) {
      await expect(page.getByRole("heading", { name: entry.question, exact: true })).toBeVisible();
    }
    const shelfLife = ALL_FAQ.find((e) => e.question === "Quelle est la durée de conservation ?");
    const answer = page.getByText(shelfLife!.answer);
    await expect(answer).toBeHidden();
    await page.getByText("Quelle est la durée de conservation ?").click();
    await expect(answer).toBeVisible();
    await expect(answer).toContainText("24 mois");
  });

  test("a link to a question opens its answer", async ({ page }) => {
    await page.goto("/faq#quels-sont-les-ingredients");
    await expect(page.getByText(/^Collagène marin hydrolysé/)).toBeVisible();
  });
});

test("Livraison: free, shipped within 24 hours, 7 to 10 business days, tracked, link to tracking", async ({ page }) => {
  await page.goto("/livraison");
  await expect(page).toHaveTitle("Livraison | Maison Éclat");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Livraison");
  const main = page.locator("main");
  await expect(main).toContainText("La livraison est gratuite");
  await expect(main).toContainText("expédiée sous 24 heures");
  await expect(main).toContainText("7 à 10 jours ouvrés");
  await expect(page.getByRole("heading", { name: "Livraison en colis suivi" })).toBeVisible();
  await expect(main.getByRole("link", { name: "Suivre ma commande" })).toHaveAttribute("href", "/track-order");
});

test("Retours: 14 days to withdraw, refund within 14 days, unopened sachets, how to proceed", async ({ page }) => {
  await page.goto("/retours");
  await expect(page).toHaveTitle("Retours et remboursements | Maison Éclat");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Retours et remboursements");
  const main = page.locator("main");
  await expect(main).toContainText("14 jours après réception");
  await expect(main).toContainText("Nous vous remboursons sous 14 jours");
  await expect(main).toContainText("sachets encore scellés");
  await expect(page.getByRole("heading", { name: "Produit abîmé ou défectueux" })).toBeVisible();
  await expect(main.getByRole("link", { name: "Contact" }).first()).toHaveAttribute("href", "/contact");
});

test("the footer's Livraison and Retours links lead to real pages", async ({ page }) => {
  await page.goto("/faq");
  const help = page.getByRole("navigation", { name: "Aide" });
  await help.getByRole("link", { name: "Livraison" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Livraison");
  await page.getByRole("navigation", { name: "Aide" }).getByRole("link", { name: "Retours" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Retours et remboursements");
});

test.describe("Recherche", () => {
  test("the header's search icon opens the search; a query without accent finds the product", async ({ page }) => {
    await page.goto("/livraison");
    await page.getByRole("banner").getByRole("link", { name: "Rechercher" }).click();
    await expect(page).toHaveURL(/\/recherche$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Recherche");
    await expect(page).toHaveTitle("Recherche | Maison Éclat");

    await page.getByRole("searchbox", { name: "Rechercher" }).fill("collagene");
    await page.getByRole("main").getByRole("button", { name: "Rechercher" }).click();
    await expect(page).toHaveURL(/\/recherche\?q=collagene$/);
    await expect(page).toHaveTitle("Recherche : collagene | Maison Éclat");
    await expect(page.getByRole("heading", { name: /résultats? pour « collagene »/ })).toBeVisible();
    const product = page.getByTestId("search-results").getByRole("link", { name: /Masque Hydrogel au Collagène/ });
    await expect(product).toHaveAttribute("href", "/product/1");
    await expect(page.getByTestId("search-results").getByRole("link", { name: /9 masques \+ 3 offerts/ })).toContainText(
      "32,90€",
    );
    await expect(page.getByRole("searchbox", { name: "Rechercher" })).toHaveValue("collagene");
  });

  test("finds a FAQ answer and leads to it", async ({ page }) => {
    await page.goto("/recherche?q=ingr%C3%A9dients");
    const result = page.getByTestId("search-results").getByRole("link", { name: /Quels sont les ingrédients \?/ });
    await expect(result).toBeVisible();
    await result.click();
    await expect(page).toHaveURL(/\/faq#quels-sont-les-ingredients$/);
    await expect(page.getByText(/^Collagène marin hydrolysé/)).toBeVisible();
  });

  test("finds information pages, whatever the case and accents", async ({ page }) => {
    await page.goto("/recherche?q=R%C3%89TRACTATION");
    const results = page.getByTestId("search-results");
    await expect(results.getByRole("link", { name: /Conditions générales de vente/ })).toHaveAttribute("href", "/cgv");
    await expect(results.getByRole("link", { name: /Retours et remboursements/ })).toHaveAttribute("href", "/retours");
  });

  test("says so when nothing matches", async ({ page }) => {
    await page.goto("/recherche");
    await page.getByRole("searchbox", { name: "Rechercher" }).fill("licorne");
    await page.getByRole("searchbox", { name: "Rechercher" }).press("Enter");
    await expect(page).toHaveURL(/\/recherche\?q=licorne$/);
    await expect(page.getByRole("heading", { name: "Aucun résultat pour « licorne »" })).toBeVisible();
    await expect(page.getByTestId("search-results")).toHaveCount(0);
  });
});

test.describe("accessibility", () => {
  for (const path of [
    "/cgv",
    "/mentions-legales",
    "/politique-confidentialite",
    "/faq",
    "/livraison",
    "/retours",
    "/recherche?q=masque",
  ]) {
    test(`${path} has one h1 and passes the axe check`, async ({ page }, testInfo) => {
      test.skip(testInfo.project.name === "no-js", "axe runs its script in the page");
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
      await expectNoAxeViolations(page);
    });
  }
});
