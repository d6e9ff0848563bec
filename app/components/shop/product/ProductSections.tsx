import { Link } from "@remix-run/react";
import { DELIVERY, USAGE } from "~/content/brand";
import { CheckIcon, ClockIcon } from "../landing/icons";

const SKIN_TYPES = [
  {
    title: "Peau grasse",
    text: "Hydrate sans graisser : la texture gel ne laisse aucun film et respecte l'équilibre de la peau.",
  },
  { title: "Peau sensible", text: "Formule douce, sans parfum ajouté ni alcool, pour apaiser les peaux réactives." },
  { title: "Peau sèche", text: "Le collagène et l'acide hyaluronique réhydratent et assouplissent les peaux qui tiraillent." },
  { title: "Peau mature", text: "Un effet tenseur immédiat qui lisse les ridules et redessine l'ovale du visage." },
];

export function SkinTypes() {
  return (
    <section aria-labelledby="peaux-titre" className="container-page below-fold py-14 md:py-20">
      <h2 id="peaux-titre" className="text-center font-serif text-3xl text-ink">
        Pour tous les types de peau
      </h2>
      <ul className="mt-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {SKIN_TYPES.map((s) => (
          <li key={s.title} className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-ink/5">
            <h3 className="font-serif text-xl text-ink">{s.title}</h3>
            <p className="mt-2 leading-relaxed text-ink-soft">{s.text}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}

const CLAIMS = [
  "Ridules visiblement lissées dès la première application",
  "Peau plus ferme et plus élastique après 4 semaines",
  "Contour des yeux défroissé, regard reposé",
  "Collagène marin et acide hyaluronique pour repulper la peau",
];

export function AntiWrinkle() {
  return (
    <section aria-labelledby="rides-titre" className="below-fold bg-sand/60 py-14 md:py-20">
      <div className="container-page grid items-center gap-10 md:grid-cols-2">
        <img
          src="/images/product-texture.svg"
          alt="Gros plan sur la texture gel du sérum au collagène"
          width={600}
          height={600}
          loading="lazy"
          className="mx-auto aspect-[2/1] w-full max-w-sm rounded-3xl object-cover shadow-sm md:aspect-square"
        />
        <div>
          <h2 id="rides-titre" className="font-serif text-3xl text-ink">
            Une action anti-rides visible
          </h2>
          <p className="mt-3 leading-relaxed text-ink-soft">
            Gorgé de sérum, l'hydrogel adhère parfaitement à la peau et diffuse ses actifs en continu pendant la pose.
          </p>
          <ul className="mt-6 space-y-3">
            {CLAIMS.map((c) => (
              <li key={c} className="flex items-start gap-3 text-ink">
                <span className="mt-0.5 flex h-6 w-6 shrink-0 items-center justify-center rounded-full bg-rose-600 text-white">
                  <CheckIcon className="h-4 w-4" />
                </span>
                {c}
              </li>
            ))}
          </ul>
        </div>
      </div>
    </section>
  );
}

const RESULTS = [
  { value: "92%", text: "ont une peau plus hydratée" },
  { value: "89%", text: "trouvent leur teint plus éclatant" },
  { value: "87%", text: "constatent une peau plus ferme" },
];

export function Results() {
  return (
    <section aria-labelledby="resultats-titre" className="container-page below-fold py-14 md:py-20">
      <h2 id="resultats-titre" className="text-center font-serif text-3xl text-ink">
        Des résultats constatés par nos clientes
      </h2>
      <ul className="mt-8 grid grid-cols-3 gap-2 sm:gap-4">
        {RESULTS.map((r) => (
          <li key={r.value} className="rounded-2xl bg-rose-50 px-2 py-5 text-center ring-1 ring-rose-100 sm:p-6">
            <p className="font-serif text-3xl text-rose-700 sm:text-5xl">{r.value}</p>
            <p className="mt-2 text-sm text-ink sm:text-base">{r.text}</p>
          </li>
        ))}
      </ul>
      <p className="mt-5 text-center text-sm text-ink-soft">
        Enquête de satisfaction menée auprès de 500 utilisatrices après 4 semaines d'utilisation.
      </p>
    </section>
  );
}

export function PurchaseTerms() {
  return (
    <div className="space-y-3">
      <p>
        <strong className="text-ink">Achat unique :</strong> vous payez une seule fois le pack choisi, sans engagement.
      </p>
      <p>
        <strong className="text-ink">Abonnement :</strong> vous êtes débité aujourd'hui du prix du pack, puis du même montant
        toutes les 4 semaines à partir du 30e jour. Vous pouvez le résilier en ligne à tout moment, sans frais :{" "}
        <Link to="/abonnement/resilier" className="font-medium text-rose-700 underline">
          Résilier mon abonnement
        </Link>
        , ou depuis le lien de vos emails.
      </p>
      <p>
        Vous choisissez l'achat unique ou l'abonnement au moment de la commande ; l'abonnement n'est jamais activé sans votre
        accord explicite.
      </p>
      <p>
        Livraison gratuite : expédition sous {DELIVERY.shippedWithin}, réception en {DELIVERY.arrival}. Vous disposez de{" "}
        {DELIVERY.withdrawalDays} jours pour changer d'avis ; le remboursement intervient sous {DELIVERY.refundDays} jours.{" "}
        <Link to="/cgv" className="font-medium text-rose-700 underline">
          Conditions générales de vente
        </Link>
      </p>
    </div>
  );
}

const RECOMMENDED_STEPS = [
  "Nettoyez et séchez soigneusement votre visage.",
  "Ouvrez le sachet et dépliez délicatement le masque.",
  "Retirez le film protecteur et posez le masque en commençant par le front.",
  "Lissez du bout des doigts pour chasser les bulles d'air.",
  "Laissez poser 15 à 20 minutes en vous détendant.",
  "Retirez le masque et massez le sérum restant jusqu'à pénétration, sans rincer.",
];

export function RecommendedUse() {
  return (
    <div>
      <p className="flex flex-wrap gap-x-6 gap-y-1 font-medium text-ink">
        <span className="inline-flex items-center gap-1.5">
          <ClockIcon className="h-4 w-4 text-rose-600" /> 15-20 minutes de pose
        </span>
        <span>{USAGE.perWeek}</span>
      </p>
      <ol className="mt-3 list-decimal space-y-1.5 pl-5">
        {RECOMMENDED_STEPS.map((s) => (
          <li key={s}>{s}</li>
        ))}
      </ol>
    </div>
  );
}
