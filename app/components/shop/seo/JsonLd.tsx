import { useRouteLoaderData } from "@remix-run/react";
import { useNonce } from "~/components/ui/hydration";
import type { RootPublicData } from "~/lib/public-config";
import { jsonLdText, type SellerSettings } from "~/lib/structured-data";

/** A JSON-LD script element; it carries the page's CSP nonce, like every script of the page. */
export function JsonLd({ data }: { data: Parameters<typeof jsonLdText>[0] | null }) {
  const nonce = useNonce();
  if (!data) return null;
  return <script type="application/ld+json" nonce={nonce} dangerouslySetInnerHTML={{ __html: jsonLdText(data) }} />;
}

/** The shop's public address and the seller's settings, from the root loader (undefined outside the shop's root). */
export function useShopIdentity(): { publicUrl: string; settings: SellerSettings } | undefined {
  const data = useRouteLoaderData<RootPublicData & { settings: SellerSettings }>("root");
  return data ? { publicUrl: data.config.publicUrl, settings: data.settings } : undefined;
}
