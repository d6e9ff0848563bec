import type { MetaFunction } from "@remix-run/node";
import { InfoFacts } from "~/components/shop/static/InfoFacts";
import { StaticPage } from "~/components/shop/static/StaticPage";
import { TextLink } from "~/components/shop/static/TextLink";
import { DELIVERY } from "~/content/brand";
import { pageMeta } from "~/lib/meta";

export const meta: MetaFunction = () =>
  pageMeta(
    "Livraison",
    "Livraison gratuite en colis suivi : votre commande est expédiée sous 24 heures et arrive en 7 à 10 jours ouvrés.",
  );

export default function Livraison() {
  return (
    <StaticPage
      eyebrow="Aide"
      title="Livraison"
      intro={<p>La livraison est gratuite sur toutes les commandes, sans minimum d'achat, et chaque colis est suivi.</p>}
    >
      <InfoFacts
        facts={[
          { label: "Frais de livraison", value: "Gratuite" },
          { label: "Expédition", value: `Sous ${DELIVERY.shippedWithin}` },
          { label: "Réception", value: `En ${DELIVERY.arrival}` },
        ]}
      />

      <h2>Livraison en colis suivi</h2>
      <p>
        Votre commande est préparée avec soin et expédiée sous {DELIVERY.shippedWithin} après la confirmation de votre paiement,
        en colis suivi, à l'adresse indiquée lors de la commande. Elle vous parvient en {DELIVERY.arrival}. Nous livrons en
        France.
      </p>
      <p>
        La livraison est gratuite, que vous choisissiez l'achat unique ou l'abonnement : le prix affiché dans votre panier est le
        prix final, sans frais ajoutés.
      </p>

      <h2>Suivre votre colis</h2>
      <p>
        Dès l'expédition, le numéro de suivi de votre colis est associé à votre commande. Saisissez votre numéro de commande,
        indiqué sur la page de confirmation, sur la page <TextLink to="/track-order">Suivre ma commande</TextLink> pour connaître
        son état : commande reçue, en préparation, expédiée, livrée.
      </p>

      <h2>Abonnement</h2>
      <p>
        Avec l'abonnement, chaque nouveau pack est expédié à chaque échéance, toutes les 4 semaines à partir du 30<sup>e</sup>{" "}
        jour, avec la même livraison gratuite.
      </p>

      <h2>Un souci avec votre colis ?</h2>
      <p>
        Colis en retard, abîmé ou incomplet : <TextLink to="/contact">contactez-nous</TextLink> en indiquant votre numéro de
        commande, nous trouvons une solution rapidement. Pour renvoyer un produit, consultez la page{" "}
        <TextLink to="/retours">Retours</TextLink>.
      </p>
    </StaticPage>
  );
}
