// @ts-check
import { createHash } from "node:crypto";
import { promisify } from "node:util";
import zlib from "node:zlib";

/**
 * The full-page cache of the public pages, one per process.
 *
 * A visitor asking for a public page (the allowlist below, no query string but campaign tags)
 * gets a page rendered once for everyone, a shopper with a cart as well as an anonymous visitor:
 * rendered from a request that carries no cookie at all, kept only when it is a 200 HTML
 * answer that sets no cookie, and stored already compressed (brotli and gzip). Anything else
 * goes to the live render, as before.
 *
 * What is personal is served apart: the cart's count comes from the readable `cart_count` cookie
 * (app/lib/cart-count-cookie.ts, kept by the root loader on every live answer) and the header
 * shows it once the page's script runs; the cart drawer loads /panier's data (live) when it
 * opens; without JavaScript the header's link goes to /panier, rendered live. Only the cookies
 * that change a public page itself send it to the live render: a toast waiting to be shown
 * (once) and the back office's session.
 *
 * Freshness:
 * - an entry is fresh for 60 s; then it is still served while one background render replaces
 *   it (stale-while-revalidate, one render at a time per page), at most 10 minutes;
 * - the database holds the version of the public pages (table page_cache_version), bumped by
 *   the catalog, price, settings and sold-out writes of any process; it is read on each request
 *   (one row by primary key: microseconds), so an entry rendered under an older version is
 *   never served and an edit shows on the very next view;
 * - the trial offer's banner disappears at the offer's end: no entry rendered before the end
 *   is served after it;
 * - a new build is a new process, hence an empty cache (the build's version is in the key too).
 *
 * A page is rendered for the shop's public address (PUBLIC_URL), whatever the request's Host:
 * the key is the path alone, and nothing on a public page comes from the Host (its links are
 * built from PUBLIC_URL). A request with another Host (a proxy that passes its own, or made-up
 * ones) gets the same page, and adds nothing to the cache.
 *
 * The live render puts a fresh nonce in the Content-Security-Policy of each page; a shared page
 * cannot, so its inline scripts are allowed by their sha256 hashes instead (the nonce attributes
 * are removed), computed once when the page enters the cache. The policy stays the same otherwise.
 *
 * Answers carry `X-Cache`: HIT, STALE (served while being refreshed), MISS (rendered now) or
 * BYPASS (a public page rendered live for a visitor with a toast, an admin session or a query string).
 *
 * The public catalog of the API is kept the same way (same version, same cookie rule), for a
 * shorter time since it gives the stock (PUBLIC_API below).
 */

/** Shared caches (a CDN) may keep an anonymous page 60 s, and serve it stale while they refresh it. */
export const PUBLIC_PAGE_CACHE_CONTROL = "public, max-age=0, s-maxage=60, stale-while-revalidate=600";
const VARY = "Accept-Encoding, Cookie";

/** The public pages: nothing in them depends on the visitor. */
const PUBLIC_PAGES = [
  /^\/$/,
  /^\/product\/\d+$/,
  /^\/(?:faq|livraison|retours|cgv|mentions-legales|politique-confidentialite|contact)$/,
];
/**
 * The public catalog of the API (GET /api/products and /api/products/{id}): the same JSON for
 * every client. It gives the stock, which a sale changes without a new version of the pages,
 * so an answer is kept 5 s and served stale at most 25 s more: never older than the 30 s its
 * own Cache-Control allows.
 */
const PUBLIC_API = [/^\/api\/products(?:\/\d+)?$/];
const API_TTL_MS = 5_000;
const API_STALE_MS = 25_000;
/** Query parameters that change nothing on the page (campaign tags): they do not prevent caching. */
const HARMLESS_PARAMETER = /^(?:utm_[a-z_]+|gclid|fbclid|msclkid)$/;
/**
 * The shop's cookies that make a public page personal: a toast shown once, the back office's
 * session. The cart (its count travels in `cart_count`) and the remembered orders change nothing
 * on a public page.
 */
export const PERSONAL_COOKIES = ["__admin", "toast-session"];

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Headers not copied from the rendered page into the stored one. */
const DROPPED_HEADERS = new Set([
  "set-cookie",
  "content-length",
  "content-encoding",
  "transfer-encoding",
  "connection",
  "date",
  "keep-alive",
  // Each answer carries its own request's id (server/request-trace.js), never the one of the render.
  "x-request-id",
]);

/**
 * @typedef {{ version: number, offerEndsAt: number | null }} PageCacheState
 * @typedef {"br" | "gzip" | "identity"} Encoding
 * @typedef {{
 *   version: number,
 *   freshUntil: number,
 *   staleUntil: number,
 *   headers: [string, string][],
 *   bodies: Record<Encoding, Buffer>,
 * }} Entry
 * @typedef {{
 *   render(request: Request, loadContext: Record<string, unknown>): Promise<Response>,
 *   readState(): Promise<PageCacheState>,
 *   buildVersion: string,
 *   publicOrigin: string, // the shop's public address (PUBLIC_URL): the pages are rendered for it
 *   now?: () => number,
 *   ttlMs?: number,
 *   staleMs?: number,
 *   versionCheckMs?: number, // how long a read version is trusted (0: read on each request)
 *   maxEntries?: number,
 *   maxBytes?: number,
 *   onAnswer?: (outcome: "HIT" | "STALE" | "MISS" | "BYPASS") => void, // each answer's X-Cache (metrics)
 *   onError?: (error: unknown) => void, // a background refresh that failed (logged)
 * }} PageCacheOptions
 */

/** @param {string} path */
export function isPublicPage(path) {
  return PUBLIC_PAGES.some((pattern) => pattern.test(path));
}

/** @param {string} path */
export function isPublicApi(path) {
  return PUBLIC_API.some((pattern) => pattern.test(path));
}

/** @param {string | undefined} header the request's Cookie header */
export function hasPersonalCookie(header) {
  if (!header) return false;
  return header.split(";").some((pair) => PERSONAL_COOKIES.includes(pair.split("=")[0].trim()));
}

/**
 * The encoding to send: brotli whenever accepted (browsers list gzip first, with the same
 * weight), else gzip, else none. An encoding is accepted when named (or `*`) without `q=0`.
 *
 * @param {string | string[] | undefined} header the request's Accept-Encoding
 * @returns {Encoding}
 */
export function preferredEncoding(header) {
  if (typeof header !== "string" || header === "") return "identity";
  /** @type {Map<string, number>} */
  const weights = new Map();
  for (const part of header.split(",")) {
    const [name, ...parameters] = part.split(";");
    const q = parameters.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    weights.set(name.trim().toLowerCase(), Number.isNaN(weight) ? 0 : weight);
  }
  const accepted = (/** @type {string} */ name) => (weights.get(name) ?? weights.get("*") ?? 0) > 0;
  return accepted("br") ? "br" : accepted("gzip") ? "gzip" : "identity";
}

/** @param {URLSearchParams} query */
function harmlessQuery(query) {
  return [...query.keys()].every((name) => HARMLESS_PARAMETER.test(name));
}

/**
 * The page's inline scripts allowed by hash instead of by nonce: the HTML without the nonce
 * attributes, and the `'sha256-…'` sources of its inline scripts.
 *
 * @param {string} html
 * @param {string | null} nonce
 */
export function hashInlineScripts(html, nonce) {
  const stripped = nonce ? html.replaceAll(` nonce="${nonce}"`, "") : html;
  /** @type {Set<string>} */
  const sources = new Set();
  for (const [, attributes, content] of stripped.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    if (/\bsrc\s*=/i.test(attributes) || content.length === 0) continue;
    sources.add(`'sha256-${createHash("sha256").update(content, "utf8").digest("base64")}'`);
  }
  return { html: stripped, sources: [...sources] };
}

/**
 * The cache as an Express middleware, placed before the Remix handler.
 *
 * @param {PageCacheOptions} options
 */
export function createPageCache(options) {
  const now = options.now ?? Date.now;
  const ttlMs = options.ttlMs ?? 60_000;
  const staleMs = options.staleMs ?? 600_000;
  const versionCheckMs = options.versionCheckMs ?? 0;
  const maxEntries = options.maxEntries ?? 500;
  const maxBytes = options.maxBytes ?? 2_000_000;
  const publicOrigin = new URL(options.publicOrigin).origin;
  const onAnswer = options.onAnswer ?? (() => undefined);
  const onError = options.onError ?? ((/** @type {unknown} */ error) => console.error(error));
  /** @param {import("node:http").ServerResponse} res */
  const bypass = (res) => {
    res.setHeader("X-Cache", "BYPASS");
    onAnswer("BYPASS");
  };

  /** @type {Map<string, Entry>} */
  const entries = new Map();
  /** Pages found not shareable (a 404, a redirect, a cookie set): live until then, not rendered twice. */
  /** @type {Map<string, number>} */
  const unshareable = new Map();
  /** Renders under way, one per key: concurrent misses wait for the same one. */
  /** @type {Map<string, Promise<Entry | null>>} */
  const rendering = new Map();
  /** @type {PageCacheState} */
  let state = { version: -1, offerEndsAt: null };
  let checkedAt = -Infinity;

  async function currentState() {
    if (now() - checkedAt >= versionCheckMs) {
      const read = await options.readState();
      if (read.version !== state.version) {
        entries.clear();
        unshareable.clear();
      }
      state = read;
      checkedAt = now();
    }
    return state;
  }

  /**
   * Renders the page from a request without any cookie; an entry when it may be shared.
   *
   * @param {string} url
   * @param {Record<string, unknown>} loadContext
   * @returns {Promise<Entry | null>}
   */
  async function renderEntry(url, loadContext) {
    const { version, offerEndsAt } = await currentState();
    const renderedAt = now();
    const api = isPublicApi(new URL(url).pathname);
    const accept = api ? "application/json" : "text/html";
    const response = await options.render(new Request(url, { headers: { Accept: accept } }), loadContext);
    const body = Buffer.from(await response.arrayBuffer());
    const shareable =
      response.status === 200 &&
      !response.headers.has("Set-Cookie") &&
      (response.headers.get("Content-Type") ?? "").startsWith(accept) &&
      body.length <= maxBytes;
    if (!shareable) return null;
    if (api) {
      const answer = new Response(null, { headers: response.headers });
      answer.headers.set("Vary", VARY);
      return storedEntry(answer, body, { version, renderedAt, offerEndsAt: null, ttlMs: API_TTL_MS, staleMs: API_STALE_MS });
    }

    const policy = response.headers.get("Content-Security-Policy");
    const nonce = policy?.match(/'nonce-([^']+)'/)?.[1] ?? null;
    const { html, sources } = hashInlineScripts(body.toString("utf8"), nonce);
    const page = new Response(null, { headers: response.headers });
    if (nonce && policy) page.headers.set("Content-Security-Policy", policy.replace(`'nonce-${nonce}'`, sources.join(" ")));
    page.headers.set("Cache-Control", PUBLIC_PAGE_CACHE_CONTROL);
    page.headers.set("Vary", VARY);
    return storedEntry(page, Buffer.from(html, "utf8"), { version, renderedAt, offerEndsAt, ttlMs, staleMs });
  }

  /**
   * The entry of a shareable answer: its headers (but those of one connection), and its body
   * compressed once with brotli and gzip.
   *
   * @param {Response} response
   * @param {Buffer} identity
   * @param {{ version: number, renderedAt: number, offerEndsAt: number | null, ttlMs: number, staleMs: number }} timing
   * @returns {Promise<Entry>}
   */
  async function storedEntry(response, identity, { version, renderedAt, offerEndsAt, ttlMs, staleMs }) {
    /** @type {[string, string][]} */
    const headers = [];
    response.headers.forEach((value, name) => {
      if (!DROPPED_HEADERS.has(name)) headers.push([name, value]);
    });
    const [br, gz] = await Promise.all([
      brotli(identity, {
        params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: identity.length },
      }),
      gzip(identity, { level: 9 }),
    ]);
    // An entry never outlives the trial offer it may announce.
    const offerEnd = offerEndsAt !== null && offerEndsAt > renderedAt ? offerEndsAt : Infinity;
    return {
      version,
      freshUntil: Math.min(renderedAt + ttlMs, offerEnd),
      staleUntil: Math.min(renderedAt + ttlMs + staleMs, offerEnd),
      headers,
      bodies: { br, gzip: gz, identity },
    };
  }

  /**
   * One render at a time per key; its entry replaces the stored one (or removes it when the
   * page may no longer be shared).
   *
   * @param {string} key
   * @param {string} url
   * @param {Record<string, unknown>} loadContext
   */
  function fill(key, url, loadContext) {
    let pending = rendering.get(key);
    if (!pending) {
      pending = renderEntry(url, loadContext)
        .then((entry) => {
          if (entry) {
            entries.delete(key);
            if (entries.size >= maxEntries) entries.delete(/** @type {string} */ (entries.keys().next().value));
            entries.set(key, entry);
          } else {
            entries.delete(key);
            if (unshareable.size >= maxEntries) unshareable.delete(/** @type {string} */ (unshareable.keys().next().value));
            unshareable.set(key, now() + ttlMs);
          }
          return entry;
        })
        .finally(() => rendering.delete(key));
      rendering.set(key, pending);
    }
    return pending;
  }

  /**
   * @param {import("node:http").IncomingMessage} req
   * @param {import("node:http").ServerResponse} res
   * @param {Entry} entry
   * @param {"HIT" | "STALE" | "MISS"} outcome
   */
  function send(req, res, entry, outcome) {
    const encoding = preferredEncoding(req.headers["accept-encoding"]);
    const body = entry.bodies[encoding];
    res.statusCode = 200;
    for (const [name, value] of entry.headers) res.setHeader(name, value);
    if (encoding !== "identity") res.setHeader("Content-Encoding", encoding);
    res.setHeader("Content-Length", body.length);
    res.setHeader("X-Cache", outcome);
    onAnswer(outcome);
    if (req.method === "HEAD") res.end();
    else res.end(body);
  }

  /**
   * A request handler of node:http (also usable as an Express middleware): it reads only the raw
   * request, so that a cached answer costs no more than its bytes. `next` renders live.
   *
   * @param {import("node:http").IncomingMessage} req
   * @param {import("node:http").ServerResponse} res
   * @param {(error?: unknown) => void} next
   */
  async function pageCache(req, res, next) {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const url = req.url ?? "/";
    const mark = url.indexOf("?");
    const path = mark === -1 ? url : url.slice(0, mark);
    if (!(isPublicPage(path) || isPublicApi(path))) return next();
    if (hasPersonalCookie(req.headers.cookie) || (mark !== -1 && !harmlessQuery(new URLSearchParams(url.slice(mark + 1))))) {
      bypass(res);
      return next();
    }
    try {
      // Keyed on the public address, never on the Host sent: any Host gets the same page, so
      // made-up ones neither fill the cache nor cost a render each.
      const key = `${options.buildVersion} ${path}`;
      const loadContext = { clientAddress: req.socket.remoteAddress };
      const { version } = await currentState();
      const entry = entries.get(key);
      const at = now();
      if ((unshareable.get(key) ?? 0) > at) {
        bypass(res);
        return next();
      }
      if (entry && entry.version === version && at < entry.freshUntil) return send(req, res, entry, "HIT");
      if (entry && entry.version === version && at < entry.staleUntil) {
        fill(key, publicOrigin + path, loadContext).catch(onError);
        return send(req, res, entry, "STALE");
      }
      const fresh = await fill(key, publicOrigin + path, loadContext);
      if (fresh) return send(req, res, fresh, "MISS");
      // Not shareable (a 404, a redirect, a cookie set): rendered live for this visitor.
      bypass(res);
      return next();
    } catch (error) {
      return next(error);
    }
  }

  return Object.assign(pageCache, {
    /** The number of stored pages (tests). */
    size: () => entries.size,
  });
}
