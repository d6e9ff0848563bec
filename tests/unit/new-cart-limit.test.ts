import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { asResponses } from "../helpers/route-response";
import { getDb } from "~/db/client.server";
import { carts } from "~/db/schema";
import { action as cartApi } from "~/routes/api.cart";
import { action as cartPageRoute, headers as cartHeaders } from "~/routes/panier";
import { LIMITS, resetAllRateLimits } from "~/services/limits.server";
import { formRequest, fromAddress, jsonRequest, routeArgs } from "../helpers/requests";
import { cookieFrom } from "./admin-helpers";

const cartPage = asResponses(cartPageRoute);

/**
 * New carts per client address, page and API together: what a shopper behind a busy address
 * meets. A browser that has its cart is never counted nor refused.
 */

const MAX = LIMITS.newCartsPerAddress.max;
const PRODUCT = { productId: 1, packId: 2 };
const UNKNOWN_PACK = { productId: 1, packId: 999_999 };

beforeEach(async () => {
  await resetAllRateLimits();
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date("2026-03-05T10:00:00Z"));
});
afterEach(() => {
  vi.useRealTimers();
});

const advance = (seconds: number) => vi.setSystemTime(Date.now() + seconds * 1000);
const countCarts = async () => (await getDb().select({ id: carts.id }).from(carts)).length;

/** The product page's form: "cors" with JavaScript (Remix's fetch), "navigate" without. */
const pageAdd = (address: string, { cookie, mode = "cors", product = PRODUCT } = {} as PageAddOptions) =>
  cartPage(
    routeArgs(
      formRequest(
        "/panier",
        { intent: "add", productId: String(product.productId), packId: String(product.packId), redirectTo: "/panier" },
        { headers: { "Sec-Fetch-Mode": mode, ...(cookie ? { Cookie: cookie } : {}) } },
      ),
      {},
      fromAddress(address),
    ),
  );
type PageAddOptions = { cookie?: string; mode?: "cors" | "navigate"; product?: typeof PRODUCT };

const apiAdd = (address: string, { cookie, product = PRODUCT }: { cookie?: string; product?: typeof PRODUCT } = {}) =>
  cartApi(routeArgs(jsonRequest("/api/cart", "POST", product, cookie ? { Cookie: cookie } : {}), {}, fromAddress(address)));

/** Makes `n` carts from `address`, half through the page, half through the API; gives the first cart's cookie. */
async function makeCarts(address: string, n: number): Promise<string> {
  let first: string | null = null;
  for (let i = 0; i < n; i++) {
    const added = i % 2 ? await apiAdd(address) : await pageAdd(address);
    expect(added.status).toBeLessThan(300);
    const cookie = cookieFrom(added, "cart");
    expect(cookie).not.toBeNull();
    first ??= cookie;
  }
  return first!;
}

// Hundreds of carts through the routes per test: PostgreSQL on a busy machine takes its time.
describe("new carts per address", { timeout: 90_000 }, () => {
  it(`one new cart past the ${MAX} of an hour from one address is refused in French (429, Retry-After), page and API; another address, and a shopper with a cart, go on`, async () => {
    const kept = await makeCarts("203.0.113.60", MAX);
    const before = await countCarts();

    const refusedApi = await apiAdd("203.0.113.60");
    expect(refusedApi.status).toBe(429);
    expect(Number(refusedApi.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(cookieFrom(refusedApi, "cart")).toBeNull();
    expect(await refusedApi.json()).toMatchObject({
      error: expect.stringMatching(
        /^Trop de paniers ont été créés depuis votre réseau en peu de temps\. Réessayez dans \d+ minutes?\.$/,
      ),
      issues: [],
      code: "too_many_requests",
    });

    // With JavaScript (the order form shows it) and without (the cart page shown with the reason, as a 429 document).
    for (const mode of ["cors", "navigate"] as const) {
      const refusedPage = await pageAdd("203.0.113.60", { mode });
      expect(refusedPage.status).toBe(429);
      expect(cookieFrom(refusedPage, "cart")).toBeNull();
      expect(await refusedPage.json()).toMatchObject({
        ok: false,
        intent: "add",
        error: expect.stringMatching(/^Trop de paniers ont été créés depuis votre réseau en peu de temps\. Réessayez dans/),
      });
      const documentHeaders = new Headers(
        cartHeaders({
          loaderHeaders: new Headers(),
          actionHeaders: refusedPage.headers,
          parentHeaders: new Headers(),
          errorHeaders: undefined,
        }),
      );
      expect(Number(documentHeaders.get("Retry-After"))).toBeGreaterThan(0);
      expect(documentHeaders.get("Cache-Control")).toBe("no-store");
    }
    expect(await countCarts()).toBe(before);

    // The shopper who already has a cart, behind the same address, still adds products (page and API).
    const again = await pageAdd("203.0.113.60", { cookie: kept });
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ ok: true, intent: "add", count: 1 });
    const apiAgain = await apiAdd("203.0.113.60", { cookie: kept });
    expect(apiAgain.status).toBe(201);
    expect(await apiAgain.json()).toMatchObject({
      cartId: expect.any(String),
      items: [expect.objectContaining({ productId: 1 })],
    });
    expect(await countCarts()).toBe(before);

    // Another address is not affected.
    expect((await apiAdd("203.0.113.61")).status).toBe(201);
    expect((await pageAdd("203.0.113.61", { mode: "navigate" })).status).toBe(302);

    // Once the wait it gave is over, the address makes carts again.
    advance(Number(refusedApi.headers.get("Retry-After")));
    expect((await apiAdd("203.0.113.60")).status).toBe(201);
  });

  it("only carts really created count: refused products and adds to an existing cart cost nothing", async () => {
    const kept = await makeCarts("203.0.113.62", MAX - 1);
    // An unknown pack: no cart made, nothing counted (page and API).
    for (let i = 0; i < 5; i++) {
      expect((await apiAdd("203.0.113.62", { product: UNKNOWN_PACK })).status).toBe(422);
      expect((await pageAdd("203.0.113.62", { product: UNKNOWN_PACK })).status).toBe(422);
    }
    // Products added to the cart the browser already has.
    for (let i = 0; i < 10; i++) expect((await pageAdd("203.0.113.62", { cookie: kept })).status).toBe(200);

    const last = await pageAdd("203.0.113.62");
    expect(last.status).toBe(200);
    expect(cookieFrom(last, "cart")).not.toBeNull();
    expect((await pageAdd("203.0.113.62")).status).toBe(429);
  });

  it("concurrent first products from one address never make more carts than the allowance", async () => {
    await makeCarts("203.0.113.63", MAX - 3);
    const before = await countCarts();
    const answers = await Promise.all(Array.from({ length: 8 }, () => apiAdd("203.0.113.63")));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([201, 201, 201, 429, 429, 429, 429, 429]);
    expect(await countCarts()).toBe(before + 3);
  });
});
