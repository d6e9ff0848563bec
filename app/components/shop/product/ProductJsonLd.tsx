import { centsToDecimal } from "~/lib/money";
import type { ShopPack } from "~/lib/packs";

type Props = {
  product: { id: number; name: string; description: string; images: string[]; stock: number };
  offer: { packs: ShopPack[]; unitPriceCents: number | null; sold: boolean };
};

/** schema.org Product data for search engines: the offers are the packs on sale at their prices (or the single item). */
export function ProductJsonLd({ product, offer }: Props) {
  if (!offer.sold) return null;
  const availability = product.stock > 0 ? "https://schema.org/InStock" : "https://schema.org/OutOfStock";
  const offers = offer.packs.length
    ? offer.packs.map((pack) => ({ "@type": "Offer", name: pack.name, price: centsToDecimal(pack.priceCents), priceCurrency: "EUR", availability }))
    : [{ "@type": "Offer", price: centsToDecimal(offer.unitPriceCents), priceCurrency: "EUR", availability }];
  const data = {
    "@context": "https://schema.org",
    "@type": "Product",
    name: product.name,
    description: product.description,
    image: product.images,
    offers,
  };
  // Escaped so that no text of the product can close the script element.
  const json = JSON.stringify(data).replace(/</g, "\\u003c");
  return <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: json }} />;
}
