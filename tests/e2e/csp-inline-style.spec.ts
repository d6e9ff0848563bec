import type { Page } from "@playwright/test";
import { gotoReady } from "../helpers/e2e";
import { expect, reachPaymentStep, test } from "./checkout-fixtures";

/**
 * The stylesheet is inlined in the head and allowed by its sha256 hash (no 'unsafe-inline'):
 * no page breaks the Content-Security-Policy, rendered live or from the page cache, up to the
 * payment step, and the styles apply from the first paint.
 */

/** Every Content-Security-Policy violation the browser reports for the page. */
function watchViolations(page: Page) {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(`${page.url()}: ${message.text()}`);
  });
  return violations;
}

/** The inline stylesheet applies: the body is the flex column its classes ask for. */
async function expectStyled(page: Page) {
  expect(await page.evaluate(() => getComputedStyle(document.body).display)).toBe("flex");
  expect(await page.evaluate(() => document.querySelectorAll('link[rel="stylesheet"]').length)).toBe(0);
}

test("no page breaks the policy, live or from the page cache, and the inline stylesheet applies", async ({
  page,
  javaScriptEnabled,
}) => {
  const violations = watchViolations(page);
  // The landing page until the page cache serves it (each server process keeps its own cache).
  const outcomes: string[] = [];
  for (let i = 0; i < 6 && !outcomes.includes("HIT"); i++) {
    const response = await gotoReady(page, "/", javaScriptEnabled);
    const policy = response?.headers()["content-security-policy"] ?? "";
    expect(policy).toMatch(/style-src 'self' 'sha256-[A-Za-z0-9+/=]+';/);
    expect(policy).not.toContain("unsafe-inline");
    outcomes.push(response?.headers()["x-cache"] ?? "");
    await expectStyled(page);
  }
  expect(outcomes).toContain("HIT");
  for (const path of ["/product/1", "/panier", "/contact"]) {
    await gotoReady(page, path, javaScriptEnabled);
    await expectStyled(page);
  }
  expect(violations).toEqual([]);
});

test("the payment step breaks no rule either", async ({ page, javaScriptEnabled }) => {
  test.skip(!javaScriptEnabled, "the payment step's card field runs with JavaScript");
  const violations = watchViolations(page);
  await reachPaymentStep(page);
  await gotoReady(page, "/panier");
  await expectStyled(page);
  expect(violations).toEqual([]);
});
