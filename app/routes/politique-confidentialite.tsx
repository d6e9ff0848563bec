import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { CompanyContact } from "~/components/shop/static/CompanyContact";
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
  return { settings: await getSettings() };
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

/**
 * The cookies the site sets, as the code sets them: `cart` (services/cart-session.server.ts),
 * `orders` (services/order-session.server.ts), `toast-session` (remix-toast, read by the root
 * loader), `__admin` (services/admin-auth.server.ts, ADMIN_SESSION_TTL_MS). All are signed and
 * HttpOnly, and hold an identifier, never a name or an address.
 */
const COOKIES = [
  {
    name: "Panier",
    cookie: "cart",
    purpose:
      "Retrouver votre panier d'une page à l'autre et lors de votre prochaine visite. Il ne contient qu'un identifiant aléatoire.",
    duration: "30 jours",
  },
  {
    name: "Vos commandes",
    cookie: "orders",
    purpose:
      "Se souvenir, sur ce navigateur, des commandes que vous y avez passées (leurs numéros, 20 au plus), pour vous laisser afficher leur confirmation et leur suivi sans vous demander de preuve.",
    duration: "1 an",
  },
  {
    name: "Messages de confirmation",
    cookie: "toast-session",
    purpose:
      "Afficher une seule fois un message après une action (par exemple l'envoi d'un formulaire) ; il est effacé dès que le message est affiché.",
    duration: "le temps de la visite",
  },
  {
    name: "Session d'administration",
    cookie: "__admin",
    purpose:
      "Maintenir la connexion des membres de notre équipe à l'espace d'administration ; il n'est jamais déposé chez les clients.",
    duration: "12 heures",
  },
  {
    name: "Paiement sécurisé (Stripe)",
    cookie: "__stripe_mid, __stripe_sid",
    purpose:
      "Déposés par notre prestataire de paiement Stripe uniquement sur la page de paiement, quand les champs de carte s'affichent, pour sécuriser la transaction et prévenir la fraude.",
    duration: "30 minutes (__stripe_sid) et 1 an (__stripe_mid)",
  },
] as const;

/** How long each kind of data is kept. */
const RETENTION = [
  [
    "Commandes, factures et avoirs",
    "10 ans à compter de la clôture de l'exercice, comme l'impose le Code de commerce (article L. 123-22) pour les pièces comptables.",
  ],
  [
    "Compte client et coordonnées",
    "3 ans après votre dernière commande ; vous pouvez demander leur suppression avant, sauf pour ce que la loi nous oblige à garder.",
  ],
  ["Demandes envoyées par le formulaire de contact", "3 ans après notre dernier échange."],
  [
    "Emails que nous vous envoyons (confirmation, expédition, abonnement, et le rappel de commande si vous l'avez demandé)",
    "conservés avec la commande ou la demande qu'ils concernent, pour la même durée, comme preuve de leur envoi.",
  ],
  [
    "Refus des rappels de commande (désinscription)",
    "nous gardons une empreinte de votre adresse email (jamais l'adresse elle-même) tant que la boutique existe, pour ne plus vous envoyer de rappel ; elle est supprimée si vous demandez l'effacement de vos données.",
  ],
  ["Panier", "lié à votre navigateur pendant 30 jours après votre dernière visite (durée du cookie)."],
  ["Sessions d'administration de notre équipe", "12 heures au plus, puis la connexion est refusée."],
  [
    "Adresses IP utilisées pour limiter les tentatives abusives (connexion, formulaires)",
    "prises en compte pendant 15 minutes au plus, puis effacées lors du nettoyage automatique suivant.",
  ],
  ["Journaux techniques du serveur", "12 mois au plus."],
] as const;

export default function PolitiqueConfidentialite() {
  const { settings } = useLoaderData<typeof loader>();
  const company = settings.legalName || settings.siteName;
  const email = <TextLink to={`mailto:${settings.siteEmail}`}>{settings.siteEmail}</TextLink>;
  return (
    <StaticPage
      eyebrow="Informations légales"
      title="Politique de confidentialité"
      updatedAt={LEGAL_UPDATED_AT}
      intro={
        <p>
          Nous collectons le moins de données possible, uniquement pour traiter vos commandes et répondre à vos messages. Nous ne
          les vendons jamais et n'utilisons aucun outil de suivi publicitaire.
        </p>
      }
    >
      <TableOfContents items={SECTIONS} numbered={false} />

      <LegalSection {...section("responsable")}>
        <p>
          Le responsable du traitement de vos données est {company}, éditrice du site {settings.siteName} (voir les{" "}
          <TextLink to="/mentions-legales">mentions légales</TextLink>). Ses coordonnées figurent en bas de cette page.
        </p>
      </LegalSection>

      <LegalSection {...section("donnees")}>
        <ul>
          <li>
            <strong className="text-ink">Commande et livraison :</strong> prénom, nom, adresse email, adresse postale, code
            postal, ville et pays, contenu et montant de la commande, formule choisie (achat unique ou abonnement), numéro de
            suivi du colis.
          </li>
          <li>
            <strong className="text-ink">Paiement :</strong> les champs de carte de la page de paiement sont fournis par notre
            prestataire Stripe : votre numéro de carte est saisi directement chez Stripe, qui le traite en qualité de
            sous-traitant. Nous ne recevons que le résultat du paiement et ses références (et, pour un abonnement, le moyen de
            paiement enregistré chez Stripe pour les échéances), jamais votre numéro de carte.
          </li>
          <li>
            <strong className="text-ink">Formulaire de contact :</strong> nom, adresse email, objet et contenu de votre message.
          </li>
          <li>
            <strong className="text-ink">Données techniques :</strong> journaux du serveur (adresse IP, date et page demandée),
            utiles à la sécurité du site.
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
            Répondre à vos messages envoyés par le formulaire de contact : <em>intérêt légitime</em> à répondre aux demandes qui
            nous sont adressées, ou mesures précontractuelles prises à votre demande.
          </li>
          <li>
            Assurer la sécurité du site et prévenir la fraude au paiement : <em>intérêt légitime</em>.
          </li>
          <li>
            Vous envoyer un seul email de rappel, 4 heures après une commande que vous n'avez pas payée, uniquement si vous avez
            coché la case « M'envoyer un rappel si je ne finalise pas ma commande » (elle n'est jamais cochée d'avance) :{" "}
            <em>consentement</em>, que vous retirez à tout moment par le lien de désinscription de cet email.
          </li>
        </ul>
        <p>
          En dehors de ce rappel que vous demandez, nous ne faisons ni prospection commerciale, ni profilage, ni revente de
          données.
        </p>
      </LegalSection>

      <LegalSection {...section("conservation")}>
        <ul data-testid="retention">
          {RETENTION.map(([what, howLong]) => (
            <li key={what}>
              <strong className="text-ink">{what} :</strong> {howLong}
            </li>
          ))}
        </ul>
        <p>Au terme de ces durées, les données sont supprimées ou rendues anonymes.</p>
      </LegalSection>

      <LegalSection {...section("destinataires")}>
        <p>Vos données sont accessibles aux seules personnes de notre équipe qui en ont besoin, et à nos sous-traitants :</p>
        <ul>
          <li>
            <strong className="text-ink">Stripe</strong> (Stripe Payments Europe, Ltd., Irlande), notre prestataire de paiement,
            sous-traitant qui traite le paiement par carte et prévient la fraude ;
          </li>
          <li>
            <strong className="text-ink">le transporteur</strong> chargé de votre colis suivi, qui reçoit votre nom et votre
            adresse de livraison ;
          </li>
          {settings.hostName ? (
            <li>
              <strong className="text-ink">{settings.hostName}</strong>, notre hébergeur (voir les{" "}
              <TextLink to="/mentions-legales">mentions légales</TextLink>), dont les serveurs sont situés dans l'Union
              européenne.
            </li>
          ) : (
            <li>notre hébergeur, dont les serveurs sont situés dans l'Union européenne.</li>
          )}
        </ul>
        <p>
          Stripe peut transférer certaines données hors de l'Union européenne, notamment aux États-Unis ; ces transferts sont
          encadrés par les clauses contractuelles types de la Commission européenne et le cadre de protection des données
          UE-États-Unis. Vos données ne sont ni vendues ni louées.
        </p>
      </LegalSection>

      <LegalSection {...section("cookies")}>
        <p>
          Nous n'utilisons que des cookies strictement nécessaires au fonctionnement du site ou à la sécurité du paiement que vous
          demandez. Ils sont exemptés de consentement (article 82 de la loi Informatique et Libertés) : c'est pourquoi aucun
          bandeau ne vous demande votre accord. Nous n'utilisons aucun cookie publicitaire, de mesure d'audience ou de réseau
          social.
        </p>
        <ul className="!list-none !pl-0" data-testid="cookie-list">
          {COOKIES.map((cookie) => (
            <li key={cookie.name} className="rounded-xl bg-white p-4 ring-1 ring-ink/5">
              <strong className="block text-ink">
                {cookie.name} <code className="break-all text-sm font-normal text-ink-soft">({cookie.cookie})</code>
              </strong>
              <span className="block">{cookie.purpose}</span>
              <span className="mt-1 block text-sm">Durée : {cookie.duration}</span>
            </li>
          ))}
        </ul>
        <p>
          Pendant un paiement d'abonnement, la page de paiement garde aussi, dans le stockage de session de votre navigateur
          (effacé à la fermeture de l'onglet), la référence de la tentative en cours, pour ne pas vous débiter deux fois.
        </p>
        <p>Vous pouvez supprimer ces cookies depuis les réglages de votre navigateur ; votre panier sera alors vidé.</p>
      </LegalSection>

      <LegalSection {...section("droits")}>
        <p>
          Conformément au règlement général sur la protection des données (RGPD) et à la loi Informatique et Libertés, vous
          disposez des droits suivants sur vos données :
        </p>
        <ul data-testid="gdpr-rights">
          <li>
            <strong className="text-ink">droit d'accès</strong> (article 15 du RGPD) : savoir quelles données nous détenons sur
            vous et en obtenir une copie ;
          </li>
          <li>
            <strong className="text-ink">droit de rectification</strong> (article 16) : faire corriger des données inexactes ou
            incomplètes ;
          </li>
          <li>
            <strong className="text-ink">droit à l'effacement</strong> (article 17) : faire supprimer vos données, sauf celles que
            la loi nous oblige à conserver (les factures, par exemple) ;
          </li>
          <li>
            <strong className="text-ink">droit à la limitation du traitement</strong> (article 18) ;
          </li>
          <li>
            <strong className="text-ink">droit à la portabilité</strong> (article 20) : recevoir les données que vous nous avez
            fournies dans un format structuré et lisible par machine, ou les faire transmettre à un autre responsable ;
          </li>
          <li>
            <strong className="text-ink">droit d'opposition</strong> (article 21) au traitement fondé sur notre intérêt légitime ;
          </li>
          <li>droit de définir des directives sur le sort de vos données après votre décès.</li>
        </ul>
        <p>
          <strong className="text-ink">Comment les exercer :</strong> écrivez-nous à {email} ou depuis la page{" "}
          <TextLink to="/contact">Contact</TextLink>, en précisant le droit que vous exercez et, si possible, votre numéro de
          commande. Nous vous répondons dans un délai d'un mois (prolongeable de deux mois pour une demande complexe, auquel cas
          nous vous prévenons). Nous pouvons vous demander de justifier de votre identité en cas de doute raisonnable. L'exercice
          de ces droits est gratuit.
        </p>
      </LegalSection>

      <LegalSection {...section("securite")}>
        <p>
          Les échanges avec le site sont chiffrés (HTTPS). L'espace d'administration est réservé à notre équipe et protégé par mot
          de passe ; les mots de passe ne sont jamais stockés en clair. Les paiements sont traités par Stripe, certifié PCI DSS.
        </p>
      </LegalSection>

      <LegalSection {...section("contact")}>
        <p>Pour toute question sur vos données personnelles :</p>
        <CompanyContact settings={settings} company={company} />
        <p>
          Si vous estimez, après nous avoir contactés, que vos droits ne sont pas respectés, vous pouvez introduire une
          réclamation (article 77 du RGPD) auprès de la Commission nationale de l'informatique et des libertés (CNIL), 3 place de
          Fontenoy, TSA 80715, 75334 Paris Cedex 07, <TextLink to="https://www.cnil.fr">www.cnil.fr</TextLink>.
        </p>
      </LegalSection>
    </StaticPage>
  );
}
