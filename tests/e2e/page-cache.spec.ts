import type { Page } from "@playwright/test";
import { expect, test } from "./shopper";
import { gotoReady } from "../helpers/e2e";

/**
 * The page cache (server/page-cache.js): an anonymous visitor gets the shared page, which runs
 * under its hashed-scripts security policy without a violation; a shopper with a cart gets the
 * same shared page, and the header shows their count once the page's script runs (without
 * JavaScript, the cart link leads to /panier, rendered live).
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

  test("a shopper with a cart gets the shared page from the cache, and the header shows their count", async ({ page }) => {
    const errors = collectErrors(page);
    await gotoReady(page, "/product/1");
    await page.getByRole("radio", { name: "6 masques + 2 offerts" }).check();
    await page.getByRole("button", { name: "Commander" }).click();
    await expect(page.getByTestId("cart-count")).toHaveText("1");
    await page.getByRole("dialog", { name: "Mon panier" }).getByRole("button", { name: "Fermer le panier" }).click();

    // Each worker keeps its own cache: within a few views, the page comes from it.
    let home = await gotoReady(page, "/");
    for (let view = 0; view < 6 && home!.headers()["x-cache"] !== "HIT"; view++) home = await gotoReady(page, "/");
    expect(home!.headers()["x-cache"]).toBe("HIT");
    expect(home!.headers()["cache-control"]).toBe("public, max-age=0, s-maxage=60, stale-while-revalidate=600");
    expect(home!.headers()["set-cookie"]).toBeUndefined();
    // The shared HTML holds no count; the page's script shows this shopper's.
    expect(await home!.text()).not.toContain('data-testid="cart-count"');
    await expect(page.getByTestId("cart-count")).toHaveText("1");
    await expect(page.getByTestId("cart-button")).toHaveAttribute("aria-label", "Panier, 1 article");
    await page.getByTestId("cart-button").click();
    await expect(page.getByRole("dialog", { name: "Mon panier" }).getByTestId("cart-line")).toContainText(
      "6 masques + 2 offerts",
    );
    expect(errors).toEqual([]);

    // Another visitor, without cookies, gets the same page and no count.
    const other = await page.context().browser()!.newContext();
    try {
      const visitor = await other.newPage();
      await gotoReady(visitor, "/");
      await expect(visitor.getByTestId("cart-button")).toHaveAttribute("aria-label", "Panier");
      await expect(visitor.getByTestId("cart-count")).toHaveCount(0);
    } finally {
      await other.close();
    }
  });
});

test.describe("page cache without JavaScript", () => {
  test.skip(({ javaScriptEnabled }) => javaScriptEnabled, "the page as a browser without JavaScript gets it");

  test("a shopper with a cart gets the shared page, and its cart link leads to the live cart", async ({ page }) => {
    await page.goto("/product/1");
    await page.getByRole("radio", { name: "6 masques + 2 offerts" }).check();
    await page.getByRole("button", { name: "Commander" }).click();
    await expect(page).toHaveURL(/\/panier$/);
    await expect(page.getByTestId("cart-count")).toHaveText("1");

    let home = await page.goto("/");
    for (let view = 0; view < 6 && home!.headers()["x-cache"] !== "HIT"; view++) home = await page.goto("/");
    expect(home!.headers()["x-cache"]).toBe("HIT");
    await page.getByTestId("cart-button").click();
    await expect(page).toHaveURL(/\/panier$/);
    await expect(page.getByRole("heading", { level: 1, name: "Mon panier" })).toBeVisible();
    await expect(page.getByTestId("cart-line")).toContainText("6 masques + 2 offerts");
    await expect(page.getByTestId("cart-count")).toHaveText("1");
  });
});
