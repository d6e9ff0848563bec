import type { SerializeFrom } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { FaqAccordion } from "~/components/shop/landing/FaqAccordion";
import { REASSURANCE_NOTES } from "~/components/shop/landing/ClosingCta";
import { Stars } from "~/components/shop/landing/Stars";
import { UsageGuide } from "~/components/shop/landing/UsageGuide";
import { Disclosure } from "~/components/shop/product/Disclosure";
import { Gallery } from "~/components/shop/product/Gallery";
import { OfferBanner } from "~/components/shop/product/OfferBanner";
import { OrderForm } from "~/components/shop/product/OrderForm";
import { ProductNotFound } from "~/components/shop/product/ProductNotFound";
import { ProductJsonLd } from "~/components/shop/product/ProductJsonLd";
import { AntiWrinkle, PurchaseTerms, RecommendedUse, Results, SkinTypes } from "~/components/shop/product/ProductSections";
import { DELIVERY } from "~/content/brand";
import { LANDING_FAQ, MORE_FAQ } from "~/content/faq";
import type { loader } from "~/routes/product.$id";

export type ProductPageData = SerializeFrom<typeof loader>;

const REASSURANCE = [
  { ...REASSURANCE_NOTES[0], label: `Livraison gratuite en ${DELIVERY.arrival}` },
  { ...REASSURANCE_NOTES[1], label: `Satisfait ou remboursé sous ${DELIVERY.refundDays} jours` },
  { ...REASSURANCE_NOTES[2], label: "Paiement sécurisé par carte" },
];

const PRODUCT_FAQ = [...LANDING_FAQ, ...MORE_FAQ.slice(0, 3)];

/** The product page (routes/product.$id.tsx): its loader's data. */
export function ProductPage({ product, imageIndex, offer, banner }: ProductPageData) {
  if (!product || !offer) return <ProductNotFound />;
  const inStock = product.stock > 0;

  return (
    <>
      {banner ? <OfferBanner endsAt={banner.endsAt} initialText={banner.text} /> : null}
      <ProductJsonLd product={product} offer={offer} />

      <div className="container-page pb-6 pt-4 md:pb-12 md:pt-6">
        <nav aria-label="Fil d'Ariane" className="text-sm text-ink-soft">
          <ol className="flex flex-wrap items-center gap-2">
            <li>
              <Link to="/" className="hover:text-rose-700 hover:underline">
                Accueil
              </Link>
            </li>
            <li aria-hidden="true">/</li>
            <li aria-current="page" className="text-ink">
              {product.name}
            </li>
          </ol>
        </nav>

        <div className="mt-4 grid gap-8 md:mt-6 md:grid-cols-2 md:gap-12">
          <Gallery key={product.id} name={product.name} images={product.images} initialIndex={imageIndex} />

          <div>
            {product.category ? (
              <p className="text-sm font-semibold uppercase tracking-[0.18em] text-rose-700">{product.category}</p>
            ) : null}
            <h1 className="mt-2 font-serif text-3xl leading-tight text-ink md:text-4xl">{product.name}</h1>
            <p className="mt-3 flex items-center gap-2 text-sm text-ink-soft">
              <Stars />
              <span>
                <strong className="font-semibold text-ink">4,9</strong> (+1&#8239;500 avis)
              </span>
            </p>
            {product.description ? <p className="mt-4 leading-relaxed text-ink-soft">{product.description}</p> : null}

            <div className="mt-6">
              <OrderForm productId={product.id} inStock={inStock} offer={offer} />
            </div>

            <ul className="mt-5 space-y-2 rounded-2xl bg-sand/70 p-4 text-sm text-ink">
              {REASSURANCE.map(({ label, Icon }) => (
                <li key={label} className="flex items-center gap-3">
                  <Icon className="h-5 w-5 shrink-0 text-rose-700" />
                  {label}
                </li>
              ))}
            </ul>

            <div className="mt-6 space-y-3">
              <Disclosure id="abonnement" title="Conditions d'achat et d'abonnement">
                <PurchaseTerms />
              </Disclosure>
              <Disclosure id="utilisation" title="Utilisation recommandée">
                <RecommendedUse />
              </Disclosure>
            </div>
          </div>
        </div>
      </div>

      <SkinTypes />
      <AntiWrinkle />
      <Results />

      <section aria-labelledby="etapes-titre" className="below-fold bg-sand/60 py-14 md:py-20">
        <div className="container-page">
          <h2 id="etapes-titre" className="text-center font-serif text-3xl text-ink">
            Comment l'utiliser
          </h2>
          <p className="mx-auto mt-3 max-w-xl text-center text-ink-soft">Choisissez une étape pour la voir en image.</p>
          <div className="mt-10">
            <UsageGuide />
          </div>
        </div>
      </section>

      <section aria-labelledby="faq-produit-titre" className="below-fold py-14 md:py-20">
        <div className="container-page max-w-3xl">
          <h2 id="faq-produit-titre" className="text-center font-serif text-3xl text-ink">
            Questions fréquentes
          </h2>
          <div className="mt-8">
            <FaqAccordion items={PRODUCT_FAQ} />
          </div>
        </div>
      </section>
    </>
  );
}
