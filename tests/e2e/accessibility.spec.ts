import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";

const PUBLIC_PAGES = [
  "/",
  "/product/1",
  "/product/999999",
  "/contact",
  "/cgv",
  "/mentions-legales",
  "/politique-confidentialite",
  "/faq",
  "/livraison",
  "/retours",
  "/recherche?q=collag%C3%A8ne",
  "/track-order",
  "/order-confirmation/123456789",
  "/panier",
  "/success",
  "/abonnement/resilier",
  "/docs/api",
  "/page-inconnue",
];

test.describe("accessibility", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "axe runs once, in the JavaScript project");
  // axe walks the whole page: give it room on a loaded 2-core machine.
  test.describe.configure({ timeout: 90_000 });

  for (const path of PUBLIC_PAGES) {
    for (const width of [390, 1280]) {
      test(`${path} at ${width}px has no serious or critical violation, one h1 and its own title`, async ({ page }) => {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(path);
        await expect(page.locator("h1")).toHaveCount(1);
        const title = await page.title();
        expect(title.length).toBeGreaterThan(5);
        expect(await page.locator('meta[name="description"]').getAttribute("content")).toBeTruthy();
        const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
        const blocking = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
        expect(
          blocking.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join(", ")})`),
        ).toEqual([]);
      });
    }
  }
});
