import { Link } from "@remix-run/react";
import { PRODUCT_ID } from "~/content/brand";
import { formatPrice } from "~/lib/money";
import { HERO_ART } from "./hero-art";
import { CheckIcon } from "./icons";
import { Stars } from "./Stars";

export const ORDER_HREF = `/product/${PRODUCT_ID}`;

const BENEFITS = [
  "Hydrate intensément dès la première pose",
  "Ravive l'éclat du teint en 20 minutes",
  "Raffermit la peau et lisse les ridules",
];

/** The trial pack on sale (the landing page's loader reads it), or null when there is none. */
export type HeroTrial = { masks: number; priceCents: number } | null;

export function Hero({ trial }: { trial: HeroTrial }) {
  return (
    <section aria-labelledby="hero-title" className="overflow-hidden bg-gradient-to-b from-rose-50 to-ivory">
      <div className="container-page grid items-center gap-10 py-10 md:grid-cols-2 md:py-20">
        <div>
          <p className="text-sm font-semibold uppercase tracking-[0.18em] text-rose-700">Masque hydrogel au collagène</p>
          <h1 id="hero-title" className="mt-3 font-serif text-4xl leading-tight text-ink sm:text-5xl lg:text-6xl">
            Hydratation, éclat, fermeté.
          </h1>
          <ul className="mt-6 space-y-3">
            {BENEFITS.map((b) => (
              <li key={b} className="flex items-start gap-3 text-lg text-ink">
                <span className="mt-0.5 flex h-6 w-6 shrink-0 items-center justify-center rounded-full bg-rose-100 text-rose-700">
                  <CheckIcon className="h-4 w-4" />
                </span>
                {b}
              </li>
            ))}
          </ul>
          <div className="mt-8 flex flex-col gap-4 sm:flex-row sm:items-center">
            <Link to={ORDER_HREF} className="btn-primary whitespace-nowrap px-8 py-4 text-lg">
              Commander maintenant
            </Link>
            {trial ? (
              <p className="text-sm text-ink-soft">
                Coffret d'essai de {trial.masks} masques à <strong className="text-ink">{formatPrice(trial.priceCents)}</strong>
              </p>
            ) : null}
          </div>
          <p className="mt-6 flex items-center gap-2 text-sm text-ink-soft">
            <Stars />
            <span>
              <strong className="font-semibold text-ink">4,8</strong> / +10&#8239;000 clientes
            </span>
          </p>
        </div>
        <div className="relative mx-auto w-full max-w-md md:max-w-none">
          {/* Inline, so that it shows with the first paint (hero-art.ts). */}
          <svg
            xmlns="http://www.w3.org/2000/svg"
            viewBox="0 0 480 520"
            width={480}
            height={520}
            role="img"
            aria-label="Illustration : une femme détendue portant le masque hydrogel, à côté du coffret Maison Éclat"
            className="block h-auto w-full overflow-hidden rounded-[2rem] shadow-xl shadow-rose-200/50"
            dangerouslySetInnerHTML={{ __html: HERO_ART }}
          />
        </div>
      </div>
    </section>
  );
}
