/**
 * What search engines may crawl and index, and how a shared link is previewed. One list of
 * private paths gives both robots.txt's Disallow lines and the pages' `noindex` robots meta.
 */

/** The preview image of every shared link (scripts/social-images.js draws it). */
export const SOCIAL_IMAGE = {
  path: "/images/og-image.png",
  width: 1200,
  height: 630,
  type: "image/png",
  alt: "Maison Éclat, masques hydrogel au collagène : le coffret rose de la marque",
} as const;

/** The square logo of the Organization data (scripts/social-images.js draws it). */
export const LOGO_PATH = "/images/logo.png";

type PrivatePath = {
  /** A path prefix, as robots.txt writes it (a trailing slash: only what lies under it). */
  prefix: string;
  /** Only when the URL has a query string: the page itself is public, its results are not. */
  withQueryOnly?: boolean;
  /** The robots meta of these pages. */
  robots: "noindex, nofollow" | "noindex, follow";
};

/**
 * Pages kept out of search engines: the back office and the API, the visitor's cart and
 * search results, and every page about one customer's order or subscription (they are opened
 * with a number or a signed link, and some show a name or an address).
 */
export const PRIVATE_PATHS: readonly PrivatePath[] = [
  { prefix: "/admin", robots: "noindex, nofollow" },
  { prefix: "/api/", robots: "noindex, nofollow" },
  { prefix: "/panier", robots: "noindex, follow" },
  { prefix: "/recherche", robots: "noindex, follow" },
  { prefix: "/order-confirmation", robots: "noindex, nofollow" },
  { prefix: "/success", robots: "noindex, nofollow" },
  // The tracking form is public; a tracked order (?id=…) is not.
  { prefix: "/track-order", withQueryOnly: true, robots: "noindex, nofollow" },
  { prefix: "/facture/", robots: "noindex, nofollow" },
  { prefix: "/avoir/", robots: "noindex, nofollow" },
  { prefix: "/mon-abonnement", robots: "noindex, nofollow" },
  { prefix: "/abonnement/", robots: "noindex, nofollow" },
  { prefix: "/retractation", robots: "noindex, nofollow" },
  { prefix: "/stripe-emulator", robots: "noindex, nofollow" },
];

function matchesPrefix(pathname: string, prefix: string) {
  if (prefix.endsWith("/")) return pathname.startsWith(prefix);
  return pathname === prefix || pathname.startsWith(`${prefix}/`) || pathname.startsWith(`${prefix}.`);
}

/** The robots meta of a private page, or null for a public one. */
export function privatePageRobots(pathname: string, search = ""): PrivatePath["robots"] | null {
  const hasQuery = search.replace(/^\?/, "") !== "";
  const found = PRIVATE_PATHS.find((p) => matchesPrefix(pathname, p.prefix) && (!p.withQueryOnly || hasQuery));
  return found?.robots ?? null;
}

/** robots.txt: every private path disallowed, the rest open, and where the sitemap is. */
export function robotsTxt(publicUrl: string): string {
  const disallow = PRIVATE_PATHS.map((p) => `Disallow: ${p.prefix}${p.withQueryOnly ? "?" : ""}`);
  return ["User-agent: *", ...disallow, "Allow: /", "", `Sitemap: ${publicUrl}/sitemap.xml`, ""].join("\n");
}

/** The canonical URL of a page: the shop's public address and the path, without query string or trailing slash. */
export function canonicalUrl(publicUrl: string, pathname: string): string {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : "/";
  return `${publicUrl}${path || "/"}`;
}

/** A path or URL of the shop made absolute (an image of a product, the logo…). */
export function absoluteUrl(publicUrl: string, pathOrUrl: string): string {
  if (/^https?:\/\//i.test(pathOrUrl)) return pathOrUrl;
  return `${publicUrl}${pathOrUrl.startsWith("/") ? "" : "/"}${pathOrUrl}`;
}

/**
 * What a route tells the page's head through its `handle`: `seo.type` "product" for the
 * product page (og:type), and `seo.indexable(data)` false where the page shows no content of its
 * own (a product or a page that does not exist): no canonical link, `noindex`.
 */
export type SeoHandle = {
  seo?: {
    type?: "website" | "product";
    indexable?: (data: unknown) => boolean;
  };
};
