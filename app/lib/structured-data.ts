import { addressLines } from "./company";
import { DELIVERY } from "~/content/brand";
import { centsToDecimal } from "./money";
import { normalizeFrenchPhone } from "./phone";
import { absoluteUrl, LOGO_PATH } from "./seo";

/**
 * schema.org data (JSON-LD) for search engines: the product page's Product and its offers,
 * the landing page's Organization. Only facts the shop stores: no rating or review is
 * published (the figures of the marketing copy are not reviews the shop keeps).
 */

type JsonLdObject = { "@context"?: string; "@type": string } & Record<string, unknown>;

/** The seller's identity from the site settings. */
export type SellerSettings = {
  siteName: string;
  legalName: string;
  siteEmail: string;
  sitePhone: string;
  siteAddress: string;
};

export type ProductForJsonLd = {
  id: number;
  name: string;
  description: string;
  sku: string;
  images: string[];
  stock: number;
};

export type OfferForJsonLd = {
  packs: { name: string; priceCents: number }[];
  unitPriceCents: number | null;
  sold: boolean;
};

const SCHEMA = "https://schema.org";

/** Free delivery in France: shipped within a day, delivered in 7 to 10 working days (content/brand.ts). */
function shippingDetails() {
  // "7 à 10 jours ouvrés": handling (0 to 1 day) and transit add up to these.
  const [min, max] = (/^(\d+) à (\d+)/.exec(DELIVERY.arrival) ?? ["", "7", "10"]).slice(1).map(Number);
  return {
    "@type": "OfferShippingDetails",
    shippingRate: { "@type": "MonetaryAmount", value: "0.00", currency: "EUR" },
    shippingDestination: { "@type": "DefinedRegion", addressCountry: "FR" },
    deliveryTime: {
      "@type": "ShippingDeliveryTime",
      handlingTime: { "@type": "QuantitativeValue", minValue: 0, maxValue: 1, unitCode: "DAY" },
      transitTime: { "@type": "QuantitativeValue", minValue: min, maxValue: max - 1, unitCode: "DAY" },
    },
  };
}

/** Returns within the withdrawal period, by post, at the customer's expense (the Retours page). */
function returnPolicy() {
  return {
    "@type": "MerchantReturnPolicy",
    applicableCountry: "FR",
    returnPolicyCategory: `${SCHEMA}/MerchantReturnFiniteReturnWindow`,
    merchantReturnDays: DELIVERY.withdrawalDays,
    returnMethod: `${SCHEMA}/ReturnByMail`,
    returnFees: `${SCHEMA}/ReturnFeesCustomerResponsibility`,
  };
}

/**
 * The product page's Product: one Offer per pack on sale, or one at the product's own price
 * when it is sold without packs. A product that is not sold gets no Product data at all
 * (search engines want a product snippet to carry an offer, a review or a rating).
 */
export function productJsonLd(
  product: ProductForJsonLd,
  offer: OfferForJsonLd,
  shop: { publicUrl: string; settings: Pick<SellerSettings, "siteName" | "legalName"> },
): JsonLdObject | null {
  if (!offer.sold) return null;
  const url = absoluteUrl(shop.publicUrl, `/product/${product.id}`);
  const availability = `${SCHEMA}/${product.stock > 0 ? "InStock" : "OutOfStock"}`;
  const seller = { "@type": "Organization", name: shop.settings.legalName || shop.settings.siteName };
  const common = {
    priceCurrency: "EUR",
    availability,
    itemCondition: `${SCHEMA}/NewCondition`,
    url,
    seller,
    shippingDetails: shippingDetails(),
    hasMerchantReturnPolicy: returnPolicy(),
  };
  const offers = offer.packs.length
    ? offer.packs.map((pack) => ({ "@type": "Offer", name: pack.name, price: centsToDecimal(pack.priceCents), ...common }))
    : offer.unitPriceCents !== null
      ? [{ "@type": "Offer", name: product.name, price: centsToDecimal(offer.unitPriceCents), ...common }]
      : [];
  if (offers.length === 0) return null;
  return {
    "@context": SCHEMA,
    "@type": "Product",
    name: product.name,
    ...(product.description ? { description: product.description } : {}),
    image: product.images.map((image) => absoluteUrl(shop.publicUrl, image)),
    sku: product.sku,
    brand: { "@type": "Brand", name: shop.settings.siteName },
    url,
    offers,
  };
}

/**
 * "12 rue des Lilas\n75011 Paris\nFrance" → a PostalAddress; null when the lines are not a
 * French postal address (street lines, then "code postal + ville", then an optional country).
 */
export function postalAddress(address: string) {
  const lines = addressLines(address);
  const cityIndex = lines.findIndex((line) => /^\d{5}\s+\S/.test(line));
  if (cityIndex < 1) return null;
  const after = lines.slice(cityIndex + 1);
  if (after.length > 1 || (after.length === 1 && !/^france$/i.test(after[0]))) return null;
  const [, postalCode, locality] = /^(\d{5})\s+(.+)$/.exec(lines[cityIndex]) ?? [];
  return {
    "@type": "PostalAddress",
    streetAddress: lines.slice(0, cityIndex).join(", "),
    postalCode,
    addressLocality: locality,
    addressCountry: "FR",
  };
}

/** The shop as an Organization, from the site settings (the landing page). */
export function organizationJsonLd(settings: SellerSettings, publicUrl: string): JsonLdObject {
  const telephone = normalizeFrenchPhone(settings.sitePhone);
  const address = postalAddress(settings.siteAddress);
  return {
    "@context": SCHEMA,
    "@type": "Organization",
    name: settings.siteName,
    ...(settings.legalName ? { legalName: settings.legalName } : {}),
    url: `${publicUrl}/`,
    logo: absoluteUrl(publicUrl, LOGO_PATH),
    ...(settings.siteEmail ? { email: settings.siteEmail } : {}),
    ...(telephone ? { telephone } : {}),
    ...(address ? { address } : {}),
  };
}

/** The JSON text of a script element: no text of the data can close the element. */
export function jsonLdText(data: JsonLdObject): string {
  return JSON.stringify(data).replace(/</g, "\\u003c").replace(/>/g, "\\u003e").replace(/&/g, "\\u0026");
}
