import { asResponses } from "../helpers/route-response";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Gallery } from "~/components/shop/product/Gallery";
import { parseImageIndex } from "~/components/shop/product/image-index";
import { getDb } from "~/db/client.server";
import { products } from "~/db/schema";
import { FALLBACK_PRODUCT_IMAGE } from "~/content/brand";
import { parseIdOrNull } from "~/lib/ids";
import { loader as pageLoaderRoute } from "~/routes/product.$id";
import { getRequest, routeArgs } from "../helpers/requests";

const loader = asResponses(pageLoaderRoute);

async function load(id: string, search = "") {
  const response = await loader(routeArgs(getRequest(`/product/${encodeURIComponent(id)}${search}`), { id }));
  return { status: response.status, data: await response.json() };
}

describe("product id in the URL", () => {
  it("accepts a plain positive integer", () => {
    expect(parseIdOrNull("1")).toBe(1);
    expect(parseIdOrNull("999999")).toBe(999999);
    expect(parseIdOrNull("123456789")).toBe(123456789);
    // The largest id the database keeps (a 32-bit integer).
    expect(parseIdOrNull("2147483647")).toBe(2147483647);
  });

  it.each([
    "",
    "0",
    "-1",
    "1.5",
    "abc",
    "1abc",
    "01",
    "1e3",
    " 1",
    "0x10",
    "2147483648",
    "9999999999",
    "1000000000000000",
    "99999999999999999999",
  ])("rejects %j", (raw) => {
    expect(parseIdOrNull(raw)).toBeNull();
  });

  it("reads the gallery image index only when it points to an image", () => {
    expect(parseImageIndex(null, 3)).toBe(0);
    expect(parseImageIndex("2", 3)).toBe(2);
    expect(parseImageIndex("3", 3)).toBe(0);
    expect(parseImageIndex("-1", 3)).toBe(0);
    expect(parseImageIndex("1", 0)).toBe(0);
  });
});

describe("product page loader", () => {
  it("returns the product and its images", async () => {
    const { status, data } = await load("1");
    expect(status).toBe(200);
    expect(data.product).toMatchObject({ id: 1, name: "Masque Hydrogel au Collagène", stock: 500 });
    expect(data.product?.images).toEqual(["/images/product-mask.svg", "/images/product-box.svg", "/images/product-texture.svg"]);
    expect(data.imageIndex).toBe(0);
  });

  it("keeps the image chosen without JavaScript (?image=N)", async () => {
    expect((await load("1", "?image=2")).data.imageIndex).toBe(2);
    expect((await load("1", "?image=9")).data.imageIndex).toBe(0);
  });

  it.each(["999999", "abc", "-1", "1.5", "01", "1234567890", "99999999999999", "99999999999999999999"])(
    "answers 404 for /product/%s",
    async (id) => {
      const { status, data } = await load(id);
      expect(status).toBe(404);
      expect(data.product).toBeNull();
    },
  );

  it("serves a product without images with an empty list (the page shows the fallback image)", async () => {
    const [row] = await getDb()
      .insert(products)
      .values({ name: "Coffret sans photo", sku: "TEST-NO-IMAGE", priceCents: 1000, images: [], stock: 0 })
      .returning({ id: products.id });
    const { status, data } = await load(String(row.id));
    expect(status).toBe(200);
    expect(data.product).toMatchObject({ name: "Coffret sans photo", images: [], stock: 0 });
  });
});

describe("product gallery", () => {
  it("shows the fallback image and no thumbnails when the product has no images", () => {
    const html = renderToStaticMarkup(createElement(Gallery, { name: "Coffret", images: [] }));
    expect(html).toContain(`src="${FALLBACK_PRODUCT_IMAGE}"`);
    expect(html).toContain('width="600"');
    expect(html).not.toContain("<button");
  });

  it("starts on the first image with one labelled thumbnail button per image", () => {
    const images = ["/images/product-mask.svg", "/images/product-box.svg", "/images/product-texture.svg"];
    const html = renderToStaticMarkup(createElement(Gallery, { name: "Masque", images }));
    expect(html).toMatch(/<img src="\/images\/product-mask.svg" alt="Masque : [^"]+" width="600" height="600"/);
    expect(html.match(/<button/g)).toHaveLength(3);
    expect(html).toContain('aria-label="Afficher l&#x27;image 2 sur 3" aria-pressed="false"');
    expect(html).toContain('aria-label="Afficher l&#x27;image 1 sur 3" aria-pressed="true"');
  });
});
