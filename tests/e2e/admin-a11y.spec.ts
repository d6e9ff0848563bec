import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "./shopper";
import { createContact, createPaidOrder, signIn, unique } from "./admin-fixtures";

test.describe("admin accessibility", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "axe runs once, in the JavaScript project");
  test.describe.configure({ timeout: 180_000 });

  for (const width of [390, 1280]) {
    test(`admin pages at ${width}px: no serious or critical violation, one h1, no horizontal page scroll`, async ({
      page,
      request,
    }) => {
      await page.setViewportSize({ width, height: 900 });
      const order = await createPaidOrder(request, `a11y+${unique()}@example.fr`);
      const contact = await createContact(request, `Accessibilité ${unique()}`);
      await page.goto("/admin/login");
      const check = async (path: string) => {
        if (path !== "/admin/login") await page.goto(path);
        await expect(page.locator("h1"), path).toHaveCount(1);
        const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
        const blocking = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
        expect(
          blocking.map(
            (v) =>
              `${path} ${v.id}: ${v.help} (${v.nodes
                .map((n) => n.target.join(" "))
                .slice(0, 3)
                .join(", ")})`,
          ),
        ).toEqual([]);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow, `${path} scrolls sideways`).toBeLessThanOrEqual(0);
      };
      await check("/admin/login");
      await signIn(page);
      for (const path of [
        "/admin/dashboard",
        "/admin/orders",
        "/admin/orders?view=unpaid",
        `/admin/orders/${order.id}`,
        `/admin/orders/${order.id}/invoice`,
        "/admin/subscriptions",
        "/admin/subscriptions?minAmount=beaucoup&startedFrom=hier",
        "/admin/promotions",
        "/admin/analytique",
        "/admin/analytique?periode=12m",
        "/admin/products",
        "/admin/products/new",
        "/admin/products/edit/1",
        "/admin/products?delete=1",
        "/admin/users",
        "/admin/users/new",
        "/admin/securite",
        "/admin/sante",
        "/admin/contacts",
        `/admin/contacts?id=${contact.id}`,
        `/admin/contacts?delete=${contact.id}`,
        "/admin/emails",
        "/admin/settings",
        "/admin/sessions",
        "/admin/test-contacts",
      ]) {
        await check(path);
      }
    });
  }
});
