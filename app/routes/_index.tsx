import { json, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ClosingCta } from "~/components/shop/landing/ClosingCta";
import { FaqAccordion } from "~/components/shop/landing/FaqAccordion";
import { Hero } from "~/components/shop/landing/Hero";
import { OrganizationJsonLd } from "~/components/shop/seo/OrganizationJsonLd";
import { PressLogos } from "~/components/shop/landing/PressLogos";
import { Reasons } from "~/components/shop/landing/Reasons";
import { Testimonials } from "~/components/shop/landing/Testimonials";
import { UsageGuide } from "~/components/shop/landing/UsageGuide";
import { LANDING_FAQ } from "~/lib/faq";
import { PRODUCT_ID } from "~/lib/brand";
import { pageMeta } from "~/lib/meta";
import { shopPacks } from "~/services/packs.server";

export const meta: MetaFunction = () =>
  pageMeta(
    "Masque hydrogel au collagène : hydratation, éclat, fermeté",
    "Le masque hydrogel au collagène marin qui hydrate, ravive l'éclat et raffermit la peau en 20 minutes. Coffret d'essai, livraison gratuite, satisfait ou remboursé.",
  );

/** The landing page sells product 1: its trial pack, at today's price (the page is rendered at each visit). */
export async function loader() {
  const trial = (await shopPacks(PRODUCT_ID)).find((p) => p.trial);
  return json({ trial: trial ? { masks: trial.masks, priceCents: trial.priceCents } : null });
}

export default function Index() {
  const { trial } = useLoaderData<typeof loader>();
  return (
    <>
      <OrganizationJsonLd />
      <Hero trial={trial} />
      <PressLogos />
      <Reasons />
      <Testimonials />
      <section aria-labelledby="usage-title" className="container-page py-16 md:py-24">
        <p className="text-center text-sm font-semibold uppercase tracking-[0.18em] text-rose-700">Mode d'emploi</p>
        <h2 id="usage-title" className="mt-2 text-center font-serif text-3xl text-ink md:text-4xl">
          Votre rituel en 4 étapes
        </h2>
        <p className="mx-auto mt-3 max-w-xl text-center text-ink-soft">Choisissez une étape pour la voir en image.</p>
        <div className="mt-10">
          <UsageGuide />
        </div>
      </section>
      <section aria-labelledby="faq-title" className="bg-sand/60 py-16 md:py-24">
        <div className="container-page max-w-3xl">
          <h2 id="faq-title" className="text-center font-serif text-3xl text-ink md:text-4xl">
            Questions fréquentes
          </h2>
          <div className="mt-10">
            <FaqAccordion items={LANDING_FAQ} />
          </div>
        </div>
      </section>
      <ClosingCta />
    </>
  );
}
