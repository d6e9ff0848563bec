import { formatDateTime } from "~/lib/dates";
import { htmlDocument } from "./document";
import { EmailLayout } from "./Layout";
import { AddressBlock, Box, Button, Heading, Paragraph, SubHeading } from "./parts";
import { greeting, addressText, footerText, heading, oneLine, paragraphs } from "./text";
import { LINK_STYLE } from "./theme";
import type { EmailAddress, EmailContent, EmailShop } from "./types";
import { subscriptionLinkLifetime } from "./subscription-page";

/** The delivery address of a subscription changed on its page: the customer is told, with a way to react. */
export type SubscriptionAddressChangedData = {
  shop: EmailShop;
  /** Who we greet (may be empty). */
  hello: string;
  /** The subscription's first order: how the customer knows it. */
  firstOrderId: number | null;
  /** When it changed (ISO). */
  changedAt: string;
  previous: EmailAddress;
  next: EmailAddress;
  /** A fresh link to the subscription's private page. */
  manageUrl: string;
};

export const SUBSCRIPTION_ADDRESS_CHANGED_SUBJECT = "Votre adresse de livraison a été modifiée";

function facts(data: SubscriptionAddressChangedData) {
  const which = data.firstOrderId ? ` (commande n°${data.firstOrderId})` : "";
  return {
    hello: greeting(data.hello),
    intro: `L'adresse de livraison de votre abonnement${which} a été modifiée le ${formatDateTime(data.changedAt)} (heure de Paris). Vos prochains colis partiront à la nouvelle adresse ; les commandes déjà passées gardent la leur.`,
    notYouTitle: "Si vous n'êtes pas à l'origine de ce changement",
    notYou:
      "Ouvrez votre espace abonnement avec le lien ci-dessous pour remettre votre adresse, et contactez-nous sans attendre : nous vérifierons votre prochain colis avec vous.",
    lifetime: subscriptionLinkLifetime(),
    contactUrl: `${data.shop.publicUrl}/contact`,
  };
}

function SubscriptionAddressChangedEmail(data: SubscriptionAddressChangedData) {
  const f = facts(data);
  return (
    <EmailLayout
      shop={data.shop}
      title={SUBSCRIPTION_ADDRESS_CHANGED_SUBJECT}
      preheader={`Vos prochains colis partiront à la nouvelle adresse, à ${oneLine(data.next.shippingCity)}.`}
    >
      <Heading>{SUBSCRIPTION_ADDRESS_CHANGED_SUBJECT}</Heading>
      <Paragraph>{f.hello}</Paragraph>
      <Paragraph>{f.intro}</Paragraph>
      <SubHeading>Ancienne adresse</SubHeading>
      <AddressBlock order={data.previous} />
      <SubHeading>Nouvelle adresse</SubHeading>
      <AddressBlock order={data.next} />
      <SubHeading>{f.notYouTitle}</SubHeading>
      <Box>
        <Paragraph>{f.notYou}</Paragraph>
      </Box>
      <Button href={data.manageUrl}>Gérer mon abonnement</Button>
      <Paragraph small>{f.lifetime}</Paragraph>
      <Paragraph small>
        Nous contacter :{" "}
        <a href={f.contactUrl} style={LINK_STYLE}>
          {f.contactUrl}
        </a>
      </Paragraph>
    </EmailLayout>
  );
}

export function subscriptionAddressChangedEmail(data: SubscriptionAddressChangedData): EmailContent {
  const f = facts(data);
  const text = paragraphs(
    f.hello,
    f.intro,
    heading("Ancienne adresse"),
    addressText(data.previous),
    heading("Nouvelle adresse"),
    addressText(data.next),
    heading(f.notYouTitle),
    f.notYou,
    `Gérer mon abonnement : ${data.manageUrl}`,
    f.lifetime,
    `Nous contacter : ${f.contactUrl}`,
    footerText(data.shop),
  );
  return {
    subject: SUBSCRIPTION_ADDRESS_CHANGED_SUBJECT,
    html: htmlDocument(<SubscriptionAddressChangedEmail {...data} />),
    text,
  };
}
