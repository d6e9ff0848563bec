import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useLoaderData, type ClientLoaderFunctionArgs } from "@remix-run/react";
import { deferred } from "~/components/ui/hydration";
import { parseImageIndex } from "~/components/shop/product/image-index";
import { parseIdOrNull } from "~/lib/ids";
import { pageMeta } from "~/lib/meta";
import type { SeoHandle } from "~/lib/seo";
import { trialOfferBannerText } from "~/lib/offer-banner";
import { getProduct } from "~/services/catalog.server";
import { productOffer, type ProductOffer } from "~/services/packs.server";
import { getSettings } from "~/services/settings.server";
import { log } from "~/log.server";

const NOT_FOUND_TITLE = "Produit non trouvé";
const NOT_FOUND_TEXT = "Nous n'avons pas pu trouver le produit que vous cherchez.";

export async function loader({ params, request }: LoaderFunctionArgs) {
  const id = parseIdOrNull(params.id);
  const none = { product: null, imageIndex: 0, offer: null, banner: null };
  if (id === null) return data(none, { status: 404 });
  let found: Awaited<ReturnType<typeof getProduct>>;
  try {
    found = await getProduct(id);
  } catch (error) {
    log.error({ err: error }, "product not loaded");
    return data(none, { status: 503 });
  }
  if (!found) return data(none, { status: 404 });

  const images = Array.isArray(found.images)
    ? found.images.filter((s): s is string => typeof s === "string" && s.length > 0)
    : [];
  const product = {
    id: found.id,
    name: found.name,
    description: found.description,
    sku: found.sku,
    category: found.category,
    images,
    stock: found.stock,
  };
  const imageIndex = parseImageIndex(new URL(request.url).searchParams.get("image"), images.length);
  const now = new Date();
  const offer: ProductOffer = await productOffer(found, now);
  // The countdown only where the trial offer is sold, and only until its end (the page is never
  // kept by a shared cache: it is rendered again at each visit).
  const endsAt = (await getSettings()).trialOfferEndsAt;
  const text = offer.packs.some((p) => p.trial) ? trialOfferBannerText(endsAt, now) : null;
  const banner = endsAt && text ? { endsAt, text } : null;
  return { product, imageIndex, offer, banner };
}

/** A product page for search engines and shared links (og:type product); an unknown product's page is not indexed. */
export const handle: SeoHandle = {
  seo: { type: "product", indexable: (data) => Boolean((data as { product?: unknown } | undefined)?.product) },
};

export const meta: MetaFunction<typeof loader> = ({ data }) => {
  const product = data?.product;
  if (!product) return pageMeta(NOT_FOUND_TITLE, NOT_FOUND_TEXT);
  const description =
    product.description.length > 155 ? `${product.description.slice(0, 152).trimEnd()}...` : product.description;
  return pageMeta(product.name, description || "Masque hydrogel au collagène : hydratation, éclat, fermeté.");
};

/**
 * The page's code is not among its scripts: its HTML comes with the page and it hydrates when
 * its module arrives (ui/hydration.tsx).
 */
const ProductPage = deferred(() => import("~/components/shop/product/ProductPage").then((m) => m.ProductPage));

/** A client-side navigation to a product page fetches the page's code with the data (if it fails, rendering the page tries again). */
export async function clientLoader({ serverLoader }: ClientLoaderFunctionArgs) {
  const [data] = await Promise.all([serverLoader<typeof loader>(), ProductPage.preload().catch(() => null)]);
  return data;
}

export default function ProductRoute() {
  return <ProductPage {...useLoaderData<typeof loader>()} />;
}
