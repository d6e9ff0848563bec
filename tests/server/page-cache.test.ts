import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stripeEmulator } from "./shop-api";
import { API_ORDER, spawnShop, type ShopProcess } from "./shop-process";

/**
 * The page cache in the production server (server/index.js against the real build): a buyer
 * gets the same shared page as anyone, nothing personal enters it, and an edit in the back
 * office reaches the next anonymous view.
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

  it("gives a buyer with a cart and a paid order the same shared page as anyone, and nothing of them to another visitor", async () => {
    const buyer = { email: "ombeline.castaing@exemple-client.fr", name: "Ombeline Castaing", street: "41 allée des Tilleuls" };
    // The buyer's browser: a pack in the cart (the cart cookie), then an order paid with the card,
    // as the payment step does (start, Stripe.js against the emulator, the server's confirmation).
    const added = await sendJson("POST", "/api/cart", { productId: 1, packId: 2 });
    expect(added.status).toBe(201);
    const cart = cookieOf(added, "cart")!;
    expect(cart).toBeTruthy();
    const [firstName, lastName] = buyer.name.split(" ");
    const order = await sendJson(
      "POST",
      "/api/orders",
      { ...API_ORDER, customerEmail: buyer.email, customerName: `${firstName} ${lastName}`, shippingAddress: buyer.street },
      cart,
    );
    expect(order.status, await order.clone().text()).toBe(201);
    const { id: orderId, token } = (await order.json()) as { id: number; token: string };
    const start = await sendJson("POST", "/api/payments/start", { orderId, mode: "one_off", token }, cart);
    expect(start.status, await start.clone().text()).toBe(200);
    const stripe = stripeEmulator(`http://127.0.0.1:${shop.emulatorPort}`, shop.dataDir);
    await stripe.payWithCard(((await start.json()) as { paymentIntentId: string }).paymentIntentId);
    const paid = await sendJson("POST", "/api/payments/confirm", { orderId, token }, cart);
    expect(await paid.json()).toMatchObject({ paid: true });
    // A second pack in the cart after the purchase: the count the buyer's header shows.
    const again = await sendJson("POST", "/api/cart", { productId: 1, packId: 3 }, cart);
    expect(again.status).toBe(201);
    const line = ((await again.json()) as { items: { id: number }[] }).items[0];

    // A live answer (the cart page) gives the buyer's browser its count, readable by the page.
    const cartPage = await page("/panier", { Cookie: cart });
    expect(cartPage.headers.get("X-Cache")).toBeNull();
    const countCookie = cookieOf(cartPage, "cart_count");
    expect(countCookie).toBe("cart_count=1");
    const countLine = cartPage.headers.getSetCookie().find((c) => c.startsWith("cart_count="))!;
    expect(countLine).not.toMatch(/HttpOnly/i);
    const personal = `${cart}; ${countCookie}`;

    for (const path of ["/", "/product/1", "/faq", "/contact"]) {
      // The buyer gets the shared page from the cache, exactly the bytes of a visitor without cookies.
      await page(path);
      const mine = await page(path, { Cookie: personal });
      expect(mine.headers.get("X-Cache"), path).toBe("HIT");
      expect(mine.headers.getSetCookie(), path).toEqual([]);
      const theirs = await page(path);
      expect(theirs.headers.get("X-Cache"), path).toBe("HIT");
      const html = await theirs.text();
      expect(await mine.text(), path).toBe(html);
      // Nothing of the buyer: no email, name, street, token, order number or cart count.
      for (const trace of [buyer.email, firstName, lastName, buyer.street, token, `n°${orderId}`, `"orderId"`]) {
        expect(html, `${path}: ${trace}`).not.toContain(trace);
      }
      expect(html, path).not.toContain('data-testid="cart-count"');
    }

    // A toast left by an action: shown once to its visitor, live.
    const toast = await page("/", {
      Cookie: "toast-session=eyJmbGFzaCI6eyJ0b2FzdCI6eyJtZXNzYWdlIjoiUHJvZHVpdCBham91dMOpIn19fQ%3D%3D.",
    });
    expect(toast.headers.get("X-Cache")).toBe("BYPASS");
    expect(await toast.text()).toContain("Produit ajouté");
    expect(await (await page("/")).text()).not.toContain("Produit ajouté");

    // The cart emptied: the next live answer removes the count from the browser.
    const removed = await fetch(`${shop.url}/api/cart/${line.id}`, {
      method: "DELETE",
      headers: { Cookie: cart, Origin: shop.url },
    });
    expect(removed.status, await removed.clone().text()).toBeLessThan(300);
    const emptied = await page("/panier", { Cookie: personal });
    expect(emptied.headers.getSetCookie().find((c) => c.startsWith("cart_count="))).toMatch(/^cart_count=; Max-Age=0/);
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
