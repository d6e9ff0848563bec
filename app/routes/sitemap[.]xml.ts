import { getConfig } from "~/config.server";
import { cacheControl, PUBLIC_CRAWLER_FILES } from "~/http/cache-control";
import { sitemapEntries, sitemapXml } from "~/services/sitemap.server";

/** GET /sitemap.xml: the shop's public pages and their last change (services/sitemap.server.ts). */
export async function loader() {
  return new Response(sitemapXml(getConfig().publicUrl, await sitemapEntries()), {
    headers: { "Content-Type": "application/xml; charset=utf-8", ...cacheControl(PUBLIC_CRAWLER_FILES) },
  });
}
