import type { Page } from "@playwright/test";
import { expect, test } from "./shopper";
import { baseURL } from "../../playwright.config";

/** What search engines and link previews read: robots.txt, the sitemap, the head of each page, the structured data. */

const PUBLIC_PAGES = [
  "/",
  "/product/1",
  "/faq",
  "/contact",
  "/livraison",
  "/retours",
  "/cgv",
  "/mentions-legales",
  "/politique-confidentialite",
  "/track-order",
];

/** Collects the page's Content-Security-Policy complaints (console errors and violation events). */
function watchCsp(page: Page) {
  const problems: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) problems.push(message.text());
  });
  return problems;
}

async function headOf(page: Page) {
  return page.evaluate(() => {
    const meta = (selector: string) => [...document.querySelectorAll<HTMLMetaElement>(selector)].map((m) => m.content);
    return {
      title: document.title,
      description: meta('meta[name="description"]'),
      canonical: [...document.querySelectorAll<HTMLLinkElement>('link[rel="canonical"]')].map((l) => l.getAttribute("href")),
      robots: meta('meta[name="robots"]'),
      og: Object.fromEntries(
        [...document.querySelectorAll<HTMLMetaElement>('meta[property^="og:"]')].map((m) => [
          m.getAttribute("property"),
          m.content,
        ]),
      ) as Record<string, string>,
      twitter: Object.fromEntries(
        [...document.querySelectorAll<HTMLMetaElement>('meta[name^="twitter:"]')].map((m) => [m.getAttribute("name"), m.content]),
      ) as Record<string, string>,
      jsonLd: [...document.querySelectorAll<HTMLScriptElement>('script[type="application/ld+json"]')].map((s) => ({
        data: JSON.parse(s.textContent ?? "null") as Record<string, unknown>,
        nonce: s.nonce,
      })),
      ratingMarkup: document.querySelectorAll('[itemprop="aggregateRating"], [itemtype*="AggregateRating"], [itemtype*="Review"]')
        .length,
    };
  });
}

test.describe("files for search engines", () => {
  test.beforeEach(({ javaScriptEnabled }) => {
    test.skip(!javaScriptEnabled, "read by HTTP, once");
  });

  test("robots.txt keeps the private pages out and names the sitemap", async ({ request }) => {
    const response = await request.get("/robots.txt");
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toBe("text/plain; charset=utf-8");
    expect(response.headers()["cache-control"]).toBe("public, max-age=3600");
    const text = await response.text();
    expect(text.startsWith("User-agent: *\n")).toBe(true);
    for (const path of [
      "/admin",
      "/api/",
      "/panier",
      "/order-confirmation",
      "/facture/",
      "/avoir/",
      "/mon-abonnement",
      "/abonnement/",
      "/retractation",
    ]) {
      expect(text).toContain(`\nDisallow: ${path}\n`);
    }
    expect(text).not.toMatch(/^Disallow: \/$/m);
    expect(text).toContain(`\nSitemap: ${baseURL}/sitemap.xml\n`);
  });

  test("the sitemap is valid XML listing the public pages with absolute URLs and dates, each one answering 200", async ({
    request,
    page,
  }) => {
    const response = await request.get("/sitemap.xml");
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toBe("application/xml; charset=utf-8");
    const xml = await response.text();
    // The browser's own XML parser reads it.
    await page.goto("/faq");
    const parsed = await page.evaluate((source) => {
      const doc = new DOMParser().parseFromString(source, "application/xml");
      const root = doc.documentElement;
      return {
        error: doc.getElementsByTagName("parsererror").length,
        root: root.localName,
        namespace: root.namespaceURI,
        urls: [...root.children].map((url) => ({
          tag: url.localName,
          loc: url.getElementsByTagNameNS(root.namespaceURI, "loc")[0]?.textContent ?? "",
          lastmod: url.getElementsByTagNameNS(root.namespaceURI, "lastmod")[0]?.textContent ?? "",
        })),
      };
    }, xml);
    expect(parsed).toMatchObject({ error: 0, root: "urlset", namespace: "http://www.sitemaps.org/schemas/sitemap/0.9" });
    const locs = parsed.urls.map((u) => u.loc);
    expect(locs).toEqual(expect.arrayContaining(PUBLIC_PAGES.filter((p) => p !== "/track-order").map((p) => `${baseURL}${p}`)));
    for (const url of parsed.urls) {
      expect(url.tag).toBe("url");
      expect(url.loc.startsWith(`${baseURL}/`)).toBe(true);
      expect(url.lastmod).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
      expect(Date.parse(url.lastmod)).toBeLessThanOrEqual(Date.now());
      expect((await request.get(url.loc)).status(), url.loc).toBe(200);
    }
  });

  test("the preview image is our own 1200×630 PNG", async ({ request }) => {
    const response = await request.get("/images/og-image.png");
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toBe("image/png");
    const png = await response.body();
    expect(png.subarray(1, 4).toString("latin1")).toBe("PNG");
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 630]);
    expect(png.length).toBeLessThan(150 * 1024);
  });
});

test("each public page has its canonical link, its own title and description, a full link preview and no rating markup", async ({
  page,
  request,
}) => {
  const csp = watchCsp(page);
  const titles: string[] = [];
  const descriptions: string[] = [];
  for (const path of PUBLIC_PAGES) {
    await page.goto(`${path}${path === "/product/1" ? "?image=1" : ""}`);
    const head = await headOf(page);
    const url = `${baseURL}${path}`;
    expect(head.canonical, path).toEqual([url]);
    expect(head.robots, path).toEqual([]);
    expect(head.description, path).toHaveLength(1);
    titles.push(head.title);
    descriptions.push(head.description[0]);
    expect(head.og, path).toMatchObject({
      "og:url": url,
      "og:type": path === "/product/1" ? "product" : "website",
      "og:locale": "fr_FR",
      "og:site_name": "Maison Éclat",
      "og:image": `${baseURL}/images/og-image.png`,
      "og:description": head.description[0],
    });
    expect(head.title.startsWith(head.og["og:title"]), path).toBe(true);
    expect(head.twitter, path).toMatchObject({
      "twitter:card": "summary_large_image",
      "twitter:title": head.og["og:title"],
      "twitter:description": head.description[0],
      "twitter:image": `${baseURL}/images/og-image.png`,
    });
    expect(JSON.stringify(head.jsonLd), path).not.toMatch(/AggregateRating|aggregateRating|"Review"|"review"/);
    expect(head.ratingMarkup, path).toBe(0);
  }
  expect(new Set(titles).size).toBe(titles.length);
  expect(new Set(descriptions).size).toBe(descriptions.length);
  const image = await request.get(`${baseURL}/images/og-image.png`);
  expect([image.status(), image.headers()["content-type"]]).toEqual([200, "image/png"]);
  expect(csp).toEqual([]);
});

test("the product page's Product data has one offer per pack on sale, under the page's script policy", async ({
  page,
  request,
  javaScriptEnabled,
}) => {
  const csp = watchCsp(page);
  const product = (await (await request.get("/api/products/1")).json()) as {
    name: string;
    packs: { name: string; price: string }[];
  };
  await page.goto("/product/1");
  const { jsonLd } = await headOf(page);
  const products = jsonLd.filter((j) => j.data["@type"] === "Product");
  expect(products).toHaveLength(1);
  const data = products[0].data as { name: string; image: string[]; offers: Record<string, unknown>[] };
  expect(data.name).toBe(product.name);
  expect(data.image.every((i) => i.startsWith(`${baseURL}/`))).toBe(true);
  expect(data.offers.map((o) => [o.name, o.price])).toEqual(product.packs.map((p) => [p.name, p.price]));
  for (const offer of data.offers) {
    expect(offer).toMatchObject({
      "@type": "Offer",
      priceCurrency: "EUR",
      availability: "https://schema.org/InStock",
      url: `${baseURL}/product/1`,
    });
  }
  // The packs shown on the page are the offers.
  for (const pack of product.packs) await expect(page.getByText(pack.name).first()).toBeAttached();
  // Like every script of the page, it carries the page's nonce, or none on a page from the page
  // cache (its policy lists the hashes of its scripts). The browser keeps the nonce from
  // scripts, hence read as a property.
  if (javaScriptEnabled) {
    const nonces = await page.evaluate(() => [...document.scripts].map((s) => s.nonce));
    expect(new Set(nonces).size).toBe(1);
    expect(products[0].nonce).toBe(nonces[0]);
  }
  expect(csp).toEqual([]);
});

test("the landing page names the shop as an Organization", async ({ page }) => {
  await page.goto("/");
  const { jsonLd } = await headOf(page);
  const organization = jsonLd.find((j) => j.data["@type"] === "Organization")?.data;
  expect(organization).toMatchObject({
    name: "Maison Éclat",
    url: `${baseURL}/`,
    logo: `${baseURL}/images/logo.png`,
    email: "contact@maison-eclat.fr",
  });
  expect(organization?.address).toMatchObject({ "@type": "PostalAddress", postalCode: "75011", addressLocality: "Paris" });
});

test("private pages and missing pages are not indexed and have no canonical link", async ({ page }) => {
  for (const [path, robots] of [
    ["/panier", "noindex, follow"],
    ["/admin/login", "noindex, nofollow"],
    ["/track-order?id=123456789", "noindex, nofollow"],
    ["/mon-abonnement", "noindex, nofollow"],
    ["/recherche?q=collag%C3%A8ne", "noindex, follow"],
    ["/page-qui-n-existe-pas", "noindex, follow"],
    ["/product/999999", "noindex, follow"],
  ] as const) {
    await page.goto(path);
    const head = await headOf(page);
    expect(head.robots, path).toEqual([robots]);
    expect(head.canonical, path).toEqual([]);
  }
});

test("a page reached by a link inside the shop gets its own canonical link", async ({ page, javaScriptEnabled }) => {
  test.skip(!javaScriptEnabled, "navigation inside the page needs JavaScript");
  await page.goto("/");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await page.getByRole("contentinfo").getByRole("link", { name: "Livraison" }).first().click();
  await expect(page).toHaveURL(/\/livraison$/);
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", `${baseURL}/livraison`);
  await expect(page.locator('meta[property="og:url"]')).toHaveAttribute("content", `${baseURL}/livraison`);
  await expect(page.locator('link[rel="canonical"]')).toHaveCount(1);
});
