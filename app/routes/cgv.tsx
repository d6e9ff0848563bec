import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { InlineText, LegalBlocks } from "~/components/shop/static/LegalBlocks";
import { LegalSection, TableOfContents } from "~/components/shop/static/LegalSection";
import { StaticPage } from "~/components/shop/static/StaticPage";
import { CURRENT_TERMS_VERSION, termsOfSale, termsVersionLabel } from "~/legal/terms-of-sale";
import { pageMeta } from "~/lib/meta";
import { getSettings } from "~/services/settings.server";

export const meta: MetaFunction = () =>
  pageMeta(
    "Conditions générales de vente",
    "Conditions générales de vente de Maison Éclat : commande, prix, paiement sécurisé, abonnement, livraison gratuite, droit de rétractation de 14 jours et garanties légales.",
  );

/** The terms of sale in force (app/legal/terms-of-sale.ts), with the seller's details from the site settings. */
export async function loader(_: LoaderFunctionArgs) {
  return { terms: termsOfSale(CURRENT_TERMS_VERSION, await getSettings()) };
}

export default function Cgv() {
  const { terms } = useLoaderData<typeof loader>();

  return (
    <StaticPage
      eyebrow="Informations légales"
      title={terms.title}
      updatedAt={termsVersionLabel(terms.version)}
      intro={
        <p>
          <InlineText content={terms.intro} />
        </p>
      }
    >
      <TableOfContents items={terms.sections} />

      {terms.sections.map((section, i) => (
        <LegalSection key={section.id} id={section.id} number={i + 1} title={section.title}>
          <LegalBlocks blocks={section.blocks} />
        </LegalSection>
      ))}
    </StaticPage>
  );
}
