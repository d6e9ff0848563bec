import { afterEach, describe, expect, it } from "vitest";
import { decodeSingleFetch } from "../helpers/single-fetch";
import { spawnShop, type ShopProcess } from "./shop-process";

/**
 * A form posted to the shop from another site: refused with a 403 and a French message before
 * any page action runs, never a 500, nothing in the error log. The shop's own posts still work.
 */

const started: ShopProcess[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((p) => p.dispose()));
});

const FORM = { "Content-Type": "application/x-www-form-urlencoded" };
const MESSAGE = "Origine de la requête non autorisée";

describe("a form posted from another site", () => {
  it("gets a 403 in French on pages and their .data, JSON on the API, and logs nothing", async () => {
    const demo = await spawnShop({ SHOP_MODE: "demo" });
    started.push(demo);
    await demo.ready();
    const add = "intent=add&productId=1&packId=2&redirectTo=%2Fpanier";
    const contact =
      "name=Camille&email=camille%40example.fr&subject=Bonjour&message=Un%20message%20assez%20long%20pour%20passer.";

    for (const [path, body] of [
      ["/contact", contact],
      ["/panier", add],
    ]) {
      const page = await fetch(`${demo.url}${path}`, {
        method: "POST",
        headers: { ...FORM, Origin: "https://evil.example" },
        body,
        redirect: "manual",
      });
      expect(page.status, path).toBe(403);
      expect(page.headers.get("Content-Type")).toMatch(/^text\/html/);
      expect(page.headers.get("Set-Cookie")).toBeNull();
      const html = await page.text();
      expect(html).toContain('<html lang="fr">');
      expect(html).toContain(MESSAGE);

      const data = await fetch(`${demo.url}${path}.data`, {
        method: "POST",
        headers: { ...FORM, Origin: "https://evil.example" },
        body,
      });
      expect(data.status, `${path}.data`).toBe(403);
      expect(data.headers.get("Content-Type")).toMatch(/^text\/plain/);
      expect(await data.text()).toContain(MESSAGE);
    }
    // An opaque origin ("null": a sandboxed frame) and one that is no URL are no better.
    for (const origin of ["null", "not a url"]) {
      const refused = await fetch(`${demo.url}/panier.data`, { method: "POST", headers: { ...FORM, Origin: origin }, body: add });
      expect(refused.status, origin).toBe(403);
    }
    // The API answers its own JSON error.
    const api = await fetch(`${demo.url}/api/cart`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: "https://evil.example" },
      body: JSON.stringify({ productId: 1, packId: 2 }),
    });
    expect(api.status).toBe(403);
    expect(await api.json()).toEqual({ error: MESSAGE, issues: [] });

    // The shop's own posts, with its origin, still work.
    const page = await fetch(`${demo.url}/panier`, {
      method: "POST",
      headers: { ...FORM, Origin: demo.url },
      body: add,
      redirect: "manual",
    });
    // (fetch says Sec-Fetch-Mode: cors, so the action answers as to a script: 200.)
    expect(page.status).toBe(200);
    expect(page.headers.get("Set-Cookie")).toMatch(/^cart=/);
    const data = await fetch(`${demo.url}/panier.data`, { method: "POST", headers: { ...FORM, Origin: demo.url }, body: add });
    expect(data.status).toBe(200);
    expect(await decodeSingleFetch(data.body)).toMatchObject({ data: { ok: true, count: 1 } });

    expect(demo.stderr()).toBe("");
  });
});
