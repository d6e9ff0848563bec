import { formatPrice } from "~/lib/money";
import type { EmailPayloads } from "~/services/email/email-types";
import { htmlDocument } from "./document";
import { EmailLayout } from "./Layout";
import { Button, DetailRows, Heading, Paragraph } from "./parts";
import { renewalName } from "./RenewalPaymentFailedEmail";
import { SubscriptionPageLink, subscriptionPageText, type WithSubscriptionUrl } from "./subscription-page";
import { greeting, footerText, paragraphs } from "./text";
import type { EmailContent, EmailOrder, EmailShop } from "./types";

/** A renewal the bank asks the customer to confirm (3-D Secure); `order` is the subscription's first order. */
export type RenewalActionRequiredData = { shop: EmailShop; order: EmailOrder } & EmailPayloads["renewal_action_required"] &
  WithSubscriptionUrl;

export const RENEWAL_ACTION_REQUIRED_SUBJECT = "Action requise : confirmez le paiement de votre abonnement";

function facts(data: RenewalActionRequiredData) {
  return {
    asked: `Votre banque demande une confirmation pour le paiement du ${renewalName(data)} de votre abonnement, ${formatPrice(data.amountCents)}. Sans elle, le paiement ne peut pas aboutir.`,
    how: "Ouvrez le lien ci-dessous, saisissez votre carte, puis confirmez le paiement auprès de votre banque (dans votre application bancaire, par exemple). Dès le paiement reçu, nous préparons votre commande.",
    why: "Cette confirmation, l'authentification forte (3-D Secure), protège vos paiements en ligne : votre banque peut la demander de temps en temps, même pour un abonnement.",
    cancel:
      "Vous ne souhaitez plus recevoir de colis ? Vous pouvez résilier votre abonnement à tout moment, en ligne, sans frais.",
  };
}

function RenewalActionRequiredEmail(data: RenewalActionRequiredData) {
  const { shop, order } = data;
  const f = facts(data);
  return (
    <EmailLayout
      shop={shop}
      title={RENEWAL_ACTION_REQUIRED_SUBJECT}
      preheader={`Votre banque demande de confirmer le paiement de ${formatPrice(data.amountCents)}.`}
    >
      <Heading>Confirmez le paiement de votre abonnement</Heading>
      <Paragraph>{greeting(order.customerFirstName, order.customerName)}</Paragraph>
      <Paragraph>{f.asked}</Paragraph>
      <DetailRows
        rows={[
          ["Renouvellement", renewalName(data).replace(/^renouvellement /, "")],
          ["Montant à confirmer", formatPrice(data.amountCents)],
        ]}
      />
      <Paragraph>{f.how}</Paragraph>
      <Button href={data.payUrl}>Confirmer le paiement</Button>
      <Paragraph small>{f.why}</Paragraph>
      <Paragraph small>{f.cancel}</Paragraph>
      <SubscriptionPageLink url={data.subscriptionUrl} />
    </EmailLayout>
  );
}

export function renewalActionRequiredEmail(data: RenewalActionRequiredData): EmailContent {
  const f = facts(data);
  const text = paragraphs(
    greeting(data.order.customerFirstName, data.order.customerName),
    f.asked,
    `Renouvellement : ${renewalName(data).replace(/^renouvellement /, "")}\nMontant à confirmer : ${formatPrice(data.amountCents)}`,
    f.how,
    `Confirmer le paiement : ${data.payUrl}`,
    f.why,
    f.cancel,
    subscriptionPageText(data.subscriptionUrl),
    footerText(data.shop),
  );
  return {
    subject: RENEWAL_ACTION_REQUIRED_SUBJECT,
    html: htmlDocument(<RenewalActionRequiredEmail {...data} />),
    text,
  };
}
