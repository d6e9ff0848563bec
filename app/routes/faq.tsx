import type { MetaFunction } from "@remix-run/node";
import { FaqList } from "~/components/shop/static/FaqList";
import { StaticPage } from "~/components/shop/static/StaticPage";
import { TextLink } from "~/components/shop/static/TextLink";
import { ALL_FAQ } from "~/content/faq";
import { pageMeta } from "~/lib/meta";

export const meta: MetaFunction = () =>
  pageMeta(
    "Questions fréquentes",
    "Utilisation du masque au collagène, types de peau, ingrédients, livraison gratuite, abonnement, retours : toutes les réponses à vos questions.",
  );

export default function Faq() {
  return (
    <StaticPage
      eyebrow="Aide"
      title="Questions fréquentes"
      prose={false}
      intro={
        <p>
          Tout ce qu'il faut savoir sur nos masques au collagène, votre commande et votre abonnement. Touchez une question pour
          afficher sa réponse.
        </p>
      }
    >
      <FaqList entries={ALL_FAQ} />
      <section aria-labelledby="autre-question" className="mt-10 rounded-2xl bg-sand p-6 text-center">
        <h2 id="autre-question" className="font-serif text-xl">
          Vous ne trouvez pas votre réponse ?
        </h2>
        <p className="mt-2 text-ink-soft">
          Notre équipe vous répond du lundi au samedi. Écrivez-nous depuis la page <TextLink to="/contact">Contact</TextLink>.
        </p>
      </section>
    </StaticPage>
  );
}
