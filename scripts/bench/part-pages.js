// @ts-check
// The bench's "pages" part: GET /, /product/1 and /api/products/1 asked like a browser does
// (Brotli or gzip), by an anonymous visitor and, for the pages, by a visitor holding a real cart
// (its `cart` and `cart_count` cookies), next to a bare node:http server in its own process
// returning the shop's own bytes (the ceiling). Requests/s, p50 and p99 of each, the JavaScript
// each page ships, and the cart holder's rate against the anonymous one (target ≥ 0.8×, p99
// < 50 ms).
import { BROWSER_ENCODING, getRaw, runChild, shippedJs } from "./http.js";

/** @typedef {import("./load.js").LoadResult} LoadResult */

const REQUEST_HEADERS = { "accept-encoding": BROWSER_ENCODING, accept: "text/html,application/json;q=0.9,*/*;q=0.8" };
/** The cart holder's pages: at least this share of the anonymous rate, under this p99. */
const CART_RATIO_TARGET = 0.8;
const CART_P99_TARGET_MS = 50;

/** @param {number[]} values */
function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** @param {number} ms */
const ms = (ms) => `${ms.toFixed(ms < 10 ? 1 : 0)} ms`;

/**
 * A real cart, as a shopper's browser holds it: a pack added, then a live page that gives the
 * count's cookie.
 * @param {string} origin
 * @param {number} productId
 * @param {number} packId
 */
async function cartCookies(origin, productId, packId) {
  const headers = { "Content-Type": "application/json", Origin: origin, "X-Forwarded-For": "198.19.255.254" };
  const added = await fetch(`${origin}/api/cart`, { method: "POST", headers, body: JSON.stringify({ productId, packId }) });
  if (added.status !== 201) throw new Error(`POST /api/cart: HTTP ${added.status} ${await added.text()}`);
  const cart = added.headers.getSetCookie().map((c) => c.split(";")[0]);
  const page = await fetch(`${origin}/panier`, { headers: { Cookie: cart.join("; "), "X-Forwarded-For": "198.19.255.254" } });
  await page.arrayBuffer();
  const count = page.headers.getSetCookie().map((c) => c.split(";")[0]);
  if (!count.some((c) => c.startsWith("cart_count="))) throw new Error("The cart page gave no cart_count cookie.");
  return [...cart, ...count].join("; ");
}

/**
 * @param {{
 *   shop: import("./shop.js").RunningShop,
 *   productId: number,
 *   packId: number,
 *   connections: number,
 *   runs: number,
 *   warmupSeconds: number,
 *   seconds: number,
 * }} options
 */
export async function benchPages({ shop, productId, packId, connections, runs, warmupSeconds, seconds }) {
  const paths = ["/", `/product/${productId}`, `/api/products/${productId}`];
  const cartPaths = new Set(paths.slice(0, 2));
  const cookie = await cartCookies(shop.url, productId, packId);

  // What the shop sends for each path, compressed as a browser asks: the bare server's bytes.
  /** @type {Record<string, { status: number, headers: Record<string, string>, body: string }>} */
  const responses = {};
  /** @type {Record<string, { bytes: number, encoding: string, js: { files: number, gzipBytes: number } | null }>} */
  const pages = {};
  for (const p of paths) {
    const res = await getRaw(shop.url + p, REQUEST_HEADERS);
    if (res.status !== 200) throw new Error(`GET ${p}: HTTP ${res.status}`);
    /** @type {Record<string, string>} */
    const headers = {};
    for (const name of ["content-type", "content-encoding", "vary", "cache-control"]) {
      const value = res.headers[name];
      if (typeof value === "string") headers[name] = value;
    }
    responses[p] = { status: res.status, headers, body: res.body.toString("base64") };
    const html = (headers["content-type"] ?? "").startsWith("text/html");
    const plain = html ? await getRaw(shop.url + p, { "accept-encoding": "identity" }) : null;
    pages[p] = {
      bytes: res.body.length,
      encoding: headers["content-encoding"] ?? "identity",
      js: plain ? await shippedJs(shop.url, plain.body.toString()) : null,
    };
  }
  const bare = await runChild("bare-server.js", { responses });
  try {
    const barePort = /** @type {{ port: number }} */ (bare.result).port;
    /** @type {Record<string, { shop: LoadResult[], cart: LoadResult[], bare: LoadResult[] }>} */
    const loads = Object.fromEntries(paths.map((p) => [p, { shop: [], cart: [], bare: [] }]));
    for (let run = 0; run < runs; run++) {
      for (const p of paths) {
        /** @type {[keyof (typeof loads)[string], string, Record<string, string>][]} */
        const targets = [
          ["shop", shop.url, REQUEST_HEADERS],
          ["bare", `http://127.0.0.1:${barePort}`, REQUEST_HEADERS],
        ];
        if (cartPaths.has(p)) targets.push(["cart", shop.url, { ...REQUEST_HEADERS, cookie }]);
        for (const [target, origin, headers] of targets) {
          const load = await runChild("load.js", { url: origin + p, connections, warmupSeconds, seconds, headers });
          await load.kill();
          loads[p][target].push(/** @type {LoadResult} */ (load.result));
        }
      }
    }

    /** @param {LoadResult[]} results */
    const medians = (results) => ({
      rps: median(results.map((r) => r.rps)),
      p50: median(results.map((r) => r.p50)),
      p99: median(results.map((r) => r.p99)),
      errors: results.reduce((n, r) => n + r.errors, 0),
      non2xx: results.reduce((n, r) => n + r.non2xx, 0),
      requests: results.reduce((n, r) => n + r.requests, 0),
    });
    const reads = paths.map((p) => {
      const anonymous = medians(loads[p].shop);
      const bareSummary = medians(loads[p].bare);
      const cart = cartPaths.has(p) ? medians(loads[p].cart) : null;
      return {
        measure: `GET ${p}`,
        ...anonymous,
        bareRps: bareSummary.rps,
        bareP50: bareSummary.p50,
        bareP99: bareSummary.p99,
        ratio: bareSummary.rps > 0 ? anonymous.rps / bareSummary.rps : 0,
        bareErrors: bareSummary.errors + bareSummary.non2xx,
        cart: cart && {
          ...cart,
          ofAnonymous: anonymous.rps > 0 ? cart.rps / anonymous.rps : 0,
          onTarget: anonymous.rps > 0 && cart.rps / anonymous.rps >= CART_RATIO_TARGET && cart.p99 < CART_P99_TARGET_MS,
        },
        ...pages[p],
      };
    });
    /** @param {{ requests: number, errors: number, non2xx: number }} r */
    const failures = (r) => (r.requests === 0 ? "no answer within the measure" : `${r.errors} + ${r.non2xx} non-2xx`);
    const lines = [
      `Bodies as sent with Accept-Encoding: ${BROWSER_ENCODING} (${reads.map((r) => `${r.measure.slice(4)} ${r.encoding} ${r.bytes} B`).join(", ")}); ${connections} connections. A cart holder sends a real cart's cookies (cart, cart_count).`,
      "",
      "| measure | visitor | req/s | p50 | p99 | bare req/s | ratio to bare | cart / anonymous | JS gzip | errors |",
      "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
      ...reads.flatMap((r) => [
        `| ${r.measure} | anonymous | ${Math.round(r.rps)} | ${ms(r.p50)} | ${ms(r.p99)} | ${Math.round(r.bareRps)} | ${r.ratio.toFixed(2)} | - | ${r.js ? `${(r.js.gzipBytes / 1024).toFixed(1)} kB (${r.js.files} files)` : "-"} | ${failures(r)} |`,
        ...(r.cart
          ? [
              `| ${r.measure} | with a cart | ${Math.round(r.cart.rps)} | ${ms(r.cart.p50)} | ${ms(r.cart.p99)} | - | ${r.bareRps > 0 ? (r.cart.rps / r.bareRps).toFixed(2) : "-"} | ${r.cart.ofAnonymous.toFixed(2)}${r.cart.onTarget ? "" : " (target missed)"} | - | ${failures(r.cart)} |`,
            ]
          : []),
      ]),
      "",
      `Target for a visitor with a cart: ≥ ${CART_RATIO_TARGET}× the anonymous rate and p99 < ${CART_P99_TARGET_MS} ms: ${reads.every((r) => !r.cart || r.cart.onTarget) ? "met" : "MISSED"}.`,
    ];
    const summary = reads.flatMap((r) => [
      {
        measure: `${r.measure}, anonymous visitor, ${connections} connections`,
        result: `${Math.round(r.rps)} req/s, p50 ${ms(r.p50)}, p99 ${ms(r.p99)} (bare server ${Math.round(r.bareRps)} req/s)`,
        target: "",
        met: null,
      },
      ...(r.cart
        ? [
            {
              measure: `${r.measure}, visitor with a cart, ${connections} connections`,
              result: `${Math.round(r.cart.rps)} req/s, p50 ${ms(r.cart.p50)}, p99 ${ms(r.cart.p99)}: ${r.cart.ofAnonymous.toFixed(2)}× the anonymous rate`,
              target: `≥ ${CART_RATIO_TARGET}×, p99 < ${CART_P99_TARGET_MS} ms`,
              met: r.cart.onTarget,
            },
          ]
        : []),
    ]);
    return { lines, report: { reads }, ok: true, summary };
  } finally {
    await bare.kill();
  }
}
