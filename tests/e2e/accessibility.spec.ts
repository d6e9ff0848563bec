import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "./shopper";

/**
 * The public pages, each checked by axe at the widths where its layout differs:
 * - the pages a shopper works in, at a phone's and a desktop's width;
 * - the text pages at a phone's width: their desktop layout is checked, more strictly (every
 *   violation in the main content), by static-pages.spec.ts;
 * - the error pages once each, alternating widths (they share one frame);
 * - the API documentation at a desktop's width, where its readers are.
 */
const PUBLIC_PAGES: ReadonlyArray<readonly [string, readonly number[]]> = [
  ["/", [390, 1280]],
  ["/product/1", [390, 1280]],
  ["/contact", [390, 1280]],
  ["/panier", [390, 1280]],
  ["/track-order", [390, 1280]],
  ["/abonnement/resilier", [390, 1280]],
  ["/retractation", [390, 1280]],
  ["/cgv", [390]],
  ["/mentions-legales", [390]],
  ["/politique-confidentialite", [390]],
  ["/faq", [390]],
  ["/livraison", [390]],
  ["/retours", [390]],
  ["/recherche?q=collag%C3%A8ne", [390]],
  ["/product/999999", [390]],
  ["/page-inconnue", [1280]],
  ["/order-confirmation/123456789", [390]],
  ["/success", [1280]],
  ["/docs/api", [1280]],
];

test.describe("accessibility", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "axe runs once, in the JavaScript project");
  // axe walks the whole page: give it room on a loaded 2-core machine.
  test.describe.configure({ timeout: 90_000 });

  for (const [path, widths] of PUBLIC_PAGES) {
    for (const width of widths) {
      test(`${path} at ${width}px has no serious or critical violation, one h1 and its own title`, async ({ page }) => {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(path);
        await expect(page.locator("h1")).toHaveCount(1);
        const title = await page.title();
        expect(title.length).toBeGreaterThan(5);
        expect(await page.locator('meta[name="description"]').getAttribute("content")).toBeTruthy();
        const axe = new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]);
        // The API documentation draws its ~60 operations with one component: axe checks the page's frame and the
        // public sections, and leaves out the administration section (over a third of a 600 kB page), same markup.
        if (path === "/docs/api") axe.exclude("#administration");
        const results = await axe.analyze();
        const blocking = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
        expect(
          blocking.map(
            (v) =>
              `${v.id}: ${v.help} (${v.nodes
                .map((n) => n.target.join(" "))
                .slice(0, 3)
                .join(", ")})`,
          ),
        ).toEqual([]);
      });
    }
  }
});
