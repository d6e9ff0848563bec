import { readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { dataDir, emulatorURL } from "../../playwright.config";

/**
 * Opens a page and, when JavaScript runs (pass the test's `javaScriptEnabled`), waits until
 * React has hydrated it (root sets html[data-hydrated]), so a click is not a plain form post.
 */
export async function gotoReady(page: Page, url: string, javaScriptEnabled = true) {
  const response = await page.goto(url);
  if (javaScriptEnabled) await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  return response;
}

/** Reloads a page that runs JavaScript and waits until React has hydrated it again. */
export async function reloadReady(page: Page) {
  const response = await page.reload();
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  return response;
}

/** The e2e server's Stripe emulator, and the secret key its helpers need (random, kept in the data folder). */
export const EMULATOR = emulatorURL;
export function emulatorAuth() {
  const key = readFileSync(path.join(dataDir, ".stripe-emulator-key"), "utf8").trim();
  return { Authorization: `Bearer ${key}` };
}

/** A client address for a test shopper, drawn at random from 10.0.0.0/8. */
export function testShopperAddress() {
  const octet = () => 1 + Math.floor(Math.random() * 250);
  return `10.${octet()}.${octet()}.${octet()}`;
}

/**
 * A client address of its own for a request that makes test data (an order through the API):
 * the e2e server trusts one proxy (TRUST_PROXY=1), so each order comes from a different shopper,
 * as in real life. Without it, a request comes from its test's address (tests/e2e/shopper.ts).
 */
export function testShopperHeaders() {
  return { "X-Forwarded-For": testShopperAddress() };
}
