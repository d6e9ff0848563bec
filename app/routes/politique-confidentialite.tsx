import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { CompanyContact } from "~/components/shop/static/CompanyContact";
import { COMPANY, HOST } from "~/lib/company";
import { LegalSection, TableOfContents } from "~/components/shop/static/LegalSection";
import { LEGAL_UPDATED_AT, StaticPage } from "~/components/shop/static/StaticPage";
import { TextLink } from "~/components/shop/static/TextLink";
import { pageMeta } from "~/lib/meta";
import { getSettings } from "~/services/settings.server";

export const meta: MetaFunction = () =>
  pageMeta(
    "Politique de confidentialité",
    "Quelles données Maison Éclat collecte, pourquoi, combien de temps, avec qui elles sont partagées, nos cookies et vos droits (RGPD).",
  );

export async function loader(_: LoaderFunctionArgs) {
  return json({ settings: getSettings() });
}

const SECTIONS = [
  { id: "responsable", title: "Responsable du traitement" },
  { id: "donnees", title: "Données collectées" },
  { id: "finalites", title: "Finalités et bases légales" },
  { id: "conservation", title: "Durées de conservation" },
  { id: "destinataires", title: "Destinataires" },
  { id: "cookies", title: "Cookies" },
  { id: "droits", title: "Vos droits" },
  { id: "securite", title: "Sécurité" },
  { id: "contact", title: "Contact et réclamation" },
] as const;

type SectionId = (typeof SECTIONS)[number]["id"];

function section(id: SectionId) {
  const found = SECTIONS.find((s) => s.id === id);
  return { id, title: found?.title ?? id };
}

const COOKIES = [
  {
    name: "Panier",
    purpose: "Retrouver le contenu de votre panier d'une page à l'autre et lors de votre prochaine visite.",
    duration: "30 jours",
  },
  {
    name: "Messages de confirmation",
    purpose: "Afficher une seule fois un message après une action (par exemple l'envoi d'un formulaire).",
    duration: "le temps de la visite",
  },
  {
    name: "Session d'administration",
    purpose: "Maintenir la connexion des membres de notre équipe à l'espace d'administration ; il n'est jamais déposé chez les clients.",
    duration: "le temps de la session",
  },
  {
    name: "Paiement sécurisé (Stripe)",
    purpose: "Déposés par notre prestataire de paiement lors du paiement, pour sécuriser la transaction et prévenir la fraude.",
    duration: "selon la politique de Stripe",
  },
] as const;

export default function PolitiqueConfidentialite() {
  const { settings } = useLoaderData<typeof loader>();
  return (
    <StaticPage
      eyebrow="Informations légales"
      title="Politique de confidentialité"
      updatedAt={LEGAL_UPDATED_AT}
      intro={
        <p>
          Nous collectons le moins de données possible, uniquement pour traiter vos commandes et répondre à vos messages. Nous ne les
          vendons jamais et n'utilisons aucun outil de suivi publicitaire.
        </p>
      }
    >
      <TableOfContents items={SECTIONS} numbered={false} />

      <LegalSection {...section("responsable")}>
        <p>
          Le responsable du traitement de vos données est {COMPANY.legalName}, éditrice du site {settings.siteName} (voir les{" "}
          <TextLink to="/mentions-legales">mentions légales</TextLink>). Ses coordonnées figurent en bas de cette page.
        </p>
      </LegalSection>

      <LegalSection {...section("donnees")}>
        <ul>
          <li>
            <strong className="text-ink">Commande et livraison :</strong> prénom, nom, adresse email, adresse postale, code postal,
            ville et pays, contenu et montant de la commande, formule choisie (achat unique ou abonnement), numéro de suivi du colis.
          </li>
          <li>
            <strong className="text-ink">Paiement :</strong> vos données de carte sont saisies directement chez notre prestataire Stripe ;
            nous ne recevons que le résultat du paiement et ses références, jamais votre numéro de carte.
          </li>
          <li>
            <strong className="text-ink">Formulaire de contact :</strong> nom, adresse email, objet et contenu de votre message.
          </li>
          <li>
            <strong className="text-ink">Données techniques :</strong> journaux du serveur (adresse IP, date et page demandée), utiles à
            la sécurité du site.
          </li>
        </ul>
      </LegalSection>

      <LegalSection {...section("finalites")}>
        <ul>
          <li>
            Traiter, expédier et suivre votre commande, gérer votre abonnement, le service après-vente et l'exercice de vos droits
            (rétractation, garanties) : <em>exécution du contrat</em> conclu avec vous.
          </li>
          <li>
            Établir les factures et tenir notre comptabilité : <em>obligation légale</em>.
          </li>
          <li>
            Répondre à vos messages envoyés par le formulaire de contact : <em>intérêt légitime</em> à répondre aux demandes qui nous sont
            adressées, ou mesures précontractuelles prises à votre demande.
          </li>
          <li>
            Assurer la sécurité du site et prévenir la fraude au paiement : <em>intérêt légitime</em>.
          </li>
        </ul>
        <p>Nous ne faisons ni prospection commerciale, ni profilage, ni revente de données.</p>
      </LegalSection>

      <LegalSection {...section("conservation")}>
        <ul>
          <li>Données de commande : pendant la relation commerciale, puis 3 ans après votre dernière commande.</li>
          <li>Factures et pièces comptables : 10 ans, comme l'impose le Code de commerce (article L. 123-22).</li>
          <li>Messages du formulaire de contact : 3 ans après notre dernier échange.</li>
          <li>Journaux techniques du serveur : 12 mois au plus.</li>
        </ul>
      </LegalSection>

      <LegalSection {...section("destinataires")}>
        <p>Vos données sont accessibles aux seules personnes de notre équipe qui en ont besoin, et à nos sous-traitants :</p>
        <ul>
          <li>
            <strong className="text-ink">Stripe</strong> (Stripe Payments Europe, Ltd., Irlande), notre prestataire de paiement, pour
            traiter le paiement par carte et prévenir la fraude ;
          </li>
          <li>
            <strong className="text-ink">le transporteur</strong> chargé de votre colis suivi, qui reçoit votre nom et votre adresse de
            livraison ;
          </li>
          <li>
            <strong className="text-ink">{HOST.name}</strong>, notre hébergeur, dont les serveurs sont situés dans l'Union européenne.
          </li>
        </ul>
        <p>
          Stripe peut transférer certaines données hors de l'Union européenne, notamment aux États-Unis ; ces transferts sont encadrés par
          les clauses contractuelles types de la Commission européenne et le cadre de protection des données UE-États-Unis. Vos données
          ne sont ni vendues ni louées.
        </p>
      </LegalSection>

      <LegalSection {...section("cookies")}>
        <p>
          Nous n'utilisons que des cookies strictement nécessaires au fonctionnement du site. Nous n'utilisons aucun cookie publicitaire,
          de mesure d'audience ou de réseau social : c'est pourquoi aucun bandeau ne vous demande votre consentement.
        </p>
        <ul className="!list-none !pl-0">
          {COOKIES.map((cookie) => (
            <li key={cookie.name} className="rounded-xl bg-white p-4 ring-1 ring-ink/5">
              <strong className="block text-ink">{cookie.name}</strong>
              <span className="block">{cookie.purpose}</span>
              <span className="mt-1 block text-sm">Durée : {cookie.duration}</span>
            </li>
          ))}
        </ul>
        <p>Vous pouvez supprimer ces cookies depuis les réglages de votre navigateur ; votre panier sera alors vidé.</p>
      </LegalSection>

      <LegalSection {...section("droits")}>
        <p>
          Conformément au règlement général sur la protection des données (RGPD) et à la loi Informatique et Libertés, vous disposez
          des droits suivants sur vos données :
        </p>
        <ul>
          <li>droit d'accès : savoir quelles données nous détenons sur vous et en obtenir une copie ;</li>
          <li>droit de rectification : faire corriger des données inexactes ou incomplètes ;</li>
          <li>droit à l'effacement : faire supprimer vos données, sauf celles que la loi nous oblige à conserver ;</li>
          <li>droit à la limitation du traitement et droit d'opposition au traitement fondé sur notre intérêt légitime ;</li>
          <li>droit à la portabilité des données que vous nous avez fournies ;</li>
          <li>droit de définir des directives sur le sort de vos données après votre décès.</li>
        </ul>
        <p>
          Pour les exercer, écrivez-nous à <TextLink to={`mailto:${settings.siteEmail}`}>{settings.siteEmail}</TextLink> ou depuis la
          page <TextLink to="/contact">Contact</TextLink>. Nous vous répondons dans un délai d'un mois. Nous pouvons vous demander de
          justifier de votre identité en cas de doute raisonnable.
        </p>
      </LegalSection>

      <LegalSection {...section("securite")}>
        <p>
          Les échanges avec le site sont chiffrés (HTTPS). L'espace d'administration est réservé à notre équipe et protégé par mot de
          passe ; les mots de passe ne sont jamais stockés en clair. Les paiements sont traités par Stripe, certifié PCI DSS.
        </p>
      </LegalSection>

      <LegalSection {...section("contact")}>
        <p>Pour toute question sur vos données personnelles :</p>
        <CompanyContact settings={settings} company={COMPANY.legalName} />
        <p>
          Si vous estimez, après nous avoir contactés, que vos droits ne sont pas respectés, vous pouvez adresser une réclamation à la
          Commission nationale de l'informatique et des libertés (CNIL), 3 place de Fontenoy, TSA 80715, 75334 Paris Cedex 07,{" "}
          <TextLink to="https://www.cnil.fr">www.cnil.fr</TextLink>.
        </p>
      </LegalSection>
    </StaticPage>
  );
}
