import { organizationJsonLd } from "~/lib/structured-data";
import { JsonLd, useShopIdentity } from "./JsonLd";

/** The shop as an Organization for search engines, from the site settings (the landing page). */
export function OrganizationJsonLd() {
  const shop = useShopIdentity();
  return shop ? <JsonLd data={organizationJsonLd(shop.settings, shop.publicUrl)} /> : null;
}
