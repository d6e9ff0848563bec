import { useLocation, useMatches } from "@remix-run/react";
import { canonicalUrl, absoluteUrl, privatePageRobots, SOCIAL_IMAGE, type SeoHandle } from "~/lib/seo";

/**
 * The head tags every page shares, after the page's own title and description (lib/meta.ts):
 * - a public page: its canonical link, and the OpenGraph and Twitter card of a shared link;
 * - a private page (lib/seo.ts's list) or a page without content of its own: `noindex`.
 */
export function SeoTags({ publicUrl, siteName }: { publicUrl: string; siteName: string }) {
  const location = useLocation();
  const matches = useMatches();
  const leaf = matches[matches.length - 1];
  const seo = (leaf?.handle as SeoHandle | undefined)?.seo;
  const privateRobots = privatePageRobots(location.pathname, location.search);
  const indexable = !privateRobots && (seo?.indexable ? seo.indexable(leaf?.data) : true);
  const image = absoluteUrl(publicUrl, SOCIAL_IMAGE.path);
  const url = canonicalUrl(publicUrl, location.pathname);
  return (
    <>
      {indexable ? <link rel="canonical" href={url} /> : <meta name="robots" content={privateRobots ?? "noindex, follow"} />}
      {indexable ? <meta property="og:url" content={url} /> : null}
      <meta property="og:type" content={seo?.type ?? "website"} />
      <meta property="og:site_name" content={siteName} />
      <meta property="og:locale" content="fr_FR" />
      <meta property="og:image" content={image} />
      <meta property="og:image:type" content={SOCIAL_IMAGE.type} />
      <meta property="og:image:width" content={String(SOCIAL_IMAGE.width)} />
      <meta property="og:image:height" content={String(SOCIAL_IMAGE.height)} />
      <meta property="og:image:alt" content={SOCIAL_IMAGE.alt} />
      <meta name="twitter:card" content="summary_large_image" />
      <meta name="twitter:image" content={image} />
      <meta name="twitter:image:alt" content={SOCIAL_IMAGE.alt} />
    </>
  );
}
