import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { addressOnOneLine, CompanyContact } from "~/components/shop/static/CompanyContact";
import { COMPANY, MEDIATOR } from "~/components/shop/static/company";
import { LegalSection, TableOfContents } from "~/components/shop/static/LegalSection";
import { LEGAL_UPDATED_AT, StaticPage } from "~/components/shop/static/StaticPage";
import { TextLink } from "~/components/shop/static/TextLink";
import { DELIVERY, OPENING_HOURS } from "~/lib/brand";
import { pageMeta } from "~/lib/meta";
import { formatPrice } from "~/lib/money";
import { PACKS } from "~/lib/packs";
import { getSettings } from "~/services/settings.server";

export const meta: MetaFunction = () =>
  pageMeta(
    "Conditions générales de vente",
    "Conditions générales de vente de Maison Éclat : commande, prix, paiement sécurisé, abonnement, livraison gratuite, droit de rétractation de 14 jours et garanties légales.",
  );

export async function loader(_: LoaderFunctionArgs) {
  return json({ settings: getSettings() });
}

const SECTIONS = [
  { id: "objet", title: "Objet" },
  { id: "produits", title: "Produits" },
  { id: "prix", title: "Prix" },
  { id: "commande", title: "Commande" },
  { id: "paiement", title: "Paiement" },
  { id: "abonnement", title: "Abonnement" },
  { id: "livraison", title: "Livraison" },
  { id: "retractation", title: "Droit de rétractation" },
  { id: "garanties", title: "Garanties légales" },
  { id: "service-client", title: "Service client" },
  { id: "responsabilite", title: "Responsabilité" },
  { id: "donnees", title: "Données personnelles" },
  { id: "mediation", title: "Médiation de la consommation" },
  { id: "droit-applicable", title: "Droit applicable" },
] as const;

type SectionId = (typeof SECTIONS)[number]["id"];

function section(id: SectionId) {
  const index = SECTIONS.findIndex((s) => s.id === id);
  return { id, number: index + 1, title: SECTIONS[index].title };
}

export default function Cgv() {
  const { settings } = useLoaderData<typeof loader>();
  const address = addressOnOneLine(settings.siteAddress);
  const hours = OPENING_HOURS.map((h) => `${h.days.toLowerCase()} : ${h.hours.toLowerCase()}`).join(" ; ");

  return (
    <StaticPage
      eyebrow="Informations légales"
      title="Conditions générales de vente"
      updatedAt={LEGAL_UPDATED_AT}
      intro={
        <p>
          Les présentes conditions s'appliquent à toute commande passée sur notre site. Merci de les lire avant de commander : passer
          commande vaut acceptation de ces conditions.
        </p>
      }
    >
      <TableOfContents items={SECTIONS} />

      <LegalSection {...section("objet")}>
        <p>
          Les présentes conditions générales de vente (CGV) régissent les ventes conclues à distance, sur le site {settings.siteName}, entre
          la société {COMPANY.legalName}, {COMPANY.form} au capital de {COMPANY.capital}, immatriculée au {COMPANY.rcs}, dont le siège
          social est situé {address} (ci-après « {settings.siteName} » ou « nous »), et toute personne physique agissant en qualité de
          consommateur (ci-après « vous » ou « le client »).
        </p>
        <p>
          Les CGV applicables sont celles en vigueur à la date de votre commande. Elles peuvent être consultées, enregistrées et imprimées
          à tout moment depuis cette page. Les informations sur l'éditeur du site figurent dans les{" "}
          <TextLink to="/mentions-legales">mentions légales</TextLink>.
        </p>
      </LegalSection>

      <LegalSection {...section("produits")}>
        <p>
          Nous vendons des masques hydrogel au collagène pour le visage, des produits cosmétiques vendus par packs. Leurs caractéristiques essentielles (composition, mode d'emploi, précautions, contenance) sont présentées sur la{" "}
          <TextLink to="/product/1">fiche produit</TextLink> et rappelées sur l'emballage. Les photographies sont aussi fidèles que
          possible mais n'ont pas de valeur contractuelle.
        </p>
        <p>Les produits sont proposés dans la limite des stocks disponibles, en trois formats :</p>
        <ul>
          {PACKS.map((pack) => (
            <li key={pack.id}>
              {pack.name} ({pack.masks} masques au total)
            </li>
          ))}
        </ul>
      </LegalSection>

      <LegalSection {...section("prix")}>
        <p>
          Les prix sont indiqués en euros, toutes taxes comprises (TVA française incluse). La livraison est gratuite : aucun frais de
          port n'est ajouté au prix affiché. Le prix à payer est celui affiché dans votre panier au moment où vous validez votre commande.
        </p>
        <ul>
          {PACKS.map((pack) => (
            <li key={pack.id}>
              {pack.name} : {formatPrice(pack.priceCents)} au lieu de {formatPrice(pack.originalPriceCents)}
            </li>
          ))}
        </ul>
        <p>
          Nous pouvons modifier nos prix à tout moment ; les produits sont facturés au prix en vigueur lors de la validation de la
          commande. Une offre promotionnelle est valable pendant la durée indiquée sur le site.
        </p>
      </LegalSection>

      <LegalSection {...section("commande")}>
        <p>Pour commander, vous :</p>
        <ul>
          <li>choisissez votre pack sur la fiche produit, en achat unique ou en abonnement, puis l'ajoutez au panier ;</li>
          <li>vérifiez le contenu et le montant de votre panier, que vous pouvez encore modifier ;</li>
          <li>renseignez vos informations de livraison ;</li>
          <li>réglez votre commande par carte bancaire.</li>
        </ul>
        <p>
          La vente est conclue dès la confirmation du paiement. Une page de confirmation récapitule alors votre commande et indique son
          numéro : conservez-le, il vous permet de <TextLink to="/track-order">suivre votre commande</TextLink> et de nous contacter à son
          sujet. Nous archivons les commandes sur un support fiable et durable ; vous pouvez en obtenir une copie sur simple demande.
        </p>
        <p>
          Nous nous réservons le droit de refuser ou d'annuler une commande en cas de litige existant avec le client, de paiement refusé
          ou de commande manifestement anormale.
        </p>
      </LegalSection>

      <LegalSection {...section("paiement")}>
        <p>
          Le paiement s'effectue en ligne par carte bancaire : Visa, Mastercard et American Express sont acceptées. Il est traité par
          notre prestataire de paiement Stripe, sur une connexion chiffrée. Vos numéros de carte sont saisis et conservés uniquement chez
          Stripe : nous n'y avons jamais accès.
        </p>
        <p>
          Votre compte est débité lors de la validation de la commande. En cas de refus de la banque ou d'erreur de saisie, la commande
          n'est pas validée et vous pouvez réessayer avec la même carte ou une autre carte.
        </p>
      </LegalSection>

      <LegalSection {...section("abonnement")}>
        <p>
          Sur la fiche produit, vous pouvez choisir l'abonnement plutôt que l'achat unique. Vous y souscrivez en cochant expressément la
          case d'acceptation de ses conditions, qui n'est jamais cochée par défaut. L'abonnement fonctionne ainsi :
        </p>
        <ul>
          <li>le prix du pack choisi est débité le jour de la commande, et ce premier pack vous est expédié aussitôt ;</li>
          <li>
            à partir du 30<sup>e</sup> jour, le même montant est débité toutes les 4 semaines, et un nouveau pack vous est expédié à
            chaque échéance, avec la même livraison gratuite ;
          </li>
          <li>l'abonnement est sans engagement de durée : vous pouvez l'annuler à tout moment, sans frais ni justification.</li>
        </ul>
        <p>
          Pour l'annuler, écrivez-nous depuis la page <TextLink to="/contact">Contact</TextLink> ou à{" "}
          <TextLink to={`mailto:${settings.siteEmail}`}>{settings.siteEmail}</TextLink>, en indiquant votre nom et votre numéro de
          commande, ou appelez-nous au {settings.sitePhone}. L'annulation prend effet dès réception de votre demande : aucune échéance
          n'est débitée ensuite, et nous vous confirmons l'annulation. Les packs déjà payés restent dus et vous sont livrés.
        </p>
      </LegalSection>

      <LegalSection {...section("livraison")}>
        <p>
          La livraison est gratuite. Nous livrons en France, à l'adresse indiquée lors de la commande, en colis suivi. Votre commande est
          expédiée sous {DELIVERY.shippedWithin} après la confirmation du paiement et vous parvient en{" "}
          {DELIVERY.arrival}. Le détail figure sur la page <TextLink to="/livraison">Livraison</TextLink>.
        </p>
        <p>
          Vérifiez votre colis à réception. En cas de colis abîmé, de produit manquant ou de retard de livraison, contactez-nous : si le
          colis ne vous parvient pas dans un délai raisonnable, vous pouvez annuler la commande dans les conditions prévues par l'article
          L. 216-6 du Code de la consommation et être intégralement remboursé. Les risques de perte ou d'endommagement vous sont transférés
          lorsque vous prenez physiquement possession du colis.
        </p>
      </LegalSection>

      <LegalSection {...section("retractation")}>
        <p>
          Conformément à l'article L. 221-18 du Code de la consommation, vous disposez d'un délai de {DELIVERY.withdrawalDays} jours à
          compter de la réception de votre commande pour vous rétracter, sans avoir à justifier de motif. Pour un abonnement, ce délai
          court à compter de la réception du premier pack.
        </p>
        <p>
          Pour exercer ce droit, informez-nous de votre décision par une déclaration dénuée d'ambiguïté, depuis la page{" "}
          <TextLink to="/contact">Contact</TextLink>, par email à {settings.siteEmail} ou par courrier à l'adresse de notre siège. Vous
          pouvez utiliser le modèle de formulaire de rétractation ci-dessous (annexe à l'article R. 221-1 du Code de la consommation),
          sans que cela soit obligatoire.
        </p>
        <p>
          Renvoyez ensuite les produits au plus tard 14 jours après nous avoir informés de votre décision ; les frais de retour sont à
          votre charge. Nous vous remboursons la totalité des sommes versées dans les {DELIVERY.refundDays} jours suivant la réception de
          votre demande, par le même moyen de paiement. Nous pouvons différer le remboursement jusqu'à réception des produits ou de la
          preuve de leur expédition.
        </p>
        <p>
          Pour des raisons d'hygiène et de protection de la santé, le droit de rétractation ne peut être exercé pour les sachets de
          masques ouverts après la livraison (article L. 221-28, 5° du Code de la consommation) : seuls les sachets encore scellés
          peuvent être retournés. Votre responsabilité peut être engagée en cas de dépréciation des produits résultant de manipulations
          autres que celles nécessaires pour établir leur nature et leurs caractéristiques. Voir aussi la page{" "}
          <TextLink to="/retours">Retours</TextLink>.
        </p>
        <div className="mt-4 rounded-xl border border-ink/15 bg-white p-4 text-sm" data-testid="withdrawal-form">
          <p className="!mt-0 font-semibold !text-ink">Modèle de formulaire de rétractation</p>
          <p>(Veuillez compléter et renvoyer le présent formulaire uniquement si vous souhaitez vous rétracter du contrat.)</p>
          <p>
            À l'attention de {COMPANY.legalName}, {address}, {settings.siteEmail} :
          </p>
          <p>
            Je/Nous (*) vous notifie/notifions (*) par la présente ma/notre (*) rétractation du contrat portant sur la vente du bien (*)
            ci-dessous :
          </p>
          <p>Commandé le (*) / reçu le (*) :</p>
          <p>Nom du (des) consommateur(s) :</p>
          <p>Adresse du (des) consommateur(s) :</p>
          <p>Signature du (des) consommateur(s) (uniquement en cas de notification du présent formulaire sur papier) :</p>
          <p>Date :</p>
          <p>(*) Rayez la mention inutile.</p>
        </div>
      </LegalSection>

      <LegalSection {...section("garanties")}>
        <p>
          Indépendamment de tout geste commercial, vous bénéficiez des garanties légales suivantes, que nous mettons en œuvre sans frais
          pour vous.
        </p>
        <p>
          <strong className="text-ink">Garantie légale de conformité.</strong> Vous disposez d'un délai de deux ans à compter de la
          délivrance du bien pour obtenir la mise en œuvre de la garantie légale de conformité en cas d'apparition d'un défaut de
          conformité. Durant ce délai, vous n'êtes tenu d'établir que l'existence du défaut de conformité et non la date de son
          apparition. La garantie vous donne droit à la réparation ou au remplacement du bien dans un délai de trente jours suivant votre
          demande, sans frais et sans inconvénient majeur pour vous ; à défaut, à une réduction du prix ou à la résolution du contrat avec
          remboursement intégral. Elle est régie par les articles L. 217-1 à L. 217-32 du Code de la consommation. Le vendeur qui fait
          obstacle de mauvaise foi à sa mise en œuvre encourt une amende civile d'un montant maximal de 300 000 euros, qui peut être
          porté jusqu'à 10 % du chiffre d'affaires moyen annuel (article L. 241-5 du Code de la consommation).
        </p>
        <p>
          <strong className="text-ink">Garantie des vices cachés.</strong> Vous bénéficiez également de la garantie légale des vices
          cachés (articles 1641 à 1649 du Code civil) pendant deux ans à compter de la découverte du défaut. Vous pouvez alors choisir
          entre la résolution de la vente et une réduction du prix.
        </p>
        <p>
          Pour un produit abîmé ou défectueux à la réception, signalez-le-nous de préférence dans les 14 jours, photo à l'appui : nous
          vous le remplaçons ou vous le remboursons, frais de retour à notre charge.
        </p>
      </LegalSection>

      <LegalSection {...section("service-client")}>
        <p>
          Notre service client répond à vos questions et réclamations ({hours}) depuis la page{" "}
          <TextLink to="/contact">Contact</TextLink> ou aux coordonnées suivantes :
        </p>
        <CompanyContact settings={settings} company={COMPANY.legalName} />
      </LegalSection>

      <LegalSection {...section("responsabilite")}>
        <p>
          Nos produits sont des cosmétiques à usage externe. Respectez le mode d'emploi et les précautions figurant sur la fiche produit et
          l'emballage. Avant une première utilisation, en particulier si vous avez la peau réactive ou des allergies connues, faites un
          essai sur une petite zone de peau ; en cas de réaction, cessez l'utilisation.
        </p>
        <p>
          Notre responsabilité ne saurait être engagée en cas d'utilisation non conforme, ni en cas d'inexécution imputable à un cas de
          force majeure, au fait imprévisible et insurmontable d'un tiers ou à votre fait. Elle reste entière dans les cas prévus par la
          loi, notamment au titre des garanties légales.
        </p>
      </LegalSection>

      <LegalSection {...section("donnees")}>
        <p>
          Les données que vous nous communiquez lors de votre commande sont nécessaires à son traitement, à sa livraison et à la gestion de
          la relation client. Elles sont traitées conformément au règlement général sur la protection des données (RGPD) et à la loi
          Informatique et Libertés. Vous disposez notamment d'un droit d'accès, de rectification et d'effacement. Tout est détaillé dans
          notre <TextLink to="/politique-confidentialite">politique de confidentialité</TextLink>.
        </p>
      </LegalSection>

      <LegalSection {...section("mediation")}>
        <p>
          En cas de litige, adressez d'abord une réclamation écrite à notre service client : nous cherchons toujours une solution amiable.
          Si aucune solution n'est trouvée, vous pouvez recourir gratuitement, dans un délai d'un an à compter de votre réclamation écrite,
          au médiateur de la consommation dont nous relevons (articles L. 612-1 et suivants du Code de la consommation) :
        </p>
        <p>
          {MEDIATOR.name}, {MEDIATOR.address}, <TextLink to={MEDIATOR.website}>{MEDIATOR.website.replace("https://", "")}</TextLink>.
        </p>
      </LegalSection>

      <LegalSection {...section("droit-applicable")}>
        <p>
          Les présentes CGV sont soumises au droit français. Elles sont rédigées en langue française, qui fait foi. À défaut de
          solution amiable, tout litige relève des juridictions françaises compétentes ; en tant que consommateur, vous pouvez saisir la
          juridiction du lieu où vous demeuriez lors de la conclusion du contrat ou de la survenance du fait dommageable. Vous conservez
          en tout état de cause le bénéfice des dispositions impératives de la loi de votre pays de résidence.
        </p>
      </LegalSection>
    </StaticPage>
  );
}
