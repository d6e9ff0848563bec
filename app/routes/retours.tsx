import type { MetaFunction } from "@remix-run/node";
import { InfoFacts } from "~/components/shop/static/InfoFacts";
import { StaticPage } from "~/components/shop/static/StaticPage";
import { TextLink } from "~/components/shop/static/TextLink";
import { DELIVERY } from "~/content/brand";
import { pageMeta } from "~/lib/meta";

export const meta: MetaFunction = () =>
  pageMeta(
    "Retours et remboursements",
    "14 jours après réception pour changer d'avis, remboursement sous 14 jours : comment retourner un produit Maison Éclat.",
  );

export default function Retours() {
  return (
    <StaticPage
      eyebrow="Aide"
      title="Retours et remboursements"
      intro={
        <p>
          Vous avez changé d'avis ? Vous disposez de {DELIVERY.withdrawalDays} jours après réception de votre commande pour nous
          la retourner, sans avoir à vous justifier.
        </p>
      }
    >
      <InfoFacts
        facts={[
          { label: "Pour changer d'avis", value: `${DELIVERY.withdrawalDays} jours après réception` },
          { label: "Remboursement", value: `Sous ${DELIVERY.refundDays} jours` },
          { label: "Produit défectueux", value: "Remplacé ou remboursé" },
        ]}
      />

      <h2>Comment retourner un produit</h2>
      <ol className="list-decimal pl-5">
        <li>
          Dans les {DELIVERY.withdrawalDays} jours suivant la réception, prévenez-nous depuis la page{" "}
          <TextLink to="/contact">Contact</TextLink> en indiquant votre numéro de commande et les produits concernés.
        </li>
        <li>Nous vous confirmons votre demande et vous indiquons l'adresse de retour.</li>
        <li>
          Renvoyez les sachets non ouverts dans leur emballage d'origine, au plus tard 14 jours après nous avoir prévenus. Les
          frais de retour sont à votre charge.
        </li>
        <li>
          Nous vous remboursons sous {DELIVERY.refundDays} jours, par le moyen de paiement utilisé lors de la commande. Le
          remboursement peut attendre la réception du colis ou la preuve de son expédition.
        </li>
      </ol>

      <h2>Sachets non ouverts uniquement</h2>
      <p>
        Pour des raisons d'hygiène, seuls les sachets encore scellés peuvent être retournés : un masque dont le sachet a été
        ouvert ne peut être ni repris ni remboursé. Les autres sachets non ouverts d'un même pack restent retournables.
      </p>

      <h2>Produit abîmé ou défectueux</h2>
      <p>
        Un sachet abîmé, un colis endommagé ou un produit non conforme ? Signalez-le-nous dans les 14 jours suivant la réception,
        avec une photo, depuis la page <TextLink to="/contact">Contact</TextLink>. Nous vous le remplaçons ou vous le remboursons,
        et les frais de retour sont alors à notre charge. Vous bénéficiez en outre des garanties légales de conformité et des
        vices cachés.
      </p>

      <h2>Abonnement</h2>
      <p>
        Le droit de retour s'applique aussi à l'abonnement, à compter de la réception du premier pack. Vous pouvez par ailleurs
        annuler votre abonnement à tout moment, sans frais : aucune échéance n'est débitée après votre demande.
      </p>

      <p className="text-sm">
        Le détail de vos droits figure dans nos <TextLink to="/cgv">conditions générales de vente</TextLink> (droit de
        rétractation et garanties légales).
      </p>
    </StaticPage>
  );
}
