import { getConfig } from "~/config.server";
import { cacheControl, PUBLIC_CRAWLER_FILES } from "~/http/cache-control";
import { robotsTxt } from "~/lib/seo";

/** GET /robots.txt: the private pages kept out of search engines (lib/seo.ts), and the sitemap. */
export function loader() {
  return new Response(robotsTxt(getConfig().publicUrl), {
    headers: { "Content-Type": "text/plain; charset=utf-8", ...cacheControl(PUBLIC_CRAWLER_FILES) },
  });
}
