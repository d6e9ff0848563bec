import { DropIcon, LeafIcon, LiftIcon, SparkleIcon } from "./icons";

const REASONS = [
  {
    title: "Hydratation intense",
    text: "L'acide hyaluronique et le collagène marin gorgent la peau d'eau dès la première pose.",
    Icon: DropIcon,
  },
  {
    title: "Éclat retrouvé",
    text: "La niacinamide unifie le teint et ravive sa luminosité en seulement 20 minutes.",
    Icon: SparkleIcon,
  },
  {
    title: "Effet tenseur",
    text: "L'hydrogel épouse les contours du visage et lisse visiblement les ridules.",
    Icon: LiftIcon,
  },
  {
    title: "Formule douce",
    text: "Sans parabène ni parfum ajouté, jamais testée sur les animaux. Idéale pour les peaux sensibles.",
    Icon: LeafIcon,
  },
];

export function Reasons() {
  return (
    <section aria-labelledby="reasons-title" className="container-page below-fold py-16 md:py-24">
      <p className="text-center text-sm font-semibold uppercase tracking-[0.18em] text-rose-700">Pourquoi l'adopter</p>
      <h2 id="reasons-title" className="mt-2 text-center font-serif text-3xl text-ink md:text-4xl">
        4 raisons d'essayer le masque
      </h2>
      <ul className="mt-10 grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
        {REASONS.map(({ title, text, Icon }) => (
          <li key={title} className="flex gap-4 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-ink/5 lg:block lg:p-6">
            <span className="flex h-12 w-12 shrink-0 items-center justify-center rounded-full bg-rose-100 text-rose-700">
              <Icon />
            </span>
            <div>
              <h3 className="font-serif text-xl text-ink lg:mt-4">{title}</h3>
              <p className="mt-1 leading-relaxed text-ink-soft lg:mt-2">{text}</p>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
