import { expect, test as base } from "@playwright/test";
import { testShopperAddress } from "../helpers/e2e";

/**
 * The `test` of every spec: each test is a shopper of its own. Its browser contexts (the
 * `page`'s, and any `browser.newContext()` of the test) and its `request` send one address of
 * their own in X-Forwarded-For, which the e2e server trusts (TRUST_PROXY=1, playwright.config.ts):
 * the per-address limits (new carts, delivery forms, order lookups, sign-ins...) count each test
 * apart, as they count real shoppers, whatever the number of tests and their order. A test that
 * checks a limit meets it from its own address; a request that passes its own X-Forwarded-For
 * (testShopperHeaders) comes from that address instead.
 *
 * Import `test` and `expect` from here (or from a fixtures module built on it), never from
 * @playwright/test (eslint.config.js says so).
 */
export const test = base.extend<{ shopperAddress: string }>({
  shopperAddress: async ({}, use) => await use(testShopperAddress()),
  extraHTTPHeaders: async ({ extraHTTPHeaders, shopperAddress }, use) =>
    await use({ ...extraHTTPHeaders, "X-Forwarded-For": shopperAddress }),
});

export { expect };
