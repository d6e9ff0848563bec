import { htmlDocument } from "./document";
import { LINK_STYLE } from "./theme";
import { EmailLayout } from "./Layout";
import { Button, DetailRows, Heading, Paragraph } from "./parts";
import { greeting, footerText, oneLine, paragraphs } from "./text";
import type { EmailContent, EmailOrder, EmailShop } from "./types";

/** « Votre numéro de suivi »: the number given (or changed) after the shipping email, with the carrier's page. */
export type OrderTrackingNumberData = {
  shop: EmailShop;
  order: EmailOrder;
  trackingNumber: string;
  /** The carrier's name, and its page to follow the parcel (lib/carriers.ts). */
  carrier: string | null;
  carrierUrl: string | null;
};

export function orderTrackingNumberSubject(order: Pick<EmailOrder, "id">) {
  return `Votre numéro de suivi pour la commande n°${order.id}`;
}

function OrderTrackingNumberEmail({ shop, order, trackingNumber, carrier, carrierUrl }: OrderTrackingNumberData) {
  return (
    <EmailLayout
      shop={shop}
      title={orderTrackingNumberSubject(order)}
      preheader={`Votre colis de la commande n°${order.id} se suit avec le numéro ${trackingNumber}.`}
    >
      <Heading>Votre numéro de suivi</Heading>
      <Paragraph>{greeting(order.customerFirstName, order.customerName)}</Paragraph>
      <Paragraph>Voici le numéro de suivi du colis de votre commande n°{order.id}, déjà expédiée.</Paragraph>
      <DetailRows
        rows={[
          ["Commande", `n°${order.id}`],
          ...(carrier ? [["Transporteur", carrier] as [string, string]] : []),
          ["Numéro de suivi", trackingNumber],
        ]}
      />
      {carrierUrl && carrier ? (
        <Paragraph>
          Suivez votre colis sur le site de {carrier} :{" "}
          <a href={carrierUrl} style={LINK_STYLE}>
            suivre mon colis {trackingNumber}
          </a>
        </Paragraph>
      ) : null}
      <Button href={order.trackingUrl}>Suivre ma commande</Button>
    </EmailLayout>
  );
}

export function orderTrackingNumberEmail(data: OrderTrackingNumberData): EmailContent {
  const { shop, order, trackingNumber, carrier, carrierUrl } = data;
  const text = paragraphs(
    greeting(order.customerFirstName, order.customerName),
    `Voici le numéro de suivi du colis de votre commande n°${order.id}, déjà expédiée.`,
    carrier ? `Transporteur : ${carrier}` : null,
    `Numéro de suivi : ${oneLine(trackingNumber)}`,
    carrierUrl && carrier ? `Suivre le colis sur le site de ${carrier} : ${carrierUrl}` : null,
    `Suivre ma commande : ${order.trackingUrl}`,
    footerText(shop),
  );
  return {
    subject: orderTrackingNumberSubject(order),
    html: htmlDocument(<OrderTrackingNumberEmail {...data} />),
    text,
  };
}
