import { DELIVERY } from "~/lib/brand";
import { htmlDocument } from "./document";
import { EmailLayout } from "./Layout";
import { AddressBlock, Button, DetailRows, Heading, Paragraph, SubHeading } from "./parts";
import { addressText, footerText, heading, oneLine, paragraphs } from "./text";
import type { EmailContent, EmailOrder, EmailShop } from "./types";

export type OrderShippedData = { shop: EmailShop; order: EmailOrder; trackingNumber: string | null };

const arrival = `Votre colis vous parvient en ${DELIVERY.arrival} à compter de son expédition.`;

function OrderShippedEmail({ shop, order, trackingNumber }: OrderShippedData) {
  const hello = order.customerFirstName || order.customerName;
  return (
    <EmailLayout shop={shop} title={orderShippedSubject(order)} preheader={`Bonne nouvelle ${hello} : votre commande n°${order.id} est en route.`}>
      <Heading>Votre commande est en route</Heading>
      <Paragraph>Bonjour {hello},</Paragraph>
      <Paragraph>Votre commande n°{order.id} a été expédiée. {arrival}</Paragraph>
      <DetailRows
        rows={[
          ["Commande", `n°${order.id}`],
          ["Numéro de suivi", trackingNumber ?? "non communiqué"],
        ]}
      />
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
  const { shop, order, trackingNumber } = data;
  const text = paragraphs(
    `Bonjour ${oneLine(order.customerFirstName || order.customerName)},`,
    `Votre commande n°${order.id} a été expédiée. ${arrival}`,
    trackingNumber ? `Numéro de suivi : ${oneLine(trackingNumber)}` : null,
    `Suivre ma commande : ${order.trackingUrl}`,
    heading("Adresse de livraison"),
    addressText(order),
    footerText(shop),
  );
  return { subject: orderShippedSubject(order), html: htmlDocument(<OrderShippedEmail {...data} />), text };
}
