// @ts-check

/**
 * Posts from another site, refused before Remix sees them.
 *
 * Remix checks the `Origin` of every page action itself (a post to a page, or to its `.data`
 * with single fetch) and throws on a mismatch: a 500 with a stack trace in the error log. This
 * middleware answers those posts first with a 403 in French: an HTML page for a page, plain
 * text for a `.data` (what a script reads). The JSON API (`/api/*`) and the emulator's API
 * refuse them themselves with their JSON error (app/http/api.server.ts), so they go through.
 *
 * A post is from another site when its `Origin` names another host than the request's
 * (the first X-Forwarded-Host, else Host: the comparison Remix makes), is opaque ("null") or is
 * no URL; without an `Origin`, when the browser says so in `Sec-Fetch-Site`. Clients that
 * send neither (curl, servers) are not browsers: nothing to forge.
 */

export const CROSS_SITE_MESSAGE = "Origine de la requête non autorisée";

const PAGE = `<!DOCTYPE html>
<html lang="fr">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${CROSS_SITE_MESSAGE}</title></head>
<body>
<h1>${CROSS_SITE_MESSAGE}</h1>
<p>Ce formulaire a été envoyé depuis un autre site : il n'a pas été pris en compte.</p>
<p><a href="/">Revenir à la boutique</a></p>
</body>
</html>
`;

/** @param {string | string[] | undefined} value */
function first(value) {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * @param {import("node:http").IncomingHttpHeaders} headers
 * @returns {boolean}
 */
export function isCrossSite(headers) {
  const origin = first(headers.origin);
  if (!origin) {
    const site = first(headers["sec-fetch-site"]);
    return site === "cross-site" || site === "same-site";
  }
  const host = first(headers["x-forwarded-host"])?.split(",")[0]?.trim() || headers.host;
  if (!host || origin === "null") return true;
  try {
    return new URL(origin).host !== host;
  } catch {
    return true;
  }
}

/** The paths that answer their own JSON refusal. @param {string} path */
function answersItself(path) {
  return !path.endsWith(".data") && /^\/(?:api|stripe-emulator)\//.test(path);
}

/**
 * A request handler of node:http: answers a cross-site post to a page with the 403, calls
 * `next` for everything else.
 *
 * @param {import("node:http").IncomingMessage} req
 * @param {import("node:http").ServerResponse} res
 * @param {() => void} next
 */
export function refuseCrossSitePosts(req, res, next) {
  if (req.method === "GET" || req.method === "HEAD" || !isCrossSite(req.headers)) return next();
  const url = req.url ?? "/";
  const mark = url.indexOf("?");
  const path = mark === -1 ? url : url.slice(0, mark);
  if (answersItself(path)) return next();
  const script = path.endsWith(".data");
  const body = Buffer.from(script ? `${CROSS_SITE_MESSAGE}.` : PAGE, "utf8");
  res.statusCode = 403;
  res.setHeader("Content-Type", script ? "text/plain; charset=utf-8" : "text/html; charset=utf-8");
  res.setHeader("Content-Length", body.length);
  res.setHeader("Cache-Control", "no-store");
  res.setHeader("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'");
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Referrer-Policy", "same-origin");
  res.end(body);
}
