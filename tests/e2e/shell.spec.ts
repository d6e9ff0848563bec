import { expect, test } from "./shopper";

test.describe("shop shell", () => {
  test("header links, footer links and the demo banner", async ({ page }) => {
    await page.goto("/contact");
    await expect(page.locator("html")).toHaveAttribute("lang", "fr");
    await expect(page.getByText("les paiements sont simulés")).toBeVisible();
    const header = page.getByRole("banner");
    await expect(header.getByRole("link", { name: "Maison Éclat, accueil" })).toHaveAttribute("href", "/");
    await expect(header.getByRole("link", { name: "Rechercher" })).toBeVisible();
    // No count badge while the cart is empty.
    await expect(page.getByTestId("cart-count")).toHaveCount(0);
    const footer = page.getByRole("contentinfo");
    for (const [name, href] of [
      ["Livraison", "/livraison"],
      ["Retours", "/retours"],
      ["FAQ", "/faq"],
      ["Coffrets", "/product/1#packs"],
      ["Mentions légales", "/mentions-legales"],
      ["Conditions générales de vente", "/cgv"],
      ["Politique de confidentialité", "/politique-confidentialite"],
    ]) {
      await expect(footer.getByRole("link", { name, exact: true })).toHaveAttribute("href", href);
    }
  });

  test("the mobile menu opens and leads to the pages", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/contact");
    const nav = page.getByRole("navigation", { name: "Menu mobile" });
    await expect(nav).toBeHidden();
    await page.getByLabel("Ouvrir le menu").click();
    await expect(nav).toBeVisible();
    await nav.getByRole("link", { name: "Suivre ma commande" }).click();
    await expect(page).toHaveURL(/\/track-order$/);
  });

  test("an unknown path answers 404 with a French heading", async ({ page }) => {
    const response = await page.goto("/cette-page-n-existe-pas");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page introuvable (erreur 404)");
    await expect(page.getByRole("banner")).toBeVisible();
  });

  test("the payment success page says so and goes home after 5 s", async ({ page }) => {
    await page.goto("/success");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Paiement réussi !");
    await expect(page.getByRole("main").getByRole("link", { name: "Retour à l'accueil" })).toBeVisible();
    await page.waitForURL((url) => url.pathname === "/", { timeout: 9_000 });
  });

  test("pages are served with a Content-Security-Policy: a nonce when rendered live, the scripts' hashes from the page cache", async ({
    page,
  }) => {
    const live = await page.goto("/panier");
    const policy = live?.headers()["content-security-policy"] ?? "";
    expect(policy).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' https:\/\/js\.stripe\.com/);
    expect(policy).toContain("frame-ancestors 'none'");
    expect(live?.headers()["x-content-type-options"]).toBe("nosniff");

    const shared = await page.goto("/contact");
    const sharedPolicy = shared?.headers()["content-security-policy"] ?? "";
    expect(sharedPolicy).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/=]+')+ https:\/\/js\.stripe\.com/);
    expect(sharedPolicy).not.toContain("nonce");
    expect(sharedPolicy).toContain("frame-ancestors 'none'");
    expect(shared?.headers()["x-content-type-options"]).toBe("nosniff");
  });
});
