import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { CompanyContact, phoneHref } from "~/components/shop/static/CompanyContact";
import { addressOnOneLine, COMPANY, HOST } from "~/lib/company";
import { LegalSection } from "~/components/shop/static/LegalSection";
import { LEGAL_UPDATED_AT, StaticPage } from "~/components/shop/static/StaticPage";
import { TextLink } from "~/components/shop/static/TextLink";
import { pageMeta } from "~/lib/meta";
import { getSettings } from "~/services/settings.server";

export const meta: MetaFunction = () =>
  pageMeta(
    "Mentions légales",
    "Mentions légales du site Maison Éclat : éditeur, directrice de la publication, hébergeur, propriété intellectuelle et contact.",
  );

export async function loader(_: LoaderFunctionArgs) {
  return json({ settings: getSettings() });
}

export default function MentionsLegales() {
  const { settings } = useLoaderData<typeof loader>();
  return (
    <StaticPage
      eyebrow="Informations légales"
      title="Mentions légales"
      updatedAt={LEGAL_UPDATED_AT}
      intro={<p>Conformément à l'article 6 de la loi n° 2004-575 du 21 juin 2004 pour la confiance dans l'économie numérique.</p>}
    >
      <LegalSection id="editeur" title="Éditeur du site">
        <p>
          Le site {settings.siteName} est édité par {COMPANY.legalName}, {COMPANY.form} au capital de {COMPANY.capital}.
        </p>
        <ul>
          <li>Siège social : {addressOnOneLine(settings.siteAddress)}</li>
          <li>Immatriculation : {COMPANY.rcs}</li>
          <li>Numéro de TVA intracommunautaire : {COMPANY.vatNumber}</li>
          <li>
            Email : <TextLink to={`mailto:${settings.siteEmail}`}>{settings.siteEmail}</TextLink>
          </li>
          <li>
            Téléphone : <TextLink to={phoneHref(settings.sitePhone)}>{settings.sitePhone}</TextLink>
          </li>
        </ul>
      </LegalSection>

      <LegalSection id="publication" title="Directrice de la publication">
        <p>
          {COMPANY.director}, {COMPANY.directorRole} de {COMPANY.legalName}.
        </p>
      </LegalSection>

      <LegalSection id="hebergeur" title="Hébergeur">
        <p>
          Le site est hébergé par {HOST.name}, {HOST.address}, téléphone : {HOST.phone},{" "}
          <TextLink to={HOST.website}>{HOST.website.replace("https://", "")}</TextLink>. Les données sont hébergées dans l'Union
          européenne.
        </p>
      </LegalSection>

      <LegalSection id="propriete-intellectuelle" title="Propriété intellectuelle">
        <p>
          L'ensemble des éléments du site (marque et logo {settings.siteName}, textes, photographies, illustrations, vidéos, mise en page)
          est la propriété exclusive de {COMPANY.legalName} ou fait l'objet d'une autorisation d'utilisation. Toute reproduction,
          représentation, adaptation ou diffusion, totale ou partielle, sans notre autorisation écrite préalable est interdite et
          constitue une contrefaçon sanctionnée par les articles L. 335-2 et suivants du Code de la propriété intellectuelle.
        </p>
        <p>Les marques et logos des magazines cités sur le site appartiennent à leurs titulaires respectifs.</p>
      </LegalSection>

      <LegalSection id="donnees-personnelles" title="Données personnelles et cookies">
        <p>
          Le traitement de vos données personnelles et l'usage des cookies sont décrits dans notre{" "}
          <TextLink to="/politique-confidentialite">politique de confidentialité</TextLink>. Les conditions de vente figurent dans nos{" "}
          <TextLink to="/cgv">conditions générales de vente</TextLink>.
        </p>
      </LegalSection>

      <LegalSection id="contact" title="Contact">
        <p>
          Pour toute question sur le site, écrivez-nous depuis la page <TextLink to="/contact">Contact</TextLink> ou aux coordonnées
          suivantes :
        </p>
        <CompanyContact settings={settings} company={COMPANY.legalName} />
      </LegalSection>
    </StaticPage>
  );
}
