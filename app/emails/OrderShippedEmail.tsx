import { DELIVERY } from "~/content/brand";
import { htmlDocument } from "./document";
import { LINK_STYLE } from "./theme";
import { EmailLayout } from "./Layout";
import { AddressBlock, Button, DetailRows, Heading, Paragraph, SubHeading } from "./parts";
import { greeting, nameOf, withName, addressText, footerText, heading, oneLine, paragraphs } from "./text";
import type { EmailContent, EmailOrder, EmailShop } from "./types";

export type OrderShippedData = {
  shop: EmailShop;
  order: EmailOrder;
  trackingNumber: string | null;
  /** The carrier's name, and its page to follow the parcel (lib/carriers.ts). */
  carrier?: string | null;
  carrierUrl?: string | null;
};

const arrival = `Votre colis vous parvient en ${DELIVERY.arrival} à compter de son expédition.`;

/** Shipped without a number (the administrator confirmed it): the customer knows one may follow. */
export const NUMBER_LATER = "Si votre colis reçoit un numéro de suivi, nous vous l'enverrons par email.";

function OrderShippedEmail({ shop, order, trackingNumber, carrier, carrierUrl }: OrderShippedData) {
  const hello = nameOf(order.customerFirstName, order.customerName);
  return (
    <EmailLayout
      shop={shop}
      title={orderShippedSubject(order)}
      preheader={withName("Bonne nouvelle", hello, `: votre commande n°${order.id} est en route.`)}
    >
      <Heading>Votre commande est en route</Heading>
      <Paragraph>{greeting(order.customerFirstName, order.customerName)}</Paragraph>
      <Paragraph>
        Votre commande n°{order.id} a été expédiée. {arrival}
      </Paragraph>
      <DetailRows
        rows={[
          ["Commande", `n°${order.id}`],
          ...(carrier ? [["Transporteur", carrier] as [string, string]] : []),
          ...(trackingNumber ? [["Numéro de suivi", trackingNumber] as [string, string]] : []),
        ]}
      />
      {trackingNumber ? null : <Paragraph>{NUMBER_LATER}</Paragraph>}
      {carrierUrl && carrier ? (
        <Paragraph>
          Suivez votre colis sur le site de {carrier} :{" "}
          <a href={carrierUrl} style={LINK_STYLE}>
            suivre mon colis {trackingNumber}
          </a>
        </Paragraph>
      ) : null}
      <Button href={order.trackingUrl}>Suivre ma commande</Button>
      <SubHeading>Adresse de livraison</SubHeading>
      <AddressBlock order={order} />
    </EmailLayout>
  );
}

export function orderShippedSubject(order: Pick<EmailOrder, "id">) {
  return `Votre commande n°${order.id} a été expédiée`;
}

export function orderShippedEmail(data: OrderShippedData): EmailContent {
  const { shop, order, trackingNumber, carrier, carrierUrl } = data;
  const text = paragraphs(
    greeting(order.customerFirstName, order.customerName),
    `Votre commande n°${order.id} a été expédiée. ${arrival}`,
    carrier ? `Transporteur : ${carrier}` : null,
    trackingNumber ? `Numéro de suivi : ${oneLine(trackingNumber)}` : NUMBER_LATER,
    carrierUrl && carrier ? `Suivre le colis sur le site de ${carrier} : ${carrierUrl}` : null,
    `Suivre ma commande : ${order.trackingUrl}`,
    heading("Adresse de livraison"),
    addressText(order),
    footerText(shop),
  );
  return { subject: orderShippedSubject(order), html: htmlDocument(<OrderShippedEmail {...data} />), text };
}
