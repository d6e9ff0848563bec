// @ts-check

/**
 * The route of a request's path, as a metric label and in the log: the pattern of the Remix
 * route that answers it (`/product/:id`), so that the label takes few values whatever the
 * paths asked. Single fetch's data requests (`/panier.data`) get their page's pattern with
 * `.data`; the build's assets `/assets/*`, the other public files `/fichier`, and paths no
 * route knows `*` (the not-found page); /healthz, /readyz and /metrics their own path.
 */

const MEMO_MAX = 5_000;
/** Answered by the server itself (server/operations.js). */
const OWN_PATHS = new Set(["/healthz", "/readyz", "/metrics"]);

/**
 * @param {import("@remix-run/node").ServerBuild} build
 * @returns {(path: string) => string}
 */
export function createRouteLabeler(build) {
  const patterns = routePatterns(build.routes);
  /** @type {Map<string, string>} */
  const memo = new Map();
  const assets = `${build.publicPath}assets/`;

  /** @param {string} path */
  function label(path) {
    if (OWN_PATHS.has(path)) return path;
    if (path.startsWith(assets)) return "/assets/*";
    if (path === "/_root.data") return "/.data";
    if (path.endsWith(".data")) return `${match(path.slice(0, -5) || "/")}.data`;
    const last = path.slice(path.lastIndexOf("/") + 1);
    if (last.includes(".")) {
      const route = match(path);
      return route === "*" ? "/fichier" : route;
    }
    return match(path);
  }

  /** @param {string} path */
  function match(path) {
    for (const { regex, pattern } of patterns) if (regex.test(path)) return pattern;
    return "*";
  }

  return (path) => {
    let route = memo.get(path);
    if (route === undefined) {
      route = label(path);
      if (memo.size >= MEMO_MAX) memo.clear();
      memo.set(path, route);
    }
    return route;
  };
}

/**
 * The full pattern of every route with a path, most specific first (more static segments, then
 * fewer dynamic ones); the splat route (`*`) is left to the fallback.
 *
 * @param {import("@remix-run/node").ServerBuild["routes"]} routes
 */
function routePatterns(routes) {
  /** @param {string | undefined} id @returns {string[]} */
  const segmentsOf = (id) => {
    const route = id ? routes[id] : undefined;
    if (!route) return [];
    return [...segmentsOf(route.parentId), ...(route.path ?? "").split("/").filter(Boolean)];
  };
  /** @type {Map<string, { regex: RegExp, pattern: string, statics: number, dynamics: number }>} */
  const found = new Map();
  for (const route of Object.values(routes)) {
    if (!route || (route.path === undefined && !route.index)) continue;
    const segments = segmentsOf(route.id);
    if (segments.includes("*")) continue;
    const pattern = `/${segments.join("/")}`;
    const source = segments
      .map((segment) => (segment.startsWith(":") ? "/[^/]+" : `/${segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`))
      .join("");
    const dynamics = segments.filter((segment) => segment.startsWith(":")).length;
    found.set(pattern, {
      regex: new RegExp(`^${source || "/"}/?$`),
      pattern,
      statics: segments.length - dynamics,
      dynamics,
    });
  }
  return [...found.values()].sort((a, b) => b.statics - a.statics || a.dynamics - b.dynamics);
}
