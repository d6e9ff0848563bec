import { asResponses, toResponse } from "../helpers/route-response";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getConfig } from "~/config.server";
import { getDb } from "~/db/client.server";
import { packs, products } from "~/db/schema";
import { pageMeta } from "~/lib/meta";
import { canonicalUrl, privatePageRobots, robotsTxt } from "~/lib/seo";
import { jsonLdText, organizationJsonLd, postalAddress, productJsonLd } from "~/lib/structured-data";
import { loader as rootLoader } from "~/root";
import { loader as productLoaderRoute } from "~/routes/product.$id";
import { loader as robotsLoader } from "~/routes/robots[.]txt";
import { loader as sitemapLoader } from "~/routes/sitemap[.]xml";
import { createProduct } from "~/services/catalog.server";
import { getSettings } from "~/services/settings.server";
import { buildDate, sitemapEntries } from "~/services/sitemap.server";
import { getRequest, routeArgs } from "../helpers/requests";

const productLoader = asResponses(productLoaderRoute);

const publicUrl = () => getConfig().publicUrl;

// ---------------------------------------------------------------------------------------------
// A small validator of schema.org's Product and Offer, with what search engines require.

const SCHEMA_AVAILABILITY =
  /^https:\/\/schema\.org\/(InStock|OutOfStock|PreOrder|BackOrder|SoldOut|Discontinued|LimitedAvailability|OnlineOnly)$/;

function findKeysDeep(value: unknown, keys: string[], found: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => findKeysDeep(v, keys, found));
  else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      if (keys.includes(k) || (k === "@type" && typeof v === "string" && ["AggregateRating", "Review"].includes(v)))
        found.push(k === "@type" ? String(v) : k);
      findKeysDeep(v, keys, found);
    }
  }
  return found;
}

async function productProblems(data: Record<string, unknown> | null): Promise<string[]> {
  if (!data) return ["no Product"];
  const problems: string[] = [];
  if (data["@context"] !== "https://schema.org") problems.push("@context");
  if (data["@type"] !== "Product") problems.push("@type");
  if (typeof data.name !== "string" || !data.name) problems.push("name");
  const images = data.image as unknown;
  if (
    !Array.isArray(images) ||
    images.length === 0 ||
    images.some((i) => typeof i !== "string" || !i.startsWith(`${publicUrl()}/`))
  )
    problems.push("image");
  if (typeof data.sku !== "string" || !data.sku) problems.push("sku");
  if ((data.brand as { name?: unknown } | undefined)?.name !== (await getSettings()).siteName) problems.push("brand");
  const offers = data.offers as Record<string, unknown>[] | undefined;
  if (!Array.isArray(offers) || offers.length === 0) problems.push("offers");
  (offers ?? []).forEach((offer, i) => {
    if (offer["@type"] !== "Offer") problems.push(`offers[${i}].@type`);
    if (typeof offer.price !== "string" || !/^\d+\.\d{2}$/.test(offer.price)) problems.push(`offers[${i}].price`);
    if (offer.priceCurrency !== "EUR") problems.push(`offers[${i}].priceCurrency`);
    if (typeof offer.availability !== "string" || !SCHEMA_AVAILABILITY.test(offer.availability))
      problems.push(`offers[${i}].availability`);
    if (typeof offer.url !== "string" || !offer.url.startsWith(`${publicUrl()}/product/`)) problems.push(`offers[${i}].url`);
    if (offer.itemCondition !== "https://schema.org/NewCondition") problems.push(`offers[${i}].itemCondition`);
    const seller = offer.seller as { "@type"?: string; name?: string } | undefined;
    if (seller?.["@type"] !== "Organization" || !seller.name) problems.push(`offers[${i}].seller`);
  });
  if (findKeysDeep(data, ["aggregateRating", "review"]).length) problems.push("a rating or a review");
  return problems;
}

/** The product page's JSON-LD as the page builds it: from the product page's and the root's loaders. */
async function productPageJsonLd(id: number) {
  const page = await (await productLoader(routeArgs(getRequest(`/product/${id}`), { id: String(id) }))).json();
  const root = await toResponse(await rootLoader(routeArgs(getRequest(`/product/${id}`)))).json();
  expect(page.product).not.toBeNull();
  return productJsonLd(page.product!, page.offer!, { publicUrl: root.config.publicUrl, settings: root.settings });
}

let skuCount = 0;
async function newProduct(fields: {
  stock?: number;
  saleWithoutPack?: "unit" | "not_sold";
  packs?: { name: string; price: number; active?: boolean }[];
}) {
  skuCount += 1;
  return (await createProduct(
    {
      name: `Sérum test ${skuCount}`,
      sku: `SEO-TEST-${skuCount}`,
      priceCents: 1990,
      originalPriceCents: null,
      category: "Soins",
      description: "Un sérum d'essai.",
      stock: fields.stock ?? 5,
      images: ["/images/product-texture.svg"],
      saleWithoutPack: fields.saleWithoutPack ?? "unit",
    },
    (fields.packs ?? []).map((p, position) => ({
      name: p.name,
      description: "",
      masks: 2,
      price: p.price,
      referencePrice: null,
      popular: false,
      trial: false,
      position,
      active: p.active ?? true,
    })),
  ))!;
}

// ---------------------------------------------------------------------------------------------

describe("robots.txt", () => {
  it("keeps the back office, the API, the cart and every customer's order or subscription page out, and names the sitemap", async () => {
    const response = robotsLoader();
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/plain; charset=utf-8");
    expect(response.headers.get("Cache-Control")).toBe("public, max-age=3600");
    const lines = (await response.text()).split("\n");
    expect(lines[0]).toBe("User-agent: *");
    const disallowed = lines.filter((l) => l.startsWith("Disallow: ")).map((l) => l.slice("Disallow: ".length));
    for (const path of [
      "/admin",
      "/api/",
      "/panier",
      "/order-confirmation",
      "/success",
      "/facture/",
      "/avoir/",
      "/mon-abonnement",
      "/abonnement/",
      "/retractation",
      "/track-order?",
    ]) {
      expect(disallowed).toContain(path);
    }
    // Never everything, and never a page the shop wants found.
    expect(disallowed).not.toContain("/");
    for (const open of [
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
    ]) {
      expect(
        disallowed.some((d) => open.startsWith(d)),
        open,
      ).toBe(false);
    }
    expect(lines).toContain(`Sitemap: ${publicUrl()}/sitemap.xml`);
    expect(robotsTxt("https://www.maison-eclat.fr")).toContain("Sitemap: https://www.maison-eclat.fr/sitemap.xml\n");
  });

  it("gives the same private pages a noindex robots meta, and the others a canonical link without query string", () => {
    expect(privatePageRobots("/admin")).toBe("noindex, nofollow");
    expect(privatePageRobots("/admin/orders/123")).toBe("noindex, nofollow");
    expect(privatePageRobots("/facture/123456789")).toBe("noindex, nofollow");
    expect(privatePageRobots("/mon-abonnement", "?id=1&cle=abc")).toBe("noindex, nofollow");
    expect(privatePageRobots("/recherche", "?q=collag%C3%A8ne")).toBe("noindex, follow");
    expect(privatePageRobots("/track-order", "?id=123456789")).toBe("noindex, nofollow");
    expect(privatePageRobots("/track-order")).toBeNull();
    expect(privatePageRobots("/product/1")).toBeNull();
    expect(privatePageRobots("/administrer")).toBeNull();
    expect(canonicalUrl("https://www.maison-eclat.fr", "/")).toBe("https://www.maison-eclat.fr/");
    expect(canonicalUrl("https://www.maison-eclat.fr", "/faq/")).toBe("https://www.maison-eclat.fr/faq");
  });

  it("gives each page's title and description to link previews", () => {
    expect(pageMeta("Livraison", "Livrée en 7 à 10 jours.")).toEqual([
      { title: "Livraison | Maison Éclat" },
      { name: "description", content: "Livrée en 7 à 10 jours." },
      { property: "og:title", content: "Livraison" },
      { property: "og:description", content: "Livrée en 7 à 10 jours." },
      { name: "twitter:title", content: "Livraison" },
      { name: "twitter:description", content: "Livrée en 7 à 10 jours." },
    ]);
  });
});

/** The sitemap's entries, read with a strict reading of the protocol's format (one urlset, each url a loc and a lastmod). */
function parseSitemap(xml: string) {
  expect(
    xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'),
  ).toBe(true);
  expect(xml.trimEnd().endsWith("</urlset>")).toBe(true);
  const body = xml.slice(xml.indexOf("<urlset"), xml.lastIndexOf("</urlset>"));
  const urls = [...body.matchAll(/<url>\s*<loc>([^<]*)<\/loc>\s*<lastmod>([^<]*)<\/lastmod>\s*<\/url>/g)];
  // Nothing else than these url elements.
  expect(
    body
      .replace(/<urlset[^>]*>/, "")
      .replace(/<url>\s*<loc>[^<]*<\/loc>\s*<lastmod>[^<]*<\/lastmod>\s*<\/url>/g, "")
      .trim(),
  ).toBe("");
  return urls.map(([, loc, lastmod]) => ({ loc, lastmod }));
}

describe("sitemap.xml", () => {
  it("lists the public pages and each product on sale, with absolute URLs and valid dates", async () => {
    const notSold = await newProduct({ saleWithoutPack: "not_sold" });
    const unit = await newProduct({ saleWithoutPack: "unit" });
    const response = await sitemapLoader();
    expect(response.headers.get("Content-Type")).toBe("application/xml; charset=utf-8");
    const entries = parseSitemap(await response.text());
    const base = publicUrl();
    expect(entries.map((e) => e.loc)).toEqual([
      `${base}/`,
      `${base}/product/1`,
      `${base}/product/${unit.id}`,
      `${base}/faq`,
      `${base}/contact`,
      `${base}/livraison`,
      `${base}/retours`,
      `${base}/cgv`,
      `${base}/mentions-legales`,
      `${base}/politique-confidentialite`,
    ]);
    expect(entries.map((e) => e.loc)).not.toContain(`${base}/product/${notSold.id}`);
    for (const { lastmod } of entries) {
      expect(lastmod).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
      expect(Date.parse(lastmod)).toBeLessThanOrEqual(Date.now());
    }
  });

  it("dates a product page by its product's or packs' last change, the terms by their version, the other pages by the build", async () => {
    const product = await newProduct({ packs: [{ name: "Duo", price: 2500 }] });
    await getDb().update(products).set({ updatedAt: "2026-01-10T08:00:00.000Z" }).where(eq(products.id, product.id));
    await getDb().update(packs).set({ updatedAt: "2026-02-03T10:20:30.456Z" }).where(eq(packs.productId, product.id));
    const built = "2026-03-01T12:00:00.000Z";
    const entries = new Map((await sitemapEntries(built)).map((e) => [e.path, e.lastmod]));
    expect(entries.get(`/product/${product.id}`)).toBe("2026-02-03T10:20:30Z");
    expect(entries.get("/faq")).toBe("2026-03-01T12:00:00Z");
    expect(entries.get("/cgv")).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(Date.parse(buildDate())).not.toBeNaN();
  });
});

describe("the product page's Product data", () => {
  it("describes product 1 with one offer per active pack, at its price, in stock, sold by the shop", async () => {
    const data = await productPageJsonLd(1);
    expect(await productProblems(data)).toEqual([]);
    const offers = data!.offers as Record<string, unknown>[];
    const page = await (await productLoader(routeArgs(getRequest("/product/1"), { id: "1" }))).json();
    const onSale = page.offer!.packs;
    expect(offers.map((o) => o.name)).toEqual(onSale.map((p: { name: string }) => p.name));
    expect(offers.map((o) => o.price)).toEqual(["0.99", "25.90", "32.90"]);
    expect(offers[1]).toMatchObject({
      priceCurrency: "EUR",
      availability: "https://schema.org/InStock",
      url: `${publicUrl()}/product/1`,
      seller: { "@type": "Organization", name: (await getSettings()).legalName || (await getSettings()).siteName },
      shippingDetails: { shippingRate: { value: "0.00", currency: "EUR" }, shippingDestination: { addressCountry: "FR" } },
      hasMerchantReturnPolicy: { merchantReturnDays: 14, applicableCountry: "FR" },
    });
    expect(data).toMatchObject({ sku: "ME-COLL-MASK-01", brand: { "@type": "Brand", name: "Maison Éclat" } });
  });

  it("offers a product without active packs at its own price, and says when it is out of stock", async () => {
    const product = await newProduct({ stock: 0, packs: [{ name: "Ancien duo", price: 2500, active: false }] });
    const data = await productPageJsonLd(product.id);
    expect(await productProblems(data)).toEqual([]);
    expect(data!.offers).toEqual([
      expect.objectContaining({ name: product.name, price: "19.90", availability: "https://schema.org/OutOfStock" }),
    ]);
  });

  it("publishes no Product data for a product that is not sold", async () => {
    const product = await newProduct({ saleWithoutPack: "not_sold" });
    expect(await productPageJsonLd(product.id)).toBeNull();
  });

  it("keeps any text of the product inside its script element", () => {
    const data = productJsonLd(
      { id: 9, name: "Sérum </script><script>alert(1)</script>", description: "", sku: "X", images: [], stock: 1 },
      { packs: [], unitPriceCents: 990, sold: true },
      { publicUrl: publicUrl(), settings: { siteName: "Maison Éclat", legalName: "" } },
    )!;
    const text = jsonLdText(data);
    expect(text).not.toMatch(/<\/?script/i);
    expect(JSON.parse(text).name).toBe("Sérum </script><script>alert(1)</script>");
  });
});

describe("the landing page's Organization data", () => {
  it("names the shop from the site settings, with its logo, email, international phone and postal address", async () => {
    const settings = await getSettings();
    const data = organizationJsonLd(settings, publicUrl());
    expect(data).toEqual({
      "@context": "https://schema.org",
      "@type": "Organization",
      name: settings.siteName,
      legalName: settings.legalName,
      url: `${publicUrl()}/`,
      logo: `${publicUrl()}/images/logo.png`,
      email: "contact@maison-eclat.fr",
      telephone: "+33184601234",
      address: {
        "@type": "PostalAddress",
        streetAddress: "12 rue des Lilas",
        postalCode: "75011",
        addressLocality: "Paris",
        addressCountry: "FR",
      },
    });
    expect(findKeysDeep(data, ["aggregateRating", "review"])).toEqual([]);
  });

  it("leaves out an address it cannot read as a French postal address", () => {
    expect(postalAddress("Boîte postale quelque part")).toBeNull();
    expect(postalAddress("75011 Paris")).toBeNull();
    expect(postalAddress("1 Main Street\nLondon SW1\nRoyaume-Uni")).toBeNull();
    expect(postalAddress("Bâtiment B\n3 allée des Roses\n69003 Lyon")).toEqual({
      "@type": "PostalAddress",
      streetAddress: "Bâtiment B, 3 allée des Roses",
      postalCode: "69003",
      addressLocality: "Lyon",
      addressCountry: "FR",
    });
  });
});
