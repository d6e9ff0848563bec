import { asResponses } from "../helpers/route-response";
import { parseWithZod } from "@conform-to/zod/v4";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { products } from "~/db/schema";
import { action as listActionRoute, loader as listLoaderRoute } from "~/routes/admin.products._index";
import { action as editActionRoute, loader as editLoaderRawRoute } from "~/routes/admin.products.edit.$id";
import { action as newActionRoute } from "~/routes/admin.products.new";
import { action as productApiAction, loader as productApi } from "~/routes/api.products.$id";
import { isAcceptableImageUrl, productSchema } from "~/schemas/product";
import { createProduct, deleteProduct, getProduct, SKU_TAKEN, updateProduct } from "~/services/catalog.server";
import { listPacks } from "~/services/packs.server";
import { formRequest, getRequest, jsonRequest, routeArgs } from "../helpers/requests";
import { adminCookie, insertOrder } from "./admin-helpers";

const listAction = asResponses(listActionRoute);
const listLoader = asResponses(listLoaderRoute);
const editAction = asResponses(editActionRoute);
const editLoaderRaw = asResponses(editLoaderRawRoute);
const newAction = asResponses(newActionRoute);

const editLoader = (args: ReturnType<typeof routeArgs>, params: Record<string, string>) => editLoaderRaw({ ...args, params });
const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.set(k, v);
  return data;
};
const valid = {
  name: "Sérum éclat",
  sku: "ME-SERUM-01",
  price: "25,90",
  originalPrice: "31.80",
  category: "Soin",
  description: "",
  stock: "12",
  images: "/images/product-mask.svg\nhttps://cdn.example.fr/serum.webp",
};

describe("product form schema", () => {
  it("reads prices typed with a comma or a dot into cents", () => {
    const result = parseWithZod(form(valid), { schema: productSchema });
    expect(result.status).toBe("success");
    if (result.status !== "success") return;
    expect(result.value).toMatchObject({
      price: 2590,
      originalPrice: 3180,
      stock: 12,
      images: ["/images/product-mask.svg", "https://cdn.example.fr/serum.webp"],
    });
    const dot = parseWithZod(form({ ...valid, price: "9.5", originalPrice: "" }), { schema: productSchema });
    expect(dot.status === "success" && dot.value).toMatchObject({ price: 950, originalPrice: null });
  });

  it("gives French messages for bad input", () => {
    const result = parseWithZod(form({ ...valid, price: "douze", stock: "-1", sku: "a b", images: "javascript:alert(1)" }), {
      schema: productSchema,
    });
    expect(result.status).toBe("error");
    const errors = result.reply().error!;
    expect(errors.price).toEqual(["Le prix doit être un montant en euros, par exemple 25,90."]);
    expect(errors.stock).toEqual(["Le stock doit être un nombre entier positif ou nul."]);
    expect(errors.sku?.[0]).toMatch(/^Le SKU ne doit contenir/);
    expect(errors.images?.[0]).toMatch(/^Adresse d'image invalide/);
  });

  it("refuses an original price below the price", () => {
    const result = parseWithZod(form({ ...valid, originalPrice: "10,00" }), { schema: productSchema });
    expect(result.reply().error?.originalPrice).toEqual(["Le prix barré doit être supérieur ou égal au prix."]);
  });

  it.each([
    ["/images/a.webp", true],
    ["https://cdn.example.fr/a.png", true],
    ["http://cdn.example.fr/a.png", false],
    ["//evil.example/a.png", false],
    ["/images/../../etc/passwd", false],
    ["data:image/png;base64,AAAA", false],
  ])("image %s acceptable: %s", (url, ok) => {
    expect(isAcceptableImageUrl(url)).toBe(ok);
  });
});

describe("product service", () => {
  const fields = {
    name: "Coffret",
    sku: "ME-BOX-01",
    priceCents: 3290,
    originalPriceCents: null,
    category: "",
    description: "",
    stock: 3,
    images: [],
  };

  it("keeps SKUs unique, ignoring case, on create and update", async () => {
    const a = await createProduct(fields);
    await expect(createProduct({ ...fields, sku: "me-box-01" })).rejects.toThrow(SKU_TAKEN);
    const b = await createProduct({ ...fields, sku: "ME-BOX-02" });
    await expect(updateProduct(b.id, { ...fields, sku: "ME-BOX-01" })).rejects.toThrow(SKU_TAKEN);
    // Keeping its own SKU is fine.
    expect((await updateProduct(a.id, { ...fields, name: "Coffret cadeau" }))?.name).toBe("Coffret cadeau");
  });

  it("deletes a product no order references, refuses otherwise", async () => {
    const free = await createProduct({ ...fields, sku: "ME-FREE-01" });
    expect(await deleteProduct(free.id)).toEqual({ deleted: true });
    expect(await getProduct(free.id)).toBeUndefined();
    const ordered = await createProduct({ ...fields, sku: "ME-ORDERED-01" });
    await insertOrder({}, { productId: ordered.id });
    expect(await deleteProduct(ordered.id)).toEqual({ deleted: false, reason: "ordered", orders: 1 });
    expect(await getProduct(ordered.id)).toBeDefined();
    expect(await deleteProduct(1)).toMatchObject({ deleted: false, reason: "featured" });
  });
});

describe("product pages", () => {
  it("creates a product and reports a duplicate SKU on the field", async () => {
    const cookie = await adminCookie();
    const created = await newAction(
      routeArgs(formRequest("/admin/products/new", { ...valid, sku: "ME-PAGE-01" }, { headers: { Cookie: cookie } })),
    );
    expect(created.status).toBe(302);
    const row = (await getDb().select().from(products).where(eq(products.sku, "ME-PAGE-01")).limit(1))[0]!;
    expect(row.priceCents).toBe(2590);
    const dup = await newAction(
      routeArgs(formRequest("/admin/products/new", { ...valid, sku: "me-page-01" }, { headers: { Cookie: cookie } })),
    );
    expect(dup.status).toBe(409);
    expect((await dup.json()).result.error?.sku).toEqual([SKU_TAKEN]);
  });

  it("an edited price shows in GET /api/products/{id}", async () => {
    const cookie = await adminCookie();
    const p = await createProduct({
      name: "Baume",
      sku: "ME-BAUME-01",
      priceCents: 1000,
      originalPriceCents: null,
      category: "",
      description: "",
      stock: 0,
      images: [],
    });
    const response = await editAction(
      routeArgs(
        formRequest(
          `/admin/products/edit/${p.id}`,
          { ...valid, sku: "ME-BAUME-01", price: "19,99", originalPrice: "" },
          { headers: { Cookie: cookie } },
        ),
        { id: String(p.id) },
      ),
    );
    expect(response.status).toBe(302);
    const api = await productApi(routeArgs(getRequest(`/api/products/${p.id}`), { id: String(p.id) }));
    expect(await api.json()).toMatchObject({ price: "19.99", originalPrice: null });
  });

  it("edits the packs with a plain form post: a new pack from the blank row, French errors, and back to the form when a crossed-out price is not lawful", async () => {
    const cookie = await adminCookie();
    const p = await createProduct({
      name: "Sérum",
      sku: "ME-SERUM-PACKS",
      priceCents: 2990,
      originalPriceCents: null,
      category: "",
      description: "",
      stock: 5,
      images: [],
    });
    const post = (fields: Record<string, string>) =>
      editAction(
        routeArgs(
          formRequest(
            `/admin/products/edit/${p.id}`,
            { ...valid, sku: "ME-SERUM-PACKS", ...fields },
            { headers: { Cookie: cookie } },
          ),
          { id: String(p.id) },
        ),
      );

    // A wrong pack: 400, the French messages on its fields, nothing saved.
    const refused = await post({
      "packs[0].name": "Duo",
      "packs[0].masks": "0",
      "packs[0].price": "douze",
      "packs[0].active": "true",
    });
    expect(refused.status).toBe(400);
    expect((await refused.json()).result.error).toMatchObject({
      "packs[0].masks": ["Le nombre de masques doit être un nombre entier entre 1 et 100."],
      "packs[0].price": ["Le prix du pack doit être un montant en euros, par exemple 25,90."],
    });

    // The new pack row filled in, with a reference price never charged: saved, and back to the form with the warning.
    const saved = await post({
      "packs[0].name": "Duo",
      "packs[0].masks": "2",
      "packs[0].price": "19,90",
      "packs[0].referencePrice": "24,90",
      "packs[0].active": "true",
    });
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toBe(`/admin/products/edit/${p.id}`);
    const page = await (
      await editLoader(routeArgs(getRequest(`/admin/products/edit/${p.id}`, { Cookie: cookie })), { id: String(p.id) })
    ).json();
    const packId = page.product.packs[0].id;
    expect(page.product.packs).toEqual([
      expect.objectContaining({ name: "Duo", masks: "2", price: "19,90", referencePrice: "24,90", active: "true" }),
      expect.objectContaining({ id: "", name: "", price: "" }),
    ]);
    expect(page.priceInfo[0]).toMatchObject({ lowestCents: null, warning: expect.stringContaining("Prix barré non conforme") });

    // Deactivated, without reference price: saved, back to the list.
    const off = await post({
      "packs[0].id": packId,
      "packs[0].name": "Duo",
      "packs[0].masks": "2",
      "packs[0].price": "19,90",
      "packs[0].active": "false",
    });
    expect(off.headers.get("Location")).toBe("/admin/products");
    const api = await productApi(routeArgs(getRequest(`/api/products/${p.id}`), { id: String(p.id) }));
    expect(await api.json()).toMatchObject({ packs: [], saleWithoutPack: "unit" });
  });

  describe("one trial pack on sale per product, counting the packs already stored", () => {
    const TRIAL_TAKEN =
      "Un seul pack d'essai en vente par produit : « Essai » l'est déjà. Désactivez-le, ou retirez-lui la case « pack d'essai », avant d'en proposer un autre.";
    const withTrial = async (sku: string) => {
      const p = await createProduct(
        { name: "Masque", sku, priceCents: 2990, originalPriceCents: null, category: "", description: "", stock: 5, images: [] },
        [
          {
            name: "Essai",
            description: "",
            masks: 1,
            price: 99,
            referencePrice: null,
            popular: false,
            trial: true,
            position: 0,
            active: true,
          },
        ],
      );
      const [trial] = await listPacks(p!.id, { includeInactive: true });
      return { id: p!.id, trialId: trial.id };
    };
    const body = { name: "Masque", sku: "", price: "29,90", stock: 5 };

    it("PUT /api/products/{id} refuses a second active trial pack with a 409, and saves nothing", async () => {
      const cookie = await adminCookie();
      const { id, trialId } = await withTrial("ME-TRIAL-API");
      const put = (packs: unknown[]) =>
        productApiAction(
          routeArgs(jsonRequest(`/api/products/${id}`, "PUT", { ...body, sku: "ME-TRIAL-API", packs }, { Cookie: cookie }), {
            id: String(id),
          }),
        );
      const refused = await put([{ name: "Essai bis", masks: 1, price: "1,49", trial: true }]);
      expect(refused.status).toBe(409);
      expect(await refused.json()).toEqual({
        error: TRIAL_TAKEN,
        code: "trial_pack_taken",
        issues: [{ path: "packs[0].trial", message: TRIAL_TAKEN }],
      });
      expect((await listPacks(id, { includeInactive: true })).map((p) => p.name)).toEqual(["Essai"]);
      // An existing pack turned into a trial pack: the same refusal.
      await put([{ name: "Duo", masks: 2, price: "9,90" }]);
      const [, duo] = await listPacks(id);
      expect((await put([{ id: duo.id, name: "Duo", masks: 2, price: "9,90", trial: true }])).status).toBe(409);
      // The first one deactivated in the same update: accepted.
      const swapped = await put([
        { id: trialId, name: "Essai", masks: 1, price: "0,99", trial: true, active: false },
        { name: "Essai bis", masks: 1, price: "1,49", trial: true },
      ]);
      expect(swapped.status).toBe(200);
      expect((await listPacks(id)).filter((p) => p.trial).map((p) => p.name)).toEqual(["Essai bis"]);
    });

    it("the product form gives the same refusal on the pack's trial box, and saves nothing", async () => {
      const cookie = await adminCookie();
      const { id } = await withTrial("ME-TRIAL-FORM");
      const refused = await editAction(
        routeArgs(
          formRequest(
            `/admin/products/edit/${id}`,
            {
              ...valid,
              sku: "ME-TRIAL-FORM",
              "packs[0].name": "Essai bis",
              "packs[0].masks": "1",
              "packs[0].price": "1,49",
              "packs[0].trial": "on",
              "packs[0].active": "true",
            },
            { headers: { Cookie: cookie } },
          ),
          { id: String(id) },
        ),
      );
      expect(refused.status).toBe(409);
      expect((await refused.json()).result.error).toMatchObject({ "packs[0].trial": [TRIAL_TAKEN] });
      expect((await listPacks(id, { includeInactive: true })).map((p) => p.name)).toEqual(["Essai"]);
    });
  });

  it("asks for confirmation through ?delete=, then deletes on POST", async () => {
    const cookie = await adminCookie();
    const p = await createProduct({
      name: "Éphémère",
      sku: "ME-EPH-01",
      priceCents: 1000,
      originalPriceCents: null,
      category: "",
      description: "",
      stock: 0,
      images: [],
    });
    const page = await listLoader(routeArgs(getRequest(`/admin/products?delete=${p.id}`, { Cookie: cookie })));
    expect((await page.json()).toDelete).toMatchObject({ id: p.id, name: "Éphémère" });
    const response = await listAction(
      routeArgs(formRequest("/admin/products?index", { intent: "delete", id: String(p.id) }, { headers: { Cookie: cookie } })),
    );
    expect(response.headers.get("Location")).toBe("/admin/products");
    expect(await getProduct(p.id)).toBeUndefined();
  });
});
