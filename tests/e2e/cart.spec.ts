import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, test } from "./shopper";
import { baseURL } from "../../playwright.config";
import { gotoReady } from "../helpers/e2e";

/** The cart: the drawer with JavaScript, the /panier page without. */

/** Opens a page and, with JavaScript, waits until React has taken over (clicks before that are plain links and forms). */
async function open(page: Page, url: string, javaScriptEnabled = true) {
  await gotoReady(page, url, javaScriptEnabled);
}

async function orderPack(page: Page, packName: string, javaScriptEnabled = true) {
  await open(page, "/product/1", javaScriptEnabled);
  await page.getByRole("radio", { name: packName }).check();
  await page.getByRole("button", { name: "Commander" }).click();
}

test.describe("cart drawer (JavaScript)", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "the drawer needs JavaScript");

  test("adding pack 2 opens the drawer with the pack, its price and the badge", async ({ page }) => {
    await orderPack(page, "6 masques + 2 offerts");
    const drawer = page.getByRole("dialog", { name: "Mon panier" });
    await expect(drawer).toBeVisible();
    await expect(drawer).toHaveAttribute("aria-modal", "true");
    await expect(drawer.getByTestId("cart-line")).toHaveCount(1);
    await expect(drawer.getByTestId("cart-line")).toContainText("6 masques + 2 offerts");
    await expect(drawer.getByTestId("cart-line")).toContainText("Livraison en colis suivi");
    await expect(drawer.getByTestId("cart-line-price")).toHaveText("25,90€");
    await expect(drawer.getByTestId("cart-summary")).toContainText("Gratuite");
    await expect(drawer.getByTestId("cart-total")).toHaveText("25,90€");
    await expect(page.getByTestId("cart-count")).toHaveText("1");
    await expect(page.getByTestId("toast")).toContainText("Produit ajouté");
    // Still on the product page: the drawer opened over it.
    await expect(page).toHaveURL(/\/product\/1$/);
  });

  test("keyboard: focus stays in the drawer, Escape closes it, the header button reopens it", async ({ page }) => {
    await orderPack(page, "3 masques d'essai");
    const drawer = page.getByRole("dialog", { name: "Mon panier" });
    await expect(drawer.getByTestId("cart-line")).toHaveCount(1);
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press("Tab");
      expect(await drawer.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    }
    await page.keyboard.press("Escape");
    await expect(drawer).toBeHidden();
    await page.getByTestId("cart-button").click();
    await expect(drawer).toBeVisible();
    await expect(drawer.getByTestId("cart-line")).toContainText("3 masques d'essai");
    await drawer.getByRole("button", { name: "Fermer le panier" }).click();
    await expect(drawer).toBeHidden();
    await expect(page.getByTestId("cart-button")).toBeFocused();
  });

  test("quantity buttons, remove and the empty cart", async ({ page }) => {
    await orderPack(page, "6 masques + 2 offerts");
    const drawer = page.getByRole("dialog", { name: "Mon panier" });
    await drawer.getByRole("button", { name: "Augmenter la quantité" }).click();
    await expect(drawer.getByTestId("cart-total")).toHaveText("51,80€");
    await expect(page.getByTestId("cart-count")).toHaveText("2");
    await drawer.getByRole("button", { name: "Diminuer la quantité" }).click();
    await expect(drawer.getByTestId("cart-total")).toHaveText("25,90€");
    await drawer.getByRole("button", { name: /^Retirer .* du panier$/ }).click();
    await expect(drawer.getByText("Votre panier est vide")).toBeVisible();
    await expect(drawer.getByRole("button", { name: "Procéder au paiement" })).toBeDisabled();
    await expect(page.getByTestId("cart-count")).toHaveCount(0);
    await expect(page.getByTestId("toast")).toContainText("Produit retiré");
  });

  test("the trial pack is one per order: its + button is off and the cart says why", async ({ page }) => {
    await orderPack(page, "3 masques d'essai");
    const drawer = page.getByRole("dialog", { name: "Mon panier" });
    await expect(drawer.getByTestId("cart-line")).toContainText("3 masques d'essai");
    await expect(drawer.getByRole("button", { name: "Augmenter la quantité" })).toBeDisabled();
    await expect(drawer.getByTestId("cart-line-note")).toHaveText(
      "Le pack d'essai « 3 masques d'essai » est limité à 1 exemplaire par commande.",
    );
    await expect(drawer.getByTestId("cart-total")).toHaveText("0,99€");
  });

  test("a new pack replaces the previous one (one product at a time)", async ({ page }) => {
    await orderPack(page, "6 masques + 2 offerts");
    const drawer = page.getByRole("dialog", { name: "Mon panier" });
    await expect(drawer.getByTestId("cart-line")).toContainText("6 masques + 2 offerts");
    await page.keyboard.press("Escape");
    await page.getByRole("radio", { name: "9 masques + 3 offerts" }).check();
    await page.getByRole("button", { name: "Commander" }).click();
    await expect(drawer.getByTestId("cart-line")).toHaveCount(1);
    await expect(drawer.getByTestId("cart-line")).toContainText("9 masques + 3 offerts");
    await expect(drawer.getByTestId("cart-total")).toHaveText("32,90€");
  });

  test("two browsers have two carts", async ({ browser }) => {
    test.slow();
    const first = await browser.newContext();
    const second = await browser.newContext();
    try {
      const a = await first.newPage();
      const b = await second.newPage();
      await orderPack(a, "6 masques + 2 offerts");
      await expect(a.getByRole("dialog").getByTestId("cart-line")).toContainText("6 masques + 2 offerts");
      await open(b, "/panier");
      await expect(b.getByText("Votre panier est vide")).toBeVisible();
      await orderPack(b, "9 masques + 3 offerts");
      await expect(b.getByRole("dialog").getByTestId("cart-line")).toContainText("9 masques + 3 offerts");
      await a.goto("/panier");
      await expect(a.getByTestId("cart-line")).toContainText("6 masques + 2 offerts");
      await expect(a.getByTestId("cart-line")).toHaveCount(1);
    } finally {
      await first.close();
      await second.close();
    }
  });
});

test.describe("cart page (without JavaScript)", () => {
  test.skip(({ javaScriptEnabled }) => javaScriptEnabled, "plain forms only");

  test("order from the product page, see the line on /panier, change and remove it", async ({ page }) => {
    await orderPack(page, "6 masques + 2 offerts", false);
    await expect(page).toHaveURL(/\/panier$/);
    await expect(page.getByRole("heading", { level: 1, name: "Mon panier" })).toBeVisible();
    await expect(page.getByTestId("cart-line")).toContainText("6 masques + 2 offerts");
    await expect(page.getByTestId("cart-total")).toHaveText("25,90€");
    await expect(page.getByTestId("cart-count")).toHaveText("1");
    await expect(page.getByTestId("toast")).toContainText("Produit ajouté");
    await page.getByRole("button", { name: "Augmenter la quantité" }).click();
    await expect(page.getByTestId("cart-total")).toHaveText("51,80€");
    await page.getByRole("button", { name: /^Retirer .* du panier$/ }).click();
    await expect(page.getByText("Votre panier est vide")).toBeVisible();
    await expect(page.getByRole("button", { name: "Procéder au paiement" })).toBeDisabled();
  });

  test("the header's cart button is a link to /panier", async ({ page }) => {
    await page.goto("/");
    await page.getByTestId("cart-button").click();
    await expect(page).toHaveURL(/\/panier$/);
    await expect(page.getByText("Votre panier est vide")).toBeVisible();
  });
});

async function seriousViolations(page: Page, include?: string) {
  const builder = new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]);
  const results = await (include ? builder.include(include) : builder).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map(
      (v) =>
        `${v.id}: ${v.nodes
          .map((n) => n.target.join(" "))
          .slice(0, 3)
          .join(", ")}`,
    );
}

test("drawer and /panier, filled and with form errors, have no serious accessibility violation", async ({
  page,
  javaScriptEnabled,
}) => {
  test.skip(!javaScriptEnabled, "axe runs in the JavaScript project");
  test.slow();
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await orderPack(page, "6 masques + 2 offerts");
    const drawer = page.getByRole("dialog");
    await expect(drawer.getByTestId("cart-line")).toHaveCount(1);
    expect(await seriousViolations(page, "[role=dialog]")).toEqual([]);
    await drawer.getByRole("button", { name: "Procéder au paiement" }).click();
    await drawer.getByRole("button", { name: "Continuer vers le paiement" }).click();
    await expect(drawer.getByText("Adresse email invalide")).toBeVisible();
    expect(await seriousViolations(page, "[role=dialog]")).toEqual([]);

    await open(page, "/panier");
    await expect(page.getByTestId("cart-line")).toHaveCount(1);
    expect(await seriousViolations(page, "main")).toEqual([]);
    await open(page, "/panier?etape=livraison");
    await page.getByRole("button", { name: "Continuer vers le paiement" }).click();
    await expect(page.getByText("Adresse email invalide")).toBeVisible();
    expect(await seriousViolations(page, "main")).toEqual([]);
  }
});

/** New carts allowed per address and hour (LIMITS.newCartsPerAddress, app/services/limits.server.ts). */
const NEW_CARTS_PER_ADDRESS = 300;

/**
 * Makes new carts from `address` through the API, as other shoppers behind the same address
 * would (no cookie kept: each request is a new browser), until the first refusal; gives how
 * many were made and that refusal.
 */
async function fillAddressWithCarts(address: string) {
  let made = 0;
  for (let batch = 0; batch < 100; batch++) {
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        fetch(`${baseURL}/api/cart`, {
          method: "POST",
          headers: { "Content-Type": "application/json", "X-Forwarded-For": address },
          body: JSON.stringify({ productId: 1, packId: 2 }),
        }),
      ),
    );
    made += answers.filter((answer) => answer.status === 201).length;
    const refused = answers.find((answer) => answer.status === 429);
    if (refused) return { made, refused: { retryAfter: refused.headers.get("Retry-After"), body: await refused.json() } };
  }
  throw new Error(`no refusal after ${made} new carts`);
}

test.describe("new carts per address", () => {
  const REFUSAL = /Trop de paniers ont été créés depuis votre réseau en peu de temps\. Réessayez dans \d+ (minutes?|secondes?)\./;

  test("past the address's new carts, a new shopper is told why in French; a shopper with a cart goes on", async ({
    page,
    browser,
    shopperAddress,
    javaScriptEnabled,
  }) => {
    test.slow();
    // A shopper behind this address who already has a cart.
    const earlyContext = await browser.newContext();
    try {
      const early = await earlyContext.newPage();
      await orderPack(early, "6 masques + 2 offerts", javaScriptEnabled);
      await expect(early.getByTestId("cart-count")).toHaveText("1");

      // Many other shoppers behind the same address (a carrier's NAT) use up its allowance.
      const { made, refused } = await fillAddressWithCarts(shopperAddress);
      expect(made).toBe(NEW_CARTS_PER_ADDRESS - 1);
      expect(Number(refused.retryAfter)).toBeGreaterThan(0);
      expect(refused.body).toMatchObject({ error: expect.stringMatching(REFUSAL), code: "too_many_requests" });

      // A new shopper: the product does not reach a cart, and the page says why.
      const posted = page.waitForResponse(
        (r) => r.request().method() === "POST" && new URL(r.url()).pathname.startsWith("/panier"),
      );
      await orderPack(page, "9 masques + 3 offerts", javaScriptEnabled);
      const answer = await posted;
      expect(answer.status()).toBe(429);
      const alert = page.getByRole("alert").filter({ hasText: "Trop de paniers" });
      await expect(alert).toContainText("Impossible d'ajouter le produit au panier.");
      await expect(alert).toHaveText(REFUSAL);
      if (!javaScriptEnabled) {
        // The cart page, answered as a 429 with its Retry-After.
        expect(Number(answer.headers()["retry-after"])).toBeGreaterThan(0);
        await expect(page.getByRole("heading", { level: 1, name: "Mon panier" })).toBeVisible();
        await expect(page.getByText("Votre panier est vide")).toBeVisible();
      } else {
        await expect(page.getByRole("dialog", { name: "Mon panier" })).toBeHidden();
      }
      expect((await page.context().cookies()).some((cookie) => cookie.name === "cart")).toBe(false);

      // The shopper who had a cart changes its pack, and sees it in the cart.
      await orderPack(early, "9 masques + 3 offerts", javaScriptEnabled);
      // The change is saved before the shopper leaves the page (a navigation would cancel the drawer's request).
      const changed = javaScriptEnabled ? early.getByRole("dialog", { name: "Mon panier" }) : early.locator("main");
      await expect(changed.getByTestId("cart-line")).toContainText("9 masques + 3 offerts");
      await open(early, "/panier", javaScriptEnabled);
      await expect(early.getByTestId("cart-line")).toHaveCount(1);
      await expect(early.getByTestId("cart-line")).toContainText("9 masques + 3 offerts");
    } finally {
      await earlyContext.close();
    }
  });
});

test("cart pages are never cached", async ({ request }) => {
  const response = await request.get("/panier");
  expect(response.headers()["cache-control"]).toBe("no-store");
});
