import { formatDate } from "~/lib/dates";
import { formatPrice } from "~/lib/money";
import type { EmailPayloads } from "~/services/email/email-types";
import { htmlDocument } from "./document";
import { EmailLayout } from "./Layout";
import { Button, DetailRows, Heading, Paragraph } from "./parts";
import { SubscriptionPageLink, subscriptionPageText, type WithSubscriptionUrl } from "./subscription-page";
import { greeting, footerText, paragraphs } from "./text";
import type { EmailContent, EmailOrder, EmailShop } from "./types";

/** A renewal whose payment failed; `order` is the subscription's first order. */
export type RenewalPaymentFailedData = { shop: EmailShop; order: EmailOrder } & EmailPayloads["renewal_payment_failed"] &
  WithSubscriptionUrl;

/** « renouvellement n°2 du 27/12/2026 »: the renewal itself, never the subscription's first order. */
export function renewalName(data: { renewalNumber: number; dueAt?: string | null }): string {
  return data.dueAt
    ? `renouvellement n°${data.renewalNumber} du ${formatDate(data.dueAt)}`
    : `renouvellement n°${data.renewalNumber}`;
}

function facts(data: RenewalPaymentFailedData) {
  return {
    failed: `Le paiement du ${renewalName(data)} de votre abonnement, ${formatPrice(data.amountCents)}, n'a pas abouti : votre banque l'a refusé, ou votre carte a expiré.`,
    pay: "Pour recevoir votre prochain colis, réglez-le avec le lien ci-dessous ; vous pourrez utiliser une autre carte. Dès le paiement reçu, nous préparons votre commande.",
    cancel:
      "Vous ne souhaitez plus recevoir de colis ? Vous pouvez résilier votre abonnement à tout moment, en ligne, sans frais.",
  };
}

export function renewalPaymentFailedSubject(data: Pick<RenewalPaymentFailedData, "renewalNumber" | "dueAt">) {
  return `Votre abonnement : le paiement du ${renewalName(data)} n'a pas abouti`;
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
      <Paragraph>{greeting(order.customerFirstName, order.customerName)}</Paragraph>
      <Paragraph>{f.failed}</Paragraph>
      <DetailRows
        rows={[
          ["Renouvellement", renewalName(data).replace(/^renouvellement /, "")],
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
    greeting(data.order.customerFirstName, data.order.customerName),
    f.failed,
    `Renouvellement : ${renewalName(data).replace(/^renouvellement /, "")}\nMontant dû : ${formatPrice(data.amountCents)}`,
    f.pay,
    `Régler mon renouvellement : ${data.payUrl}`,
    f.cancel,
    subscriptionPageText(data.subscriptionUrl),
    footerText(data.shop),
  );
  return { subject: renewalPaymentFailedSubject(data), html: htmlDocument(<RenewalPaymentFailedEmail {...data} />), text };
}
