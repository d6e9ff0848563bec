import type { Page } from "@playwright/test";
import { expect, test } from "./shopper";
import { gotoReady } from "../helpers/e2e";

/**
 * The page cache (server/page-cache.js): an anonymous visitor gets the shared page, which runs
 * under its hashed-scripts security policy without a violation; once the visitor has a cart,
 * the pages are rendered live for them again.
 */

/** Console errors and uncaught exceptions of the page (a blocked script shows up here). */
function collectErrors(page: Page) {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  return errors;
}

test.describe("page cache", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "hydration and the cart drawer need JavaScript");

  test("a repeated anonymous view of / is a cache hit that hydrates without a policy violation", async ({ page }) => {
    const errors = collectErrors(page);
    // Each worker process keeps its own cache (one per core): a view may first reach a worker that
    // has not stored the page yet; within a few views, every worker has it.
    let headers: Record<string, string> = {};
    for (let view = 0; view < 6 && headers["x-cache"] !== "HIT"; view++) headers = (await gotoReady(page, "/"))!.headers();
    expect(headers["x-cache"]).toBe("HIT");
    expect(headers["set-cookie"]).toBeUndefined();
    expect(headers["cache-control"]).toBe("public, max-age=0, s-maxage=60, stale-while-revalidate=600");
    expect(headers["content-security-policy"]).toMatch(
      /script-src 'self'( 'sha256-[A-Za-z0-9+/=]+')+ https:\/\/js\.stripe\.com;/,
    );
    expect(headers["content-security-policy"]).not.toContain("nonce");
    await expect(page.locator("html[data-hydrated]")).toBeAttached();
    // React runs: the FAQ questions are buttons.
    await expect(page.getByRole("button", { name: /./ }).first()).toBeVisible();
    expect(errors).toEqual([]);
  });

  test("after adding to the cart, pages are rendered live with the cart count", async ({ page }) => {
    const errors = collectErrors(page);
    await gotoReady(page, "/product/1");
    await gotoReady(page, "/product/1");
    await page.getByRole("radio", { name: "6 masques + 2 offerts" }).check();
    await page.getByRole("button", { name: "Commander" }).click();
    await expect(page.getByTestId("cart-count")).toHaveText("1");

    const home = await gotoReady(page, "/");
    expect(home!.headers()["x-cache"]).toBe("BYPASS");
    expect(home!.headers()["cache-control"]).toBe("private, no-cache");
    expect(home!.headers()["content-security-policy"]).toMatch(/'nonce-/);
    await expect(page.getByTestId("cart-count")).toHaveText("1");
    expect(errors).toEqual([]);

    // Another visitor, without cookies, still gets the shared page, without this cart.
    const anonymous = await page.request.get("/", { headers: { Cookie: "" } });
    expect(["HIT", "MISS", "STALE"]).toContain(anonymous.headers()["x-cache"]);
    expect(await anonymous.text()).not.toContain('data-testid="cart-count"');
  });
});
