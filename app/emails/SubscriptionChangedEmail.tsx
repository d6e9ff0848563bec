import { htmlDocument } from "./document";
import { EmailLayout } from "./Layout";
import { Box, Button, Heading, Paragraph } from "./parts";
import { greeting, footerText, oneLine, paragraphs } from "./text";
import { LINK_STYLE } from "./theme";
import type { EmailContent, EmailShop } from "./types";
import { subscriptionLinkLifetime } from "./subscription-page";

/** A change made to a subscription (skip, pause, pack, reactivation...): what it does, and a way back to the page. */
export type SubscriptionChangedData = {
  shop: EmailShop;
  hello: string;
  firstOrderId: number | null;
  /** The email's subject and heading, e.g. « Votre abonnement est en pause ». */
  title: string;
  /** The sentence that says what changes, with its dates and amounts. */
  summary: string;
  manageUrl: string;
};

function facts(data: SubscriptionChangedData) {
  const which = data.firstOrderId ? ` (commande n°${data.firstOrderId})` : "";
  return {
    hello: greeting(data.hello),
    intro: `Votre abonnement${which} a été modifié :`,
    notYou: "Vous n'êtes pas à l'origine de ce changement ? Ouvrez votre espace abonnement et contactez-nous sans attendre.",
    lifetime: subscriptionLinkLifetime(),
    contactUrl: `${data.shop.publicUrl}/contact`,
  };
}

function SubscriptionChangedEmail(data: SubscriptionChangedData) {
  const f = facts(data);
  return (
    <EmailLayout shop={data.shop} title={data.title} preheader={oneLine(data.summary)}>
      <Heading>{data.title}</Heading>
      <Paragraph>{f.hello}</Paragraph>
      <Paragraph>{f.intro}</Paragraph>
      <Box>
        <Paragraph>{data.summary}</Paragraph>
      </Box>
      <Button href={data.manageUrl}>Gérer mon abonnement</Button>
      <Paragraph small>{f.lifetime}</Paragraph>
      <Paragraph small>{f.notYou}</Paragraph>
      <Paragraph small>
        Nous contacter :{" "}
        <a href={f.contactUrl} style={LINK_STYLE}>
          {f.contactUrl}
        </a>
      </Paragraph>
    </EmailLayout>
  );
}

export function subscriptionChangedEmail(data: SubscriptionChangedData): EmailContent {
  const f = facts(data);
  const text = paragraphs(
    f.hello,
    f.intro,
    data.summary,
    `Gérer mon abonnement : ${data.manageUrl}`,
    f.lifetime,
    f.notYou,
    `Nous contacter : ${f.contactUrl}`,
    footerText(data.shop),
  );
  return { subject: data.title, html: htmlDocument(<SubscriptionChangedEmail {...data} />), text };
}
