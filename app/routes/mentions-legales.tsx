import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { CompanyContact, phoneHref } from "~/components/shop/static/CompanyContact";
import { addressOnOneLine, companyDescription, directorLine, rcsLine } from "~/lib/company";
import { LegalSection } from "~/components/shop/static/LegalSection";
import { LEGAL_UPDATED_AT, StaticPage } from "~/components/shop/static/StaticPage";
import { TextLink } from "~/components/shop/static/TextLink";
import { MediatorNotice } from "~/components/shop/MediatorNotice";
import { pageMeta } from "~/lib/meta";
import { getSettings } from "~/services/settings.server";

export const meta: MetaFunction = () =>
  pageMeta(
    "Mentions légales",
    "Mentions légales du site Maison Éclat : éditeur, direction de la publication, hébergeur, propriété intellectuelle, médiation et contact.",
  );

export async function loader(_: LoaderFunctionArgs) {
  return { settings: await getSettings() };
}

/** A line of the legal notice, left out while its value is not filled in in the settings. */
function Item({ label, value }: { label: string; value: string }) {
  return value ? (
    <li>
      {label} : {value}
    </li>
  ) : null;
}

export default function MentionsLegales() {
  const { settings } = useLoaderData<typeof loader>();
  const company = settings.legalName || settings.siteName;
  const host = [
    settings.hostName,
    addressOnOneLine(settings.hostAddress),
    settings.hostPhone ? `téléphone : ${settings.hostPhone}` : "",
  ]
    .filter(Boolean)
    .join(", ");
  return (
    <StaticPage
      eyebrow="Informations légales"
      title="Mentions légales"
      updatedAt={LEGAL_UPDATED_AT}
      intro={<p>Conformément à l'article 6 de la loi n° 2004-575 du 21 juin 2004 pour la confiance dans l'économie numérique.</p>}
    >
      <LegalSection id="editeur" title="Éditeur du site">
        <p data-testid="legal-editor">
          Le site {settings.siteName} est édité par {companyDescription(settings) || company}.
        </p>
        <ul data-testid="legal-registration">
          <Item label="Siège social" value={addressOnOneLine(settings.siteAddress)} />
          <Item label="Immatriculation" value={rcsLine(settings)} />
          <Item label="SIRET" value={settings.siret} />
          <Item label="Numéro de TVA intracommunautaire" value={settings.vatNumber} />
          <li>
            Email : <TextLink to={`mailto:${settings.siteEmail}`}>{settings.siteEmail}</TextLink>
          </li>
          <li>
            Téléphone : <TextLink to={phoneHref(settings.sitePhone)}>{settings.sitePhone}</TextLink>
          </li>
        </ul>
      </LegalSection>

      {settings.publicationDirector ? (
        <LegalSection id="publication" title="Direction de la publication">
          <p data-testid="legal-director">
            {directorLine(settings)}
            {settings.publicationDirectorRole ? ` de ${company}` : ""}.
          </p>
        </LegalSection>
      ) : null}

      {host ? (
        <LegalSection id="hebergeur" title="Hébergeur">
          <p data-testid="legal-host">Le site est hébergé par {host}.</p>
        </LegalSection>
      ) : null}

      <LegalSection id="propriete-intellectuelle" title="Propriété intellectuelle">
        <p>
          L'ensemble des éléments du site (marque et logo {settings.siteName}, textes, photographies, illustrations, vidéos, mise
          en page) est la propriété exclusive de {company} ou fait l'objet d'une autorisation d'utilisation. Toute reproduction,
          représentation, adaptation ou diffusion, totale ou partielle, sans notre autorisation écrite préalable est interdite et
          constitue une contrefaçon sanctionnée par les articles L. 335-2 et suivants du Code de la propriété intellectuelle.
        </p>
        <p>Les marques et logos des magazines cités sur le site appartiennent à leurs titulaires respectifs.</p>
      </LegalSection>

      <LegalSection id="donnees-personnelles" title="Données personnelles et cookies">
        <p>
          Le traitement de vos données personnelles et l'usage des cookies sont décrits dans notre{" "}
          <TextLink to="/politique-confidentialite">politique de confidentialité</TextLink>. Les conditions de vente figurent dans
          nos <TextLink to="/cgv">conditions générales de vente</TextLink>.
        </p>
      </LegalSection>

      {settings.mediatorName ? (
        <LegalSection id="mediation" title="Médiation de la consommation">
          <MediatorNotice settings={settings} />
        </LegalSection>
      ) : null}

      <LegalSection id="contact" title="Contact">
        <p>
          Pour toute question sur le site, écrivez-nous depuis la page <TextLink to="/contact">Contact</TextLink> ou aux
          coordonnées suivantes :
        </p>
        <CompanyContact settings={settings} company={company} />
      </LegalSection>
    </StaticPage>
  );
}
