import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnShop, type ShopProcess } from "./shop-process";

/**
 * The page cache in the production server (server/index.js against the real build): nothing
 * personal enters it, and an edit in the back office reaches the next anonymous view.
 */

let shop: ShopProcess;
beforeAll(async () => {
  shop = await spawnShop({ SHOP_MODE: "demo", ADMIN_PASSWORD: "motdepasse-cache-1" });
  await shop.ready();
});
afterAll(async () => {
  await shop?.dispose();
});

const page = (path: string, headers: Record<string, string> = {}) => fetch(`${shop.url}${path}`, { headers });

/** `name=value` of the Set-Cookie named `name` of a response. */
function cookieOf(response: Response, name: string) {
  const line = response.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
  return line?.split(";")[0];
}

async function sendJson(method: string, path: string, body: unknown, cookie?: string) {
  return fetch(`${shop.url}${path}`, {
    method,
    headers: { "Content-Type": "application/json", Origin: shop.url, ...(cookie ? { Cookie: cookie } : {}) },
    body: JSON.stringify(body),
  });
}

describe("the page cache of the production server", () => {
  it("answers an anonymous view of the public pages without any cookie, from the cache the second time", async () => {
    for (const path of ["/", "/product/1", "/faq", "/contact", "/cgv"]) {
      const first = await page(path);
      expect(first.status, path).toBe(200);
      expect(first.headers.getSetCookie(), path).toEqual([]);
      const second = await page(path, { "Accept-Encoding": "br" });
      expect(second.headers.get("X-Cache"), path).toBe("HIT");
      expect(second.headers.get("Content-Encoding"), path).toBe("br");
      expect(second.headers.getSetCookie(), path).toEqual([]);
    }
    const head = await fetch(`${shop.url}/`, { method: "HEAD" });
    expect(head.headers.get("X-Cache")).toBe("HIT");
  });

  it("renders live the pages of a visitor with a cart, and keeps their cart out of the shared page", async () => {
    const added = await sendJson("POST", "/api/cart", { productId: 1, packId: 2 });
    expect(added.status).toBe(201);
    const cart = cookieOf(added, "cart")!;
    expect(cart).toBeTruthy();

    const mine = await page("/", { Cookie: cart });
    expect(mine.headers.get("X-Cache")).toBe("BYPASS");
    expect(mine.headers.get("Cache-Control")).toBe("private, no-cache");
    expect(await mine.text()).toContain('data-testid="cart-count"');

    // A toast left by an action: shown once to its visitor, live.
    const toast = await page("/", {
      Cookie: "toast-session=eyJmbGFzaCI6eyJ0b2FzdCI6eyJtZXNzYWdlIjoiUHJvZHVpdCBham91dMOpIn19fQ%3D%3D.",
    });
    expect(toast.headers.get("X-Cache")).toBe("BYPASS");

    const shared = await page("/");
    expect(["HIT", "MISS"]).toContain(shared.headers.get("X-Cache"));
    const html = await shared.text();
    expect(html).not.toContain('data-testid="cart-count"');
    expect(html).not.toContain("Produit ajouté");
    expect(html).not.toContain("/admin/");
    // The page's data (single fetch's stream, inside a script): an empty cart.
    expect(html).toContain('\\"cartCount\\",0');
  });

  it("shows a pack's new price to the next anonymous visitor once the back office changed it", async () => {
    await page("/product/1");
    expect((await page("/product/1")).headers.get("X-Cache")).toBe("HIT");

    const login = await sendJson("POST", "/api/admin/login", { username: "admin", password: "motdepasse-cache-1" });
    expect(login.status).toBe(200);
    const admin = cookieOf(login, "__admin")!;
    const product = (await (await page("/api/products/1")).json()) as {
      name: string;
      sku: string;
      price: string;
      originalPrice: string | null;
      category: string;
      stock: number;
      images: string[];
      saleWithoutPack: string;
      packs: {
        id: number;
        name: string;
        description: string;
        masks: number;
        price: string;
        originalPrice: string | null;
        popular: boolean;
        trial: boolean;
      }[];
    };
    const pack = product.packs.find((p) => p.id === 3)!;
    const edited = await sendJson(
      "PUT",
      "/api/products/1",
      {
        ...product,
        images: product.images.join("\n"),
        originalPrice: product.originalPrice ?? "",
        packs: [{ ...pack, price: "29.40", referencePrice: pack.originalPrice ?? "", originalPrice: undefined }],
      },
      admin,
    );
    expect(edited.status, await edited.clone().text()).toBe(200);

    const after = await page("/product/1");
    expect(after.headers.get("X-Cache")).toBe("MISS");
    expect(await after.text()).toContain("29,40");

    // The API's public catalog is cached too, and gives the new price at once.
    const api = await page("/api/products/1");
    expect(api.headers.get("X-Cache")).toBe("MISS");
    expect(((await api.json()) as typeof product).packs.find((p) => p.id === 3)?.price).toBe("29.40");
    expect((await page("/api/products/1")).headers.get("X-Cache")).toBe("HIT");
  });

  it("answers the API's public catalog from the cache, and never caches an admin's answer", async () => {
    await page("/api/products");
    const cached = await page("/api/products", { "Accept-Encoding": "gzip" });
    expect(cached.headers.get("X-Cache")).toBe("HIT");
    expect(cached.headers.get("Content-Encoding")).toBe("gzip");
    expect(cached.headers.get("Cache-Control")).toBe("public, max-age=30");
    expect(cached.headers.getSetCookie()).toEqual([]);
    expect(Array.isArray(await cached.json())).toBe(true);
    expect((await page("/api/products/999")).status).toBe(404);
    expect((await page("/api/products/999")).headers.get("X-Cache")).toBe("BYPASS");

    const login = await sendJson("POST", "/api/admin/login", { username: "admin", password: "motdepasse-cache-1" });
    const admin = cookieOf(login, "__admin")!;
    expect((await page("/api/products", { Cookie: admin })).headers.get("X-Cache")).toBe("BYPASS");
  });
});
