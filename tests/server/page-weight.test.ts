import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnShop, type ShopProcess } from "./shop-process";

/**
 * What the landing page costs the browser, measured on the production build as it is served:
 * the JavaScript its HTML makes the browser load, when it starts, and the stylesheet inlined in
 * its head with the Content-Security-Policy that allows it.
 */

/** The most gzip JavaScript the landing page's HTML may load (its scripts and modulepreloads). */
const LANDING_JS_BUDGET = 90_000;

let demo: ShopProcess;
beforeAll(async () => {
  demo = await spawnShop({ SHOP_MODE: "demo" });
  await demo.ready();
});
afterAll(async () => {
  await demo.dispose();
});

/** The scripts and modulepreloads of a page's HTML, each with its size gzip-compressed. */
async function shippedScripts(html: string) {
  const paths = new Set([...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]));
  const scripts: { path: string; gzipBytes: number; text: string }[] = [];
  for (const path of paths) {
    const response = await fetch(`${demo.url}${path}`, { headers: { "Accept-Encoding": "identity" } });
    expect(response.status, path).toBe(200);
    const body = Buffer.from(await response.arrayBuffer());
    scripts.push({ path, gzipBytes: gzipSync(body).length, text: body.toString("utf8") });
  }
  return scripts;
}

function sources(policy: string, name: string) {
  const directive = policy
    .split(";")
    .map((d) => d.trim())
    .find((d) => d.startsWith(`${name} `));
  return directive?.split(/\s+/).slice(1) ?? [];
}

function styleSources(policy: string) {
  return sources(policy, "style-src");
}

/** The sha256 source of an inline script's text, as a Content-Security-Policy names it. */
function hashSource(text: string) {
  return `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
}

/** The inline scripts of a piece of HTML: attributes and text. */
function inlineScripts(html: string) {
  return [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].map(([, attributes, text]) => ({ attributes, text }));
}

describe("the landing page's weight", () => {
  it(`loads at most ${LANDING_JS_BUDGET} bytes of gzip JavaScript`, async () => {
    const html = await (await fetch(`${demo.url}/`)).text();
    const scripts = await shippedScripts(html);
    expect(scripts.length).toBeGreaterThan(0);
    const total = scripts.reduce((sum, s) => sum + s.gzipBytes, 0);
    const detail = scripts.map((s) => `${s.path}: ${s.gzipBytes}`).join("\n");
    expect(total, `${total} bytes:\n${detail}`).toBeLessThanOrEqual(LANDING_JS_BUDGET);
    // Nothing of Stripe, zod, remix-toast or the cart drawer: they load where and when they are used.
    const code = scripts.map((s) => s.text).join("\n");
    for (const marker of ["js.stripe.com", "ZodError", "toast-session", "cart-drawer-title"]) expect(code).not.toContain(marker);
  });

  it("inlines the whole stylesheet, allowed by its hash only, live and from the page cache", async () => {
    const outcomes: string[] = [];
    for (let view = 0; view < 3; view++) {
      const response = await fetch(`${demo.url}/`);
      const html = await response.text();
      outcomes.push(response.headers.get("X-Cache") ?? "");
      // One <style>, in the head, and no stylesheet to fetch before the first paint.
      const styles = [...html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/g)];
      expect(styles).toHaveLength(1);
      expect(html.indexOf("<style")).toBeLessThan(html.indexOf("</head>"));
      expect(html).not.toMatch(/<link[^>]+rel="stylesheet"/);
      expect(html).not.toMatch(/\sstyle="/);
      const css = styles[0][1];
      expect(css.length).toBeGreaterThan(1000);
      const hash = `'sha256-${createHash("sha256").update(css, "utf8").digest("base64")}'`;
      const policy = response.headers.get("Content-Security-Policy") ?? "";
      expect(styleSources(policy)).toEqual(["'self'", hash]);
      expect(policy).not.toContain("unsafe-inline");
    }
    // The first view is rendered for the cache, the next ones come from it.
    expect(outcomes).toContain("HIT");
  });
});

describe("the page's scripts", () => {
  for (const path of ["/", "/product/1"]) {
    it(`start with the page on ${path}, allowed by the policy, live and from the page cache`, async () => {
      const outcomes: string[] = [];
      for (const cookie of ["", "__admin=x"]) {
        for (let view = 0; view < 2; view++) {
          const response = await fetch(`${demo.url}${path}`, { headers: cookie ? { Cookie: cookie } : {} });
          const html = await response.text();
          outcomes.push(response.headers.get("X-Cache") ?? "");
          // Remix's own scripts: modulepreloads, its context and the module that hydrates, after
          // the page's content. A module script never blocks the parser nor the first paint, and
          // starts as soon as the HTML is read: nothing waits for the load event or its images.
          const body = html.slice(html.lastIndexOf("</footer>"));
          expect(body).toMatch(/<link rel="modulepreload" href="\/assets\/[^"]+\.js"\/>/);
          expect(body).toContain("window.__remixContext = ");
          expect(body).toMatch(/<script[^>]+type="module"[^>]*>[\s\S]*import\("\/assets\/entry\.client-[^"]+\.js"\)/);
          // No script loaded from a file outside a module, no render blocking, nothing held back.
          expect(html).not.toMatch(/<script(?![^>]*type="module")[^>]*\bsrc=/);
          expect(html).not.toMatch(/\sblocking="/);
          expect(html).not.toContain('<template id="shop-scripts"');
          expect(html).not.toContain('addEventListener("load"');
          // Every inline script is allowed: by the nonce live, by its hash from the page cache.
          const policy = response.headers.get("Content-Security-Policy") ?? "";
          const allowed = sources(policy, "script-src");
          expect(policy).not.toContain("unsafe-inline");
          const scripts = inlineScripts(html).filter((s) => !/type="application\/ld\+json"/.test(s.attributes));
          expect(scripts.length).toBeGreaterThan(0);
          for (const script of scripts) {
            const nonce = script.attributes.match(/nonce="([^"]+)"/)?.[1];
            expect(allowed).toContain(nonce ? `'nonce-${nonce}'` : hashSource(script.text));
          }
        }
      }
      expect(outcomes).toContain("HIT");
      expect(outcomes).toContain("BYPASS");
    });
  }
});
