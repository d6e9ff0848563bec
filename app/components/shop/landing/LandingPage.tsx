import { ClosingCta } from "~/components/shop/landing/ClosingCta";
import { FaqAccordion } from "~/components/shop/landing/FaqAccordion";
import { Hero, type HeroTrial } from "~/components/shop/landing/Hero";
import { PressLogos } from "~/components/shop/landing/PressLogos";
import { Reasons } from "~/components/shop/landing/Reasons";
import { Testimonials } from "~/components/shop/landing/Testimonials";
import { UsageGuide } from "~/components/shop/landing/UsageGuide";
import { OrganizationJsonLd } from "~/components/shop/seo/OrganizationJsonLd";
import { LANDING_FAQ } from "~/content/faq";

/** The landing page's seven sections (routes/_index.tsx). */
export function LandingPage({ trial }: { trial: HeroTrial }) {
  return (
    <>
      <OrganizationJsonLd />
      <Hero trial={trial} />
      <PressLogos />
      <Reasons />
      <Testimonials />
      <section aria-labelledby="usage-title" className="container-page below-fold py-16 md:py-24">
        <p className="text-center text-sm font-semibold uppercase tracking-[0.18em] text-rose-700">Mode d'emploi</p>
        <h2 id="usage-title" className="mt-2 text-center font-serif text-3xl text-ink md:text-4xl">
          Votre rituel en 4 étapes
        </h2>
        <p className="mx-auto mt-3 max-w-xl text-center text-ink-soft">Choisissez une étape pour la voir en image.</p>
        <div className="mt-10">
          <UsageGuide />
        </div>
      </section>
      <section aria-labelledby="faq-title" className="below-fold bg-sand/60 py-16 md:py-24">
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
