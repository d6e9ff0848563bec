import { statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { eq, max } from "drizzle-orm";
import { getDb, type DbOrTx } from "~/db/client.server";
import { packs, siteSettings } from "~/db/schema";
import { CURRENT_TERMS_VERSION } from "~/legal/terms-of-sale";
import { PRODUCT_ID } from "~/content/brand";
import { productOffer } from "./packs.server";
import { listProducts } from "./catalog.server";

/**
 * The sitemap: the shop's public pages with the date each last changed, as far as the shop
 * knows it:
 * - a product page: when its product or one of its packs last changed;
 * - the terms of sale: the date of the version in force (the date the page shows), or the
 *   settings' last change when later (the page quotes the seller's contact details);
 * - the other pages are written in the code: the running build's date, or the settings' last
 *   change for those that show them; the landing page also sells the trial pack of product 1.
 */

type SitemapEntry = { path: string; lastmod: string };

/** The pages written in the code, and what else they show: the site settings, the terms of sale. */
const STATIC_PAGES: readonly { path: string; shows?: "settings" | "terms" }[] = [
  { path: "/faq" },
  { path: "/contact", shows: "settings" },
  { path: "/livraison" },
  { path: "/retours" },
  { path: "/cgv", shows: "terms" },
  { path: "/mentions-legales", shows: "settings" },
  { path: "/politique-confidentialite", shows: "settings" },
];

let buildTime: string | undefined;

/** When the running server code was built: the modification time of this module's file (the server build). */
export function buildDate(): string {
  if (!buildTime) {
    try {
      buildTime = statSync(fileURLToPath(import.meta.url)).mtime.toISOString();
    } catch {
      buildTime = new Date().toISOString();
    }
  }
  return buildTime;
}

/** The latest of these dates (ISO); the build's date when none is valid. */
function latest(...dates: (string | null | undefined)[]): string {
  const valid = dates.filter((d): d is string => typeof d === "string" && !Number.isNaN(Date.parse(d)));
  return valid.length ? valid.reduce((a, b) => (Date.parse(b) > Date.parse(a) ? b : a)) : buildDate();
}

/** A W3C datetime in UTC to the second ("2026-11-20T09:30:00Z"). */
function w3cDate(iso: string): string {
  return new Date(iso).toISOString().replace(/\.\d{3}Z$/, "Z");
}

async function settingsUpdatedAt(db: DbOrTx): Promise<string | null> {
  return (
    (await db.select({ at: siteSettings.updatedAt }).from(siteSettings).where(eq(siteSettings.id, 1)).limit(1))[0]?.at ?? null
  );
}

async function packsUpdatedAt(db: DbOrTx, productId: number): Promise<string | null> {
  return (
    (
      await db
        .select({ at: max(packs.updatedAt) })
        .from(packs)
        .where(eq(packs.productId, productId))
        .limit(1)
    )[0]?.at ?? null
  );
}

/** The public pages and their last change: the landing page, each product on sale, then the pages of the code. */
export async function sitemapEntries(built: string = buildDate(), db: DbOrTx = getDb()): Promise<SitemapEntry[]> {
  const settings = await settingsUpdatedAt(db);
  const products: { id: number; lastmod: string }[] = [];
  for (const product of await listProducts()) {
    if (!(await productOffer(product)).sold) continue;
    products.push({ id: product.id, lastmod: latest(product.updatedAt, await packsUpdatedAt(db, product.id)) });
  }
  const landingProduct = products.find((p) => p.id === PRODUCT_ID)?.lastmod;
  return [
    { path: "/", lastmod: latest(built, settings, landingProduct) },
    ...products.map((p) => ({ path: `/product/${p.id}`, lastmod: p.lastmod })),
    ...STATIC_PAGES.map((page) => ({
      path: page.path,
      lastmod:
        page.shows === "terms"
          ? latest(`${CURRENT_TERMS_VERSION}T00:00:00.000Z`, settings)
          : page.shows === "settings"
            ? latest(built, settings)
            : built,
    })),
  ].map((entry) => ({ path: entry.path, lastmod: w3cDate(entry.lastmod) }));
}

function escapeXml(text: string) {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;");
}

/** The sitemap document (sitemaps.org protocol 0.9), every URL absolute. */
export function sitemapXml(publicUrl: string, entries: SitemapEntry[]): string {
  const urls = entries.map(
    (e) => `  <url>\n    <loc>${escapeXml(`${publicUrl}${e.path}`)}</loc>\n    <lastmod>${e.lastmod}</lastmod>\n  </url>`,
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls,
    "</urlset>",
    "",
  ].join("\n");
}
