import type { Page } from "@playwright/test";
import { expect, test } from "./shopper";
import { LANDING_FAQ } from "../../app/content/faq";
import { decodeSingleFetch, encodeSingleFetch } from "../helpers/single-fetch";

const TERMS = "Conditions d'achat et d'abonnement";
const USE = "Utilisation recommandée";
const SUBSCRIPTION_TEXT = "puis du même montant toutes les 4 semaines à partir du 30e jour";

const packs = (page: Page) => page.getByRole("group", { name: "NOS PACKS" });
const mainImage = (page: Page) => page.getByTestId("gallery-main");

async function waitForHydration(page: Page) {
  await expect(page.getByRole("button", { name: LANDING_FAQ[0].question })).toBeVisible();
}

test.describe("product page", () => {
  // The trial offer's countdown banner is checked in packs-admin.spec.ts, which moves its end date.
  test("shows the product, the rating and the reassurance lines", async ({ page }) => {
    const response = await page.goto("/product/1");
    expect(response?.status()).toBe(200);
    await expect(page).toHaveTitle("Masque Hydrogel au Collagène | Maison Éclat");
    await expect(page.locator("h1")).toHaveCount(1);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Masque Hydrogel au Collagène");
    const main = page.getByRole("main");
    await expect(main.getByText("4,9 (+1\u202f500 avis)")).toBeVisible();
    for (const line of [
      "Livraison gratuite en 7 à 10 jours ouvrés",
      "Satisfait ou remboursé sous 14 jours",
      "Paiement sécurisé par carte",
    ]) {
      await expect(main.getByText(line, { exact: true })).toBeVisible();
    }
  });

  test("NOS PACKS offers the three packs with their prices, pack 1 chosen at start", async ({ page }) => {
    await page.goto("/product/1");
    const group = packs(page);
    await expect(group.getByRole("radio")).toHaveCount(3);
    await expect(group.getByRole("radio", { name: "3 masques d'essai" })).toBeChecked();
    await expect(group.getByRole("radio", { name: "6 masques + 2 offerts" })).not.toBeChecked();
    await expect(group.getByRole("radio", { name: "9 masques + 3 offerts" })).not.toBeChecked();
    for (const [name, price, was] of [
      ["3 masques d'essai", "0,99€", "15,99€"],
      ["6 masques + 2 offerts", "25,90€", "31,80€"],
      ["9 masques + 3 offerts", "32,90€", "47,70€"],
    ]) {
      const card = group.locator("label").filter({ hasText: name });
      await expect(card.getByText(price, { exact: true })).toBeVisible();
      await expect(card.locator("s")).toHaveText(`au lieu de ${was}`);
    }
    await expect(group.locator("label").filter({ hasText: "Meilleure vente" })).toContainText("9 masques + 3 offerts");
    await expect(group.getByText("Meilleure vente")).toHaveCount(1);

    await group.getByText("9 masques + 3 offerts").click();
    await expect(group.getByRole("radio", { name: "9 masques + 3 offerts" })).toBeChecked();
    await expect(group.getByRole("radio", { name: "3 masques d'essai" })).not.toBeChecked();
    await expect(page.getByRole("button", { name: "Commander" })).toBeEnabled();
  });

  test("the order form posts the chosen pack to the cart", async ({ page, javaScriptEnabled }) => {
    await page.goto("/product/1");
    if (javaScriptEnabled) await waitForHydration(page);
    await packs(page).getByText("6 masques + 2 offerts").click();

    // With JavaScript, hold the cart's answer a moment to see the button's loading state.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    if (javaScriptEnabled) {
      await page.route(/\/panier(\.data)?(\?|$)/, async (route) => {
        if (route.request().method() === "POST") await held;
        await route.continue();
      });
    }
    // The form's post: to the page without JavaScript, to its data (single fetch) with.
    const posted = page.waitForRequest(
      (r) => r.method() === "POST" && ["/panier", "/panier.data"].includes(new URL(r.url()).pathname),
    );
    await page.getByRole("button", { name: "Commander" }).click();
    const body = new URLSearchParams((await posted).postData() ?? "");
    expect(Object.fromEntries(body)).toEqual({ intent: "add", productId: "1", redirectTo: "/panier", packId: "2" });

    if (javaScriptEnabled) {
      // While the cart answers, the button says so and cannot be pressed twice.
      await expect(page.getByRole("button", { name: "Chargement..." })).toBeDisabled();
      release();
      await expect(page.getByRole("button", { name: "Commander" })).toBeEnabled();
      await expect(page.getByTestId("cart-count")).toHaveText("1");
    } else {
      await expect(page).toHaveURL(/\/panier$/);
      await expect(page.getByRole("main")).toContainText("6 masques + 2 offerts");
    }
  });

  test("the two blocks are closed at start and open on demand", async ({ page, javaScriptEnabled }) => {
    await page.goto("/product/1");
    if (javaScriptEnabled) await waitForHydration(page);
    await expect(page.locator("#abonnement").getByText(SUBSCRIPTION_TEXT)).toBeHidden();
    await expect(page.locator("#utilisation").getByText("2 masques par semaine")).toBeHidden();
    if (javaScriptEnabled) {
      await expect(page.getByRole("button", { name: TERMS })).toHaveAttribute("aria-expanded", "false");
      await expect(page.getByRole("button", { name: USE })).toHaveAttribute("aria-expanded", "false");
    }

    await page.getByText(TERMS, { exact: true }).click();
    await expect(page.locator("#abonnement").getByText(SUBSCRIPTION_TEXT)).toBeVisible();
    await expect(page.locator("#abonnement").getByText("Vous pouvez le résilier en ligne à tout moment")).toBeVisible();
    await expect(page.locator("#abonnement").getByRole("link", { name: "Résilier mon abonnement" })).toHaveAttribute(
      "href",
      "/abonnement/resilier",
    );
    await expect(page.locator("#abonnement")).toContainText("débité aujourd'hui");

    await page.getByText(USE, { exact: true }).click();
    await expect(page.locator("#utilisation").getByText("2 masques par semaine")).toBeVisible();
    await expect(page.locator("#utilisation").getByText("15-20 minutes de pose")).toBeVisible();
    await expect(page.locator("#utilisation ol > li")).toHaveCount(6);

    if (javaScriptEnabled) {
      await expect(page.getByRole("button", { name: TERMS })).toHaveAttribute("aria-expanded", "true");
      await page.getByRole("button", { name: TERMS }).click();
      await expect(page.locator("#abonnement").getByText(SUBSCRIPTION_TEXT)).toBeHidden();
    }
  });

  test("further sections: skin types, anti-wrinkle claims, results, usage steps, FAQ", async ({ page }) => {
    await page.goto("/product/1");
    const main = page.getByRole("main");
    await expect(page.getByRole("region", { name: "Pour tous les types de peau" }).getByRole("heading", { level: 3 })).toHaveText(
      ["Peau grasse", "Peau sensible", "Peau sèche", "Peau mature"],
    );
    await expect(main.getByRole("heading", { name: "Une action anti-rides visible" })).toBeVisible();
    const results = page.getByRole("region", { name: "Des résultats constatés par nos clientes" });
    for (const value of ["92%", "89%", "87%"]) await expect(results.getByText(value, { exact: true })).toBeVisible();
    await expect(results.getByText(/500 utilisatrices/)).toBeVisible();
    await expect(page.getByRole("button", { name: "Étape 1 : Nettoyez" })).toHaveAttribute("aria-pressed", "true");
    await expect(main.getByText(LANDING_FAQ[2].question, { exact: true })).toBeVisible();
  });

  test("gallery: thumbnails switch the main image", async ({ page, javaScriptEnabled }) => {
    await page.goto("/product/1");
    if (javaScriptEnabled) await waitForHydration(page);
    await expect(mainImage(page)).toHaveAttribute("src", "/images/product-mask.svg");
    await expect(mainImage(page)).toHaveAttribute("width", "600");
    await expect(mainImage(page)).toHaveAttribute("height", "600");
    await expect(mainImage(page)).toHaveAttribute("alt", /^Masque Hydrogel au Collagène : /);
    const thumbs = page.getByRole("button", { name: /^Afficher l'image \d sur 3$/ });
    await expect(thumbs).toHaveCount(3);
    await expect(thumbs.first()).toHaveAttribute("aria-pressed", "true");

    await page.getByRole("button", { name: "Afficher l'image 2 sur 3" }).click();
    await expect(mainImage(page)).toHaveAttribute("src", "/images/product-box.svg");
    await expect(page.getByRole("button", { name: "Afficher l'image 2 sur 3" })).toHaveAttribute("aria-pressed", "true");
    // Without JavaScript the thumbnail is a GET form: the choice is in the address.
    if (!javaScriptEnabled) await expect(page).toHaveURL(/\/product\/1\?image=1$/);
    else await expect(page).toHaveURL(/\/product\/1$/);
  });

  for (const path of ["/product/999999", "/product/abc", "/product/-1", "/product/1.5", "/product/99999999999999"]) {
    test(`${path} answers 404 'Produit non trouvé' inside the shop's frame`, async ({ page }) => {
      const response = await page.goto(path);
      expect(response?.status()).toBe(404);
      await expect(page).toHaveTitle("Produit non trouvé | Maison Éclat");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Produit non trouvé");
      await expect(page.getByText("Nous n'avons pas pu trouver le produit que vous cherchez.")).toBeVisible();
      await expect(page.getByRole("banner")).toBeVisible();
      await expect(page.getByRole("contentinfo")).toBeVisible();
      await expect(page.getByRole("button", { name: "Commander" })).toHaveCount(0);
    });
  }
});

test.describe("product page with JavaScript", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "needs JavaScript");

  test("a link to #abonnement opens the subscription terms", async ({ page }) => {
    await page.goto("/product/1#abonnement");
    await waitForHydration(page);
    await expect(page.getByRole("button", { name: TERMS })).toHaveAttribute("aria-expanded", "true");
    await expect(page.locator("#abonnement").getByText(SUBSCRIPTION_TEXT)).toBeVisible();
  });

  test("a product without images or stock shows the fallback image and 'Rupture de stock'", async ({ page }) => {
    // The page's data as the browser receives it on a client-side navigation, with no images and no stock.
    await page.route(/\/product\/1\.data(\?|$)/, async (route) => {
      const response = await route.fetch();
      const data = (await decodeSingleFetch(new Response(await response.text()).body)) as Record<
        string,
        { data: { product: { images: string[]; stock: number } } }
      >;
      // The root's data comes in a request of its own.
      const product = data["routes/product.$id"]?.data.product;
      if (product) {
        product.images = [];
        product.stock = 0;
      }
      await route.fulfill({ response, body: await encodeSingleFetch(data) });
    });
    await page.goto("/");
    await waitForHydration(page);
    await page.getByRole("main").getByRole("link", { name: "Commander maintenant" }).first().click();
    await expect(page).toHaveURL(/\/product\/1$/);
    await expect(mainImage(page)).toHaveAttribute("src", "/images/product-fallback.svg");
    await expect(page.getByRole("button", { name: /^Afficher l'image/ })).toHaveCount(0);
    await expect(page.getByText("Rupture de stock")).toBeVisible();
    await expect(page.getByRole("button", { name: "Commander" })).toBeDisabled();
  });
});
