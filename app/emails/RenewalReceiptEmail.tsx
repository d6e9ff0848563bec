import { formatDate } from "~/lib/dates";
import { formatPrice } from "~/lib/money";
import type { EmailPayloads } from "~/services/email/email-types";
import { htmlDocument } from "./document";
import { EmailLayout } from "./Layout";
import { LINK_STYLE } from "./theme";
import { AddressBlock, Button, DetailRows, Heading, OrderLines, Paragraph, SubHeading } from "./parts";
import { SubscriptionPageLink, subscriptionPageText, type WithSubscriptionUrl } from "./subscription-page";
import { greeting, addressText, footerText, heading, orderLinesText, paragraphs } from "./text";
import type { EmailContent, EmailOrder, EmailShop } from "./types";

/** The receipt of a paid renewal: its order is the one to ship, with its invoice (issued with the payment). */
export type RenewalReceiptData = {
  shop: EmailShop;
  order: EmailOrder;
  /** The renewal order's invoice: its number and the customer's signed link (the order's view link key). */
  invoice?: { number: string; url: string } | null;
} & EmailPayloads["renewal_receipt"] &
  WithSubscriptionUrl;

function facts(data: RenewalReceiptData) {
  const { order } = data;
  return {
    paid: `Le renouvellement n°${data.renewalNumber} de votre abonnement a été payé : ${formatPrice(order.totalCents)}. Il devient la commande n°${order.id}, que nous préparons pour vous l'expédier.`,
    next: data.nextRenewalAt
      ? `Prochain renouvellement : le ${formatDate(data.nextRenewalAt)}, du même montant. Vous pouvez résilier votre abonnement à tout moment, en ligne, sans frais.`
      : null,
  };
}

export function renewalReceiptSubject(data: Pick<RenewalReceiptData, "order" | "renewalNumber">) {
  return `Votre abonnement : renouvellement n°${data.renewalNumber} payé (commande n°${data.order.id})`;
}

function RenewalReceiptEmail(data: RenewalReceiptData) {
  const { shop, order } = data;
  const f = facts(data);
  return (
    <EmailLayout
      shop={shop}
      title={renewalReceiptSubject(data)}
      preheader={`Commande n°${order.id} : ${formatPrice(order.totalCents)} payés, votre colis se prépare.`}
    >
      <Heading>Votre abonnement est renouvelé</Heading>
      <Paragraph>{greeting(order.customerFirstName, order.customerName)}</Paragraph>
      <Paragraph>{f.paid}</Paragraph>
      <DetailRows
        rows={[
          ["Commande", `n°${order.id}`],
          ["Renouvellement", `n°${data.renewalNumber}`],
          ["Payé le", formatDate(order.paidAt ?? order.createdAt)],
          ["Montant", formatPrice(order.totalCents)],
        ]}
      />
      <SubHeading>Ce que nous vous expédions</SubHeading>
      <OrderLines order={order} />
      {data.invoice ? (
        <Paragraph>
          Votre facture n°{data.invoice.number} est disponible :{" "}
          <a href={data.invoice.url} style={LINK_STYLE}>
            télécharger ma facture
          </a>
          .
        </Paragraph>
      ) : null}
      <Button href={order.trackingUrl}>Suivre ma commande</Button>
      <SubHeading>Adresse de livraison</SubHeading>
      <AddressBlock order={order} />
      {f.next ? <Paragraph small>{f.next}</Paragraph> : null}
      <SubscriptionPageLink url={data.subscriptionUrl} />
    </EmailLayout>
  );
}

export function renewalReceiptEmail(data: RenewalReceiptData): EmailContent {
  const { shop, order } = data;
  const f = facts(data);
  const text = paragraphs(
    greeting(order.customerFirstName, order.customerName),
    f.paid,
    `Commande : n°${order.id}\nRenouvellement : n°${data.renewalNumber}\nPayé le : ${formatDate(order.paidAt ?? order.createdAt)}\nMontant : ${formatPrice(order.totalCents)}`,
    heading("Ce que nous vous expédions"),
    orderLinesText(order),
    data.invoice ? `Votre facture n°${data.invoice.number} : ${data.invoice.url}` : null,
    `Suivre ma commande : ${order.trackingUrl}`,
    heading("Adresse de livraison"),
    addressText(order),
    f.next,
    subscriptionPageText(data.subscriptionUrl),
    footerText(shop),
  );
  return { subject: renewalReceiptSubject(data), html: htmlDocument(<RenewalReceiptEmail {...data} />), text };
}
