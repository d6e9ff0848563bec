import { JsonLd, useShopIdentity } from "~/components/shop/seo/JsonLd";
import { productJsonLd, type OfferForJsonLd, type ProductForJsonLd } from "~/lib/structured-data";

/** schema.org Product data for search engines: the offers are the packs on sale at their prices (or the single item). */
export function ProductJsonLd({ product, offer }: { product: ProductForJsonLd; offer: OfferForJsonLd }) {
  const shop = useShopIdentity();
  if (!shop) return null;
  return <JsonLd data={productJsonLd(product, offer, shop)} />;
}
