import { Stars } from "./Stars";

const TESTIMONIALS = [
  {
    name: "Sophie",
    age: 52,
    quote:
      "Ma peau était terne et marquée par la fatigue. Après quatre semaines, mes ridules autour des yeux se voient beaucoup moins.",
    before: "/images/testimonial-1-avant.svg",
    after: "/images/testimonial-1-apres.svg",
    beforeAlt: "Illustration : Sophie avant la cure, teint terne et ridules marquées",
    afterAlt: "Illustration : Sophie après 4 semaines, teint lumineux et traits lissés",
  },
  {
    name: "Camille",
    age: 34,
    quote: "Je le pose le dimanche soir : le lundi matin, mon teint est frais et lumineux. Je ne m'en passe plus.",
    before: "/images/testimonial-2-avant.svg",
    after: "/images/testimonial-2-apres.svg",
    beforeAlt: "Illustration : Camille avant la cure, teint fatigué et cernes",
    afterAlt: "Illustration : Camille après 4 semaines, teint frais et joues rosées",
  },
  {
    name: "Nadia",
    age: 41,
    quote: "Ma peau sèche tiraille beaucoup moins. Elle est plus souple, plus rebondie, et mon maquillage tient mieux.",
    before: "/images/testimonial-3-avant.svg",
    after: "/images/testimonial-3-apres.svg",
    beforeAlt: "Illustration : Nadia avant la cure, peau sèche et terne",
    afterAlt: "Illustration : Nadia après 4 semaines, peau souple et éclatante",
  },
];

function Photo({ src, alt, label, highlight }: { src: string; alt: string; label: string; highlight?: boolean }) {
  return (
    <figure className="relative">
      <img src={src} alt={alt} width={240} height={240} loading="lazy" className="aspect-square w-full rounded-xl object-cover" />
      <figcaption
        className={`absolute bottom-2 left-2 rounded-full px-2.5 py-0.5 text-xs font-semibold ${
          highlight ? "bg-rose-600 text-white" : "bg-white/90 text-ink"
        }`}
      >
        {label}
      </figcaption>
    </figure>
  );
}

export function Testimonials() {
  return (
    <section aria-labelledby="testimonials-title" className="below-fold bg-sand/60 py-16 md:py-24">
      <div className="container-page">
        <p className="text-center text-sm font-semibold uppercase tracking-[0.18em] text-rose-700">Avant / après</p>
        <h2 id="testimonials-title" className="mt-2 text-center font-serif text-3xl text-ink md:text-4xl">
          Elles ont adopté le masque
        </h2>
        <ul className="mt-10 grid gap-6 md:grid-cols-3">
          {TESTIMONIALS.map((t) => (
            <li key={t.name} className="flex flex-col rounded-2xl bg-white p-4 shadow-sm ring-1 ring-ink/5 sm:p-5">
              <div className="grid grid-cols-2 gap-2">
                <Photo src={t.before} alt={t.beforeAlt} label="Avant" />
                <Photo src={t.after} alt={t.afterAlt} label="Après" highlight />
              </div>
              <h3 className="mt-5 font-serif text-lg text-ink">
                {t.name}, {t.age} ans
              </h3>
              <p className="mt-1 flex items-center gap-2 text-sm text-ink-soft">
                <Stars className="h-3.5 w-3.5" />
                <span>5 sur 5 · après 4 semaines</span>
              </p>
              <blockquote className="mt-3 flex-1 leading-relaxed text-ink-soft">
                <p>« {t.quote} »</p>
              </blockquote>
            </li>
          ))}
        </ul>
        <p className="mt-6 text-center text-xs text-ink-soft">
          Illustrations. Résultats individuels, pouvant varier d'une personne à l'autre.
        </p>
      </div>
    </section>
  );
}
