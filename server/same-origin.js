// @ts-check

/**
 * Posts from another site, refused before Remix sees them.
 *
 * Remix checks the `Origin` of every page action itself (a post to a page, or to its `.data`
 * with single fetch) and throws on a mismatch: a 500 with a stack trace in the error log. This
 * handler answers those posts first with a 403 in French: an HTML page for a page, plain text
 * for a `.data` (what a script reads). The JSON API (`/api/*`) and the emulator's API refuse
 * them themselves with their JSON error (app/http/api.server.ts), so they go through.
 *
 * Which post comes from another site is the shop's one rule (`isSameOriginRequest`,
 * app/http/same-origin.server.ts), given by the build with its message.
 *
 * @typedef {{
 *   isSameOriginRequest(header: (name: string) => string | null | undefined, requestHost?: string): boolean,
 *   CROSS_SITE_MESSAGE: string,
 * }} SameOriginRule
 */

/** @param {string} message */
function refusalPage(message) {
  return `<!DOCTYPE html>
<html lang="fr">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${message}</title></head>
<body>
<h1>${message}</h1>
<p>Ce formulaire a été envoyé depuis un autre site : il n'a pas été pris en compte.</p>
<p><a href="/">Revenir à la boutique</a></p>
</body>
</html>
`;
}

/** @param {string | string[] | undefined} value */
function first(value) {
  return Array.isArray(value) ? value[0] : value;
}

/** The paths that answer their own JSON refusal. @param {string} path */
function answersItself(path) {
  return !path.endsWith(".data") && /^\/(?:api|stripe-emulator)\//.test(path);
}

/**
 * A request handler of node:http: answers a cross-site post to a page with the 403, calls
 * `next` for everything else. The page and the plain text are made once.
 *
 * @param {SameOriginRule} rule
 * @returns {(req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse, next: () => void) => void}
 */
export function crossSitePostRefusal({ isSameOriginRequest, CROSS_SITE_MESSAGE }) {
  const page = Buffer.from(refusalPage(CROSS_SITE_MESSAGE), "utf8");
  const text = Buffer.from(`${CROSS_SITE_MESSAGE}.`, "utf8");
  return (req, res, next) => {
    if (req.method === "GET" || req.method === "HEAD") return next();
    if (isSameOriginRequest((name) => first(req.headers[name]))) return next();
    const url = req.url ?? "/";
    const mark = url.indexOf("?");
    const path = mark === -1 ? url : url.slice(0, mark);
    if (answersItself(path)) return next();
    const script = path.endsWith(".data");
    const body = script ? text : page;
    res.statusCode = 403;
    res.setHeader("Content-Type", script ? "text/plain; charset=utf-8" : "text/html; charset=utf-8");
    res.setHeader("Content-Length", body.length);
    res.setHeader("Cache-Control", "no-store");
    res.setHeader("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'");
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Referrer-Policy", "same-origin");
    res.end(body);
  };
}
