import { expect, test } from "./shopper";
import { frenchTypographyProblems } from "../helpers/french-typography";
import { createPaidOrder, unique } from "./admin-fixtures";
import { testShopperHeaders } from "../helpers/e2e";

/**
 * One rule over every public page's text (tests/helpers/french-typography.ts): a no-break space
 * before « ! ? : ; », « € » after the amount, no English interface words. The pages are those of
 * the sitemap, and those a shopper reaches without it: the cart with a pack, a paid order's
 * confirmation, invoice and tracking, the withdrawal, subscription, cancellation and renewal
 * payment forms, the reminders' unsubscribe and the order's resumption pages (as an expired or
 * missing link shows them), the payment's return page, search, the administrator's sign-in,
 * and a missing page. The API documentation (/docs/api) quotes code (`Content-Type:
 * application/json`, `active: false`), not sentences: it is left out.
 * The text read is what the page is sent with (no JavaScript), with the names of its controls.
 */

test.skip(({ javaScriptEnabled }) => javaScriptEnabled, "the rule reads the pages as they are sent, once");
test.describe.configure({ timeout: 90_000 });

test("every public page follows French typography", async ({ page }) => {
  const sitemap = await (await page.request.get("/sitemap.xml")).text();
  const listed = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);
  expect(listed).toContain("/");

  // A paid order of this browser (its confirmation page), then a pack in its cart.
  const order = await createPaidOrder(page.request, `typo.${unique()}@example.fr`);
  const added = await page.request.post("/api/cart", { headers: testShopperHeaders(), data: { productId: 1, packId: 2 } });
  expect(added.status()).toBe(201);
  // Its invoice, as the confirmation page links it (with the order's own key).
  await page.goto(`/order-confirmation/${order.id}`);
  const invoice = await page.getByRole("link", { name: /Télécharger ma facture/ }).getAttribute("href");
  expect(invoice).toMatch(new RegExp(`^/facture/${order.id}\\?cle=`));

  const pages = [
    ...new Set([
      ...listed,
      "/panier",
      `/order-confirmation/${order.id}`,
      "/track-order",
      "/retractation",
      "/mon-abonnement",
      "/recherche?q=masque",
      "/une-page-qui-n-existe-pas",
      invoice!,
      "/abonnement/resilier",
      "/abonnement/payer",
      "/rappels/desinscription",
      "/panier/reprendre",
      "/success",
      "/admin/login",
    ]),
  ];
  const problems: string[] = [];
  for (const path of pages) {
    await page.goto(path);
    const text = await page.evaluate(() => {
      const names = [...document.querySelectorAll("[aria-label], [title], [placeholder], img[alt], input[value]")].flatMap((el) =>
        ["aria-label", "title", "placeholder", "alt", ...(el.matches("input[type=submit], input[type=button]") ? ["value"] : [])]
          .map((name) => el.getAttribute(name))
          .filter((value): value is string => Boolean(value)),
      );
      return [document.title, document.body.innerText, ...names].join("\n");
    });
    for (const problem of frenchTypographyProblems(text)) problems.push(`${path} [${problem.rule}] « ${problem.excerpt} »`);
  }
  expect(problems, problems.join("\n")).toEqual([]);
  expect(pages.length).toBeGreaterThan(20);
});
