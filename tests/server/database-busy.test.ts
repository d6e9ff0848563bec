import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { BUSY_MESSAGE } from "~/lib/busy";
import { logLines, spawnShop, type ShopProcess } from "./shop-process";

/**
 * The shop's database file locked by another process for longer than a write waits (5 s): the
 * real server answers 503 with Retry-After and the French sentence wherever the write came from:
 * a page's form without JavaScript (the error page), the same form with JavaScript (single
 * fetch's `.data`, which the error boundary shows), the JSON API. Never a 500, nothing written;
 * once the lock is released, the same requests go through.
 */

const started: ShopProcess[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((p) => p.dispose()));
});

const FORM = { "Content-Type": "application/x-www-form-urlencoded" };
const unescape = (html: string) => html.replaceAll("&#x27;", "'").replaceAll("&quot;", '"');

describe("a database locked longer than a write waits, through the real server", () => {
  it("answers 503 in French with Retry-After on a page, its .data and the API, then succeeds once the lock is free", async () => {
    const shop = await spawnShop({ SHOP_MODE: "demo" });
    started.push(shop);
    await shop.ready();
    // A form posted to the page itself (a document request, as without JavaScript).
    const headers = { ...FORM, Origin: shop.url, Accept: "text/html" };

    // A cart with a pack in it (the page's form, without JavaScript).
    const added = await fetch(`${shop.url}/panier`, {
      method: "POST",
      headers,
      body: "intent=add&productId=1&packId=2&redirectTo=%2Fpanier",
      redirect: "manual",
    });
    expect(added.status).toBe(200);
    const cookie = added.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    expect(cookie).toMatch(/cart=/);
    const clear = { method: "POST", headers: { ...headers, Cookie: cookie }, body: "intent=clear", redirect: "manual" } as const;
    const contact = {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: shop.url },
      body: JSON.stringify({
        name: "Camille Martin",
        email: "camille@example.fr",
        subject: "Ma commande",
        message: "Bonjour, quand ma commande sera-t-elle expédiée ?",
      }),
    } as const;

    const lock = new Database(path.join(shop.dataDir, "shop.db"));
    try {
      lock.exec("BEGIN IMMEDIATE");

      // The page's document: the shop's error page, with the sentence, not the generic one.
      const page = await fetch(`${shop.url}/panier`, clear);
      expect(page.status).toBe(503);
      expect(page.headers.get("Retry-After")).toBe("5");
      expect(page.headers.get("Content-Type")).toMatch(/^text\/html/);
      const html = unescape(await page.text());
      expect(html).toContain(BUSY_MESSAGE);
      expect(html).not.toContain("Une erreur est survenue");

      // With JavaScript: the action's answer carries the same refusal to the page's error boundary.
      const data = await fetch(`${shop.url}/panier.data`, {
        ...clear,
        headers: { ...FORM, Origin: shop.url, Cookie: cookie },
      });
      expect(data.status).toBe(503);
      expect(data.headers.get("Retry-After")).toBe("5");
      // Single fetch's stream: an error answer (status, then the body the error boundary reads).
      const stream = await data.text();
      expect(stream).toContain('"ErrorResponse"');
      expect(stream).toContain(JSON.stringify(BUSY_MESSAGE));

      // The JSON API: its error format, code « busy ».
      const api = await fetch(`${shop.url}/api/contact`, contact);
      expect(api.status).toBe(503);
      expect(api.headers.get("Retry-After")).toBe("5");
      expect(await api.json()).toEqual({ error: BUSY_MESSAGE, issues: [], code: "busy" });
    } finally {
      if (lock.inTransaction) lock.exec("ROLLBACK");
    }

    // Nothing was written meanwhile: the cart still holds its pack, no contact request was stored.
    expect(lock.prepare("select count(*) as n from cart_lines").get()).toEqual({ n: 1 });
    expect(lock.prepare("select count(*) as n from contact_requests").get()).toEqual({ n: 0 });

    const cleared = await fetch(`${shop.url}/panier.data`, clear);
    expect(cleared.status).toBe(200);
    expect(lock.prepare("select count(*) as n from cart_lines").get()).toEqual({ n: 0 });
    lock.close();
    expect((await fetch(`${shop.url}/api/contact`, contact)).status).toBe(201);
    // Refused requests are logged as warnings, not errors.
    const logged = logLines(shop.stdout() + shop.stderr());
    expect(logged.filter((line) => line.msg === "Base de données saturée : requête refusée (503)").length).toBe(3);
    expect(logged.filter((line) => Number(line.level) >= 50)).toEqual([]);
  });
});
