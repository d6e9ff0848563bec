import { useId, useState } from "react";

const USAGE_STEPS = [
  {
    title: "Nettoyez",
    text: "Nettoyez puis séchez votre visage pour que la peau reçoive tout le sérum.",
    image: "/images/step-1-nettoyer.svg",
    alt: "Illustration : visage fraîchement nettoyé, entouré de gouttes d'eau",
  },
  {
    title: "Appliquez",
    text: "Dépliez le masque et posez-le en partant du front, puis lissez du bout des doigts.",
    image: "/images/step-2-appliquer.svg",
    alt: "Illustration : le masque hydrogel posé sur le visage",
  },
  {
    title: "Patientez",
    text: "Détendez-vous 15 à 20 minutes, le temps que le collagène agisse.",
    image: "/images/step-3-patienter.svg",
    alt: "Illustration : visage portant le masque à côté d'une horloge, 15 à 20 minutes",
  },
  {
    title: "Massez",
    text: "Retirez le masque et massez le sérum restant jusqu'à pénétration. Inutile de rincer.",
    image: "/images/step-4-masser.svg",
    alt: "Illustration : visage lumineux, massage du sérum par mouvements remontants",
  },
] as const;

/**
 * Four steps; each one is a toggle button (aria-pressed) that shows its illustration.
 * The first step is active at start, so without JavaScript its image is shown and every
 * step's text stays readable.
 */
export function UsageGuide() {
  const [active, setActive] = useState(0);
  const id = useId();
  const figureId = `usage-figure${id}`;
  const step = USAGE_STEPS[active];

  return (
    <div className="grid items-center gap-8 md:grid-cols-2 md:gap-12">
      <figure id={figureId} className="md:order-2" aria-live="polite">
        <img
          src={step.image}
          alt={step.alt}
          width={320}
          height={240}
          loading="lazy"
          className="aspect-[4/3] w-full rounded-3xl object-cover shadow-sm ring-1 ring-ink/5"
        />
        <figcaption className="mt-3 text-center text-sm text-ink-soft">
          Étape {active + 1} sur {USAGE_STEPS.length} : {step.title}
        </figcaption>
      </figure>

      <ol className="space-y-3 md:order-1">
        {USAGE_STEPS.map((s, i) => {
          const pressed = i === active;
          const descId = `usage-desc${id}${i}`;
          return (
            <li
              key={s.title}
              className={`relative flex gap-4 rounded-2xl border p-4 transition has-[:focus-visible]:outline has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-rose-600 ${
                pressed ? "border-rose-600 bg-white shadow-sm" : "border-ink/10 bg-white/60 hover:border-rose-200 hover:bg-white"
              }`}
            >
              <span
                aria-hidden="true"
                className={`flex h-10 w-10 shrink-0 items-center justify-center rounded-full font-serif text-lg ${
                  pressed ? "bg-rose-600 text-white" : "bg-rose-100 text-rose-700"
                }`}
              >
                {i + 1}
              </span>
              <div>
                <h3 className="font-serif text-lg text-ink">
                  <button
                    type="button"
                    aria-pressed={pressed}
                    aria-controls={figureId}
                    aria-describedby={descId}
                    onClick={() => setActive(i)}
                    className="text-left after:absolute after:inset-0 after:rounded-2xl after:content-[''] focus-visible:outline-none"
                  >
                    <span className="sr-only">Étape {i + 1} : </span>
                    {s.title}
                  </button>
                </h3>
                <p id={descId} className="mt-1 text-sm leading-relaxed text-ink-soft">
                  {s.text}
                </p>
              </div>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
