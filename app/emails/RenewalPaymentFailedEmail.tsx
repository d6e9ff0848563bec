import { formatPrice } from "~/lib/money";
import type { EmailPayloads } from "~/services/email/email-types";
import { htmlDocument } from "./document";
import { EmailLayout } from "./Layout";
import { Button, DetailRows, Heading, Paragraph } from "./parts";
import { SubscriptionPageLink, subscriptionPageText, type WithSubscriptionUrl } from "./subscription-page";
import { footerText, oneLine, paragraphs } from "./text";
import type { EmailContent, EmailOrder, EmailShop } from "./types";

/** A renewal whose payment failed; `order` is the subscription's first order. */
export type RenewalPaymentFailedData = { shop: EmailShop; order: EmailOrder } & EmailPayloads["renewal_payment_failed"] &
  WithSubscriptionUrl;

function facts(data: RenewalPaymentFailedData) {
  return {
    failed: `Le paiement du renouvellement n°${data.renewalNumber} de votre abonnement (commande n°${data.order.id}), ${formatPrice(data.amountCents)}, n'a pas abouti : votre banque l'a refusé, ou votre carte a expiré.`,
    pay: "Pour recevoir votre prochain colis, réglez-le avec le lien ci-dessous ; vous pourrez utiliser une autre carte. Dès le paiement reçu, nous préparons votre commande.",
    cancel:
      "Vous ne souhaitez plus recevoir de colis ? Vous pouvez résilier votre abonnement à tout moment, en ligne, sans frais.",
  };
}

export function renewalPaymentFailedSubject(data: Pick<RenewalPaymentFailedData, "order">) {
  return `Votre abonnement : le paiement du renouvellement n'a pas abouti (commande n°${data.order.id})`;
}

function RenewalPaymentFailedEmail(data: RenewalPaymentFailedData) {
  const { shop, order } = data;
  const f = facts(data);
  return (
    <EmailLayout
      shop={shop}
      title={renewalPaymentFailedSubject(data)}
      preheader={`Le paiement de ${formatPrice(data.amountCents)} n'a pas abouti : réglez-le en un clic.`}
    >
      <Heading>Le paiement de votre renouvellement n'a pas abouti</Heading>
      <Paragraph>Bonjour {order.customerFirstName || order.customerName},</Paragraph>
      <Paragraph>{f.failed}</Paragraph>
      <DetailRows
        rows={[
          ["Abonnement", `commande n°${order.id}`],
          ["Renouvellement", `n°${data.renewalNumber}`],
          ["Montant dû", formatPrice(data.amountCents)],
        ]}
      />
      <Paragraph>{f.pay}</Paragraph>
      <Button href={data.payUrl}>Régler mon renouvellement</Button>
      <Paragraph small>{f.cancel}</Paragraph>
      <SubscriptionPageLink url={data.subscriptionUrl} />
    </EmailLayout>
  );
}

export function renewalPaymentFailedEmail(data: RenewalPaymentFailedData): EmailContent {
  const f = facts(data);
  const text = paragraphs(
    `Bonjour ${oneLine(data.order.customerFirstName || data.order.customerName)},`,
    f.failed,
    `Abonnement : commande n°${data.order.id}\nRenouvellement : n°${data.renewalNumber}\nMontant dû : ${formatPrice(data.amountCents)}`,
    f.pay,
    `Régler mon renouvellement : ${data.payUrl}`,
    f.cancel,
    subscriptionPageText(data.subscriptionUrl),
    footerText(data.shop),
  );
  return { subject: renewalPaymentFailedSubject(data), html: htmlDocument(<RenewalPaymentFailedEmail {...data} />), text };
}
