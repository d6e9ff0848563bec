import http, { type Server } from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import {
  createPageCache,
  hashInlineScripts,
  hasPersonalCookie,
  isPublicApi,
  isPublicPage,
  preferredEncoding,
} from "../../server/page-cache.js";

/**
 * The page cache as a middleware in front of a fake Remix handler: what enters the cache,
 * what is served from it, and when it is rendered again.
 */

/** The shop's public address (PUBLIC_URL): the test server itself listens elsewhere. */
const PUBLIC_ORIGIN = "https://boutique.example";

type Rendered = { status?: number; headers?: Record<string, string>; html?: string };

async function setup(options: { renderPage?: (request: Request, n: number) => Rendered } = {}) {
  const clock = { now: 1_000_000 };
  const state = { version: 1, offerEndsAt: null as number | null };
  const renders: Request[] = [];
  let release: (() => void) | null = null;
  const control = {
    /** The next renders wait until `resume()`. */
    hold() {
      let open!: () => void;
      const gate = new Promise<void>((resolve) => (open = resolve));
      release = open;
      return gate;
    },
    resume() {
      release?.();
      release = null;
    },
  };
  let gate: Promise<void> | null = null;
  const cache = createPageCache({
    async render(request) {
      renders.push(request);
      if (gate) await gate;
      const page = options.renderPage?.(request, renders.length) ?? {};
      const nonce = "Tm9uY2U=";
      const html =
        page.html ??
        `<!DOCTYPE html><html><body><p>Page ${renders.length}</p><script nonce="${nonce}">window.__ctx = {"n":${renders.length}};</script><script type="module" nonce="${nonce}" src="/build/app.js"></script></body></html>`;
      return new Response(html, {
        status: page.status ?? 200,
        headers: {
          "Content-Type": "text/html; charset=utf-8",
          "Content-Security-Policy": `default-src 'self'; script-src 'self' 'nonce-${nonce}' https://js.stripe.com`,
          "Cache-Control": "private, no-cache",
          Vary: "Cookie",
          ...page.headers,
        },
      });
    },
    readState: async () => ({ ...state }),
    buildVersion: "abc123",
    publicOrigin: PUBLIC_ORIGIN,
    now: () => clock.now,
    versionCheckMs: 0,
  });
  const app = express();
  app.use(cache);
  let live = 0;
  app.get("*", (_req, res) => {
    live += 1;
    res.setHeader("Cache-Control", "private, no-cache");
    res.send(`<p>live ${live}</p>`);
  });
  const server = app.listen(0, "127.0.0.1");
  servers.push(server);
  await new Promise((resolve) => server.once("listening", resolve));
  const url = () => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    clock,
    state,
    renders,
    cache,
    url,
    live: () => live,
    holdRenders() {
      gate = control.hold();
    },
    releaseRenders() {
      control.resume();
      gate = null;
    },
    get: (path: string, headers: Record<string, string> = {}, method = "GET") =>
      fetch(url() + path, { method, headers: { "Accept-Encoding": "identity", ...headers } }),
  };
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

const settle = () => new Promise((resolve) => setTimeout(resolve, 30));

describe("what the page cache takes", () => {
  it("lists the public pages and the personal cookies", () => {
    for (const path of [
      "/",
      "/product/1",
      "/faq",
      "/livraison",
      "/retours",
      "/cgv",
      "/mentions-legales",
      "/politique-confidentialite",
      "/contact",
    ]) {
      expect(isPublicPage(path), path).toBe(true);
    }
    for (const path of [
      "/panier",
      "/recherche",
      "/track-order",
      "/admin",
      "/admin/products",
      "/api/products",
      "/order-confirmation/1",
      "/retractation",
      "/product/abc",
      "/product/1/x",
    ]) {
      expect(isPublicPage(path), path).toBe(false);
    }
    expect(hasPersonalCookie("theme=dark; toast-session=x")).toBe(true);
    expect(hasPersonalCookie("__admin=t")).toBe(true);
    // A cart, its count and the remembered orders change nothing on a public page.
    expect(hasPersonalCookie("cart=abc")).toBe(false);
    expect(hasPersonalCookie("cart=abc; cart_count=2; orders=1")).toBe(false);
    expect(hasPersonalCookie("theme=dark; carte=1")).toBe(false);
    expect(hasPersonalCookie(undefined)).toBe(false);
  });

  it("hashes the inline scripts and removes the nonce", () => {
    const { html, sources } = hashInlineScripts(
      '<script nonce="n1">a()</script><script nonce="n1" src="/x.js"></script><script type="module" nonce="n1">b()</script>',
      "n1",
    );
    expect(html).not.toContain("nonce");
    expect(sources).toHaveLength(2);
    expect(sources[0]).toMatch(/^'sha256-[A-Za-z0-9+/]+=*'$/);
  });
});

describe("the page cache", () => {
  it("renders an anonymous page once, from a request without cookies, and serves it to everyone anonymous", async () => {
    const shop = await setup();
    const first = await shop.get("/product/1", { Cookie: "theme=dark" });
    expect(first.headers.get("x-cache")).toBe("MISS");
    const second = await shop.get("/product/1");
    expect(second.headers.get("x-cache")).toBe("HIT");
    expect(await second.text()).toContain("Page 1");
    expect(shop.renders).toHaveLength(1);
    expect(shop.renders[0].headers.get("Cookie")).toBeNull();
    expect(second.headers.get("cache-control")).toBe("public, max-age=0, s-maxage=60, stale-while-revalidate=600");
    expect(second.headers.get("vary")).toBe("Accept-Encoding, Cookie");
    expect(second.headers.get("set-cookie")).toBeNull();
    const policy = second.headers.get("content-security-policy")!;
    expect(policy).toMatch(/script-src 'self' 'sha256-[^']+' https:\/\/js\.stripe\.com$/);
    expect(policy).not.toContain("nonce");
  });

  it("renders live, and never stores, the pages of a visitor with a toast or admin cookie", async () => {
    const shop = await setup();
    for (const cookie of ["toast-session=x", "__admin=t", "cart=abc; toast-session=x"]) {
      const response = await shop.get("/", { Cookie: cookie });
      expect(response.headers.get("x-cache")).toBe("BYPASS");
      expect(await response.text()).toMatch(/^<p>live/);
      expect(response.headers.get("cache-control")).toBe("private, no-cache");
    }
    expect(shop.renders).toHaveLength(0);
    expect(shop.cache.size()).toBe(0);
  });

  it("serves a visitor with a cart the shared page, rendered without their cookies", async () => {
    const shop = await setup();
    const first = await shop.get("/", { Cookie: "cart=abc; cart_count=2; orders=1" });
    expect(first.headers.get("x-cache")).toBe("MISS");
    const second = await shop.get("/", { Cookie: "cart=def; cart_count=1" });
    expect(second.headers.get("x-cache")).toBe("HIT");
    expect(await second.text()).toBe(await (await shop.get("/")).text());
    expect(second.headers.get("set-cookie")).toBeNull();
    expect(shop.renders).toHaveLength(1);
    expect(shop.renders[0].headers.get("Cookie")).toBeNull();
  });

  it("leaves other pages, methods and query strings to the live render; campaign tags are harmless", async () => {
    const shop = await setup();
    for (const path of ["/panier", "/recherche?q=masque", "/admin", "/api/cart", "/api/orders/1", "/api/products/1/x"]) {
      const response = await shop.get(path);
      expect(response.headers.get("x-cache"), path).toBeNull();
    }
    expect((await shop.get("/faq?x=1")).headers.get("x-cache")).toBe("BYPASS");
    expect((await fetch(shop.url() + "/faq", { method: "POST" })).headers.get("x-cache")).toBeNull();
    expect((await shop.get("/faq?utm_source=lettre")).headers.get("x-cache")).toBe("MISS");
    expect((await shop.get("/faq")).headers.get("x-cache")).toBe("HIT");
    expect(shop.renders).toHaveLength(1);
  });

  it("keeps the public catalog of the API 5 s, then serves it stale while it is fetched again, never past 30 s", async () => {
    expect(isPublicApi("/api/products")).toBe(true);
    expect(isPublicApi("/api/products/12")).toBe(true);
    expect(isPublicApi("/api/products/abc")).toBe(false);
    expect(isPublicApi("/api/settings")).toBe(false);
    const shop = await setup({
      renderPage: (request, n) => ({
        html: JSON.stringify({ id: 1, stock: 100 - n }),
        headers: {
          "Content-Type": "application/json; charset=utf-8",
          "Cache-Control": "public, max-age=30",
          "Content-Security-Policy": "",
        },
        status: request.headers.get("Accept") === "application/json" ? 200 : 406,
      }),
    });
    const first = await shop.get("/api/products/1");
    expect(first.headers.get("x-cache")).toBe("MISS");
    expect(first.headers.get("cache-control")).toBe("public, max-age=30");
    expect(first.headers.get("content-type")).toContain("application/json");
    expect(await first.json()).toEqual({ id: 1, stock: 99 });
    const gz = await shop.get("/api/products/1", { "Accept-Encoding": "gzip" });
    expect(gz.headers.get("x-cache")).toBe("HIT");
    expect(gz.headers.get("vary")).toBe("Accept-Encoding, Cookie");

    shop.clock.now += 5_001;
    const stale = await shop.get("/api/products/1");
    expect(stale.headers.get("x-cache")).toBe("STALE");
    expect(await stale.json()).toEqual({ id: 1, stock: 99 });
    await settle();
    expect(await (await shop.get("/api/products/1")).json()).toEqual({ id: 1, stock: 98 });

    shop.clock.now += 30_001;
    const late = await shop.get("/api/products/1");
    expect(late.headers.get("x-cache")).toBe("MISS");
    expect(await late.json()).toEqual({ id: 1, stock: 97 });

    shop.state.version += 1;
    expect(await (await shop.get("/api/products/1")).json()).toEqual({ id: 1, stock: 96 });
  });

  it("never stores an answer that sets a cookie, nor one that is not a 200", async () => {
    const shop = await setup({
      renderPage: (request) =>
        new URL(request.url).pathname === "/cgv" ? { headers: { "Set-Cookie": "cart=new" } } : { status: 404 },
    });
    const withCookie = await shop.get("/cgv");
    expect(withCookie.headers.get("x-cache")).toBe("BYPASS");
    expect(withCookie.headers.get("set-cookie")).toBeNull();
    expect(await withCookie.text()).toMatch(/^<p>live/);
    expect((await shop.get("/product/99")).headers.get("x-cache")).toBe("BYPASS");
    expect(shop.cache.size()).toBe(0);
    // Not tried again for 60 s: straight to the live render.
    expect((await shop.get("/cgv")).headers.get("x-cache")).toBe("BYPASS");
    expect(shop.renders).toHaveLength(2);
    shop.clock.now += 61_000;
    await shop.get("/cgv");
    expect(shop.renders).toHaveLength(3);
  });

  it("after 60 s serves the stale page while one background render refreshes it", async () => {
    const shop = await setup();
    await shop.get("/");
    shop.clock.now += 61_000;
    shop.holdRenders();
    const stale = await Promise.all([shop.get("/"), shop.get("/"), shop.get("/")]);
    for (const response of stale) {
      expect(response.headers.get("x-cache")).toBe("STALE");
      expect(await response.text()).toContain("Page 1");
    }
    // One refresh for the three requests.
    expect(shop.renders).toHaveLength(2);
    shop.releaseRenders();
    await settle();
    const fresh = await shop.get("/");
    expect(fresh.headers.get("x-cache")).toBe("HIT");
    expect(await fresh.text()).toContain("Page 2");
  });

  it("renders again once the page is too old to be served stale", async () => {
    const shop = await setup();
    await shop.get("/");
    shop.clock.now += 61_000 + 600_000;
    const response = await shop.get("/");
    expect(response.headers.get("x-cache")).toBe("MISS");
    expect(await response.text()).toContain("Page 2");
  });

  it("drops the pages rendered under an older version", async () => {
    const shop = await setup();
    await shop.get("/");
    await shop.get("/faq");
    shop.state.version = 2;
    const response = await shop.get("/");
    expect(response.headers.get("x-cache")).toBe("MISS");
    expect(await response.text()).toContain("Page 3");
    expect(shop.cache.size()).toBe(1);
  });

  it("serves no page rendered before the trial offer's end after it", async () => {
    const shop = await setup();
    shop.state.offerEndsAt = shop.clock.now + 10_000;
    await shop.get("/product/1");
    shop.clock.now += 9_000;
    expect((await shop.get("/product/1")).headers.get("x-cache")).toBe("HIT");
    shop.clock.now += 2_000;
    expect((await shop.get("/product/1")).headers.get("x-cache")).toBe("MISS");
  });

  it("answers HEAD with the headers only, and serves brotli, gzip or the plain page", async () => {
    const shop = await setup();
    const head = await shop.get("/", {}, "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers.get("x-cache")).toBe("MISS");
    expect(Number(head.headers.get("content-length"))).toBeGreaterThan(0);
    expect(await head.text()).toBe("");

    const raw = (encoding: string) =>
      new Promise<{ encoding: string | undefined; body: Buffer }>((resolve, reject) => {
        import("node:http").then(({ get }) =>
          get(shop.url() + "/", { headers: { "Accept-Encoding": encoding } }, (res) => {
            const chunks: Buffer[] = [];
            res.on("data", (c: Buffer) => chunks.push(c));
            res.on("end", () => resolve({ encoding: res.headers["content-encoding"], body: Buffer.concat(chunks) }));
          }).on("error", reject),
        );
      });
    const br = await raw("gzip, br");
    expect(br.encoding).toBe("br");
    expect(zlib.brotliDecompressSync(br.body).toString()).toContain("Page 1");
    const gz = await raw("gzip");
    expect(gz.encoding).toBe("gzip");
    expect(zlib.gunzipSync(gz.body).toString()).toContain("Page 1");
    const plain = await raw("identity");
    expect(plain.encoding).toBeUndefined();
    expect(plain.body.toString()).toContain("Page 1");
    expect(shop.renders).toHaveLength(1);
  });
});

describe("the Host of a request", () => {
  /** A GET with the given Host header (fetch cannot set one). */
  function getWithHost(url: string, host: string) {
    return new Promise<{ status: number; cache: string | undefined; body: string }>((resolve, reject) => {
      http
        .get(url, { headers: { Host: host, "Accept-Encoding": "identity" } }, (res) => {
          let body = "";
          res.on("data", (c: Buffer) => (body += c.toString()));
          res.on("end", () =>
            resolve({ status: res.statusCode ?? 0, cache: res.headers["x-cache"] as string | undefined, body }),
          );
        })
        .on("error", reject);
    });
  }

  it("changes nothing: one page per path, rendered once for the public address, whatever Host is sent", async () => {
    const shop = await setup();
    const first = await getWithHost(shop.url() + "/faq", new URL(PUBLIC_ORIGIN).host);
    expect(first).toMatchObject({ status: 200, cache: "MISS" });
    for (let n = 0; n < 30; n += 1) {
      const other = await getWithHost(shop.url() + "/faq", `attacker-${n}.example`);
      expect(other).toMatchObject({ status: 200, cache: "HIT" });
      expect(other.body).toContain("Page 1");
    }
    expect(await getWithHost(shop.url() + "/faq", new URL(shop.url()).host)).toMatchObject({ cache: "HIT" });
    expect(shop.renders).toHaveLength(1);
    expect(shop.renders[0].url).toBe(`${PUBLIC_ORIGIN}/faq`);
    expect(shop.cache.size()).toBe(1);
    expect(shop.live()).toBe(0);
  });
});

describe("the encoding sent from the cache", () => {
  it("is brotli whenever accepted, else gzip, else none; q=0 refuses", () => {
    expect(preferredEncoding("gzip, deflate, br")).toBe("br");
    expect(preferredEncoding("gzip;q=1.0, br;q=0.5")).toBe("br");
    expect(preferredEncoding("gzip, br;q=0")).toBe("gzip");
    expect(preferredEncoding("GZIP")).toBe("gzip");
    expect(preferredEncoding("*")).toBe("br");
    expect(preferredEncoding("*, br;q=0")).toBe("gzip");
    expect(preferredEncoding("deflate")).toBe("identity");
    expect(preferredEncoding("identity")).toBe("identity");
    expect(preferredEncoding(undefined)).toBe("identity");
  });
});
