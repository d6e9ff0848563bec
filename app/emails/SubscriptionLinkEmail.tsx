import { htmlDocument } from "./document";
import { EmailLayout } from "./Layout";
import { Button, Heading, Paragraph } from "./parts";
import { greeting, footerText, paragraphs } from "./text";
import { LINK_STYLE } from "./theme";
import type { EmailContent, EmailShop } from "./types";
import { subscriptionLinkLifetime } from "./subscription-page";

/** A fresh management link, asked for on the shop (an expired link, a view link, a pay link). */
export type SubscriptionLinkData = {
  shop: EmailShop;
  /** Who we greet (may be empty). */
  hello: string;
  /** The subscription's first order: how the customer knows it. */
  firstOrderId: number | null;
  /** The signed link to the subscription's private page (services/subscription-link.server.ts). */
  manageUrl: string;
};

export const SUBSCRIPTION_LINK_SUBJECT = "Votre lien pour gérer votre abonnement";

function facts(data: SubscriptionLinkData) {
  const which = data.firstOrderId ? ` (commande n°${data.firstOrderId})` : "";
  return {
    hello: greeting(data.hello),
    intro: `Vous avez demandé un lien pour gérer votre abonnement${which} : prochain renouvellement, adresse de livraison, commandes, résiliation.`,
    lifetime: subscriptionLinkLifetime(),
    notYou:
      "Si vous n'avez rien demandé, ignorez cet email : sans ce lien, personne ne peut accéder à votre abonnement. Ce lien vous est personnel : ne le transférez pas.",
  };
}

function SubscriptionLinkEmail(data: SubscriptionLinkData) {
  const f = facts(data);
  return (
    <EmailLayout shop={data.shop} title={SUBSCRIPTION_LINK_SUBJECT} preheader={f.lifetime}>
      <Heading>Gérer votre abonnement</Heading>
      <Paragraph>{f.hello}</Paragraph>
      <Paragraph>{f.intro}</Paragraph>
      <Button href={data.manageUrl}>Gérer mon abonnement</Button>
      <Paragraph small>
        {f.lifetime} Si le bouton ne fonctionne pas, copiez ce lien :{" "}
        <a href={data.manageUrl} style={LINK_STYLE}>
          {data.manageUrl}
        </a>
      </Paragraph>
      <Paragraph small>{f.notYou}</Paragraph>
    </EmailLayout>
  );
}

export function subscriptionLinkEmail(data: SubscriptionLinkData): EmailContent {
  const f = facts(data);
  const text = paragraphs(
    f.hello,
    f.intro,
    `Gérer mon abonnement : ${data.manageUrl}`,
    f.lifetime,
    f.notYou,
    footerText(data.shop),
  );
  return { subject: SUBSCRIPTION_LINK_SUBJECT, html: htmlDocument(<SubscriptionLinkEmail {...data} />), text };
}
