/**
 * The brand's name (content/brand.ts re-exports it): here, with the page titles that carry it, so
 * that a page's head needs no other module.
 */
export const BRAND = "Maison Éclat";

/**
 * Title and description of a page; every page has its own. A shared link shows them too
 * (OpenGraph and Twitter card); the rest of its preview comes from the root (SeoTags).
 */
export function pageMeta(title: string, description: string) {
  return [
    { title: `${title} | ${BRAND}` },
    { name: "description", content: description },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { name: "twitter:title", content: title },
    { name: "twitter:description", content: description },
  ];
}
