import { formatDate } from "~/lib/dates";
import type { EmailPayloads } from "~/services/email/email-types";
import { htmlDocument } from "./document";
import { EmailLayout } from "./Layout";
import { DetailRows, Heading, Paragraph } from "./parts";
import { SubscriptionPageLink, subscriptionPageText, type WithSubscriptionUrl } from "./subscription-page";
import { greeting, footerText, paragraphs } from "./text";
import type { EmailContent, EmailOrder, EmailShop } from "./types";

export type SubscriptionCanceledData = {
  shop: EmailShop;
  order: EmailOrder;
  /** When the subscription ends (ISO). */
  endsAt: string;
  canceledBy: EmailPayloads["subscription_canceled"]["canceledBy"];
} & WithSubscriptionUrl;

const WHO: Record<SubscriptionCanceledData["canceledBy"], string> = {
  customer: "à votre demande",
  shop: "par nos soins",
  payment_failure: "à la suite d'un paiement refusé à l'échéance",
};

function facts(data: SubscriptionCanceledData) {
  return {
    confirmation: `Nous vous confirmons la résiliation de votre abonnement de la commande n°${data.order.id}, ${WHO[data.canceledBy]}. Elle prend effet le ${formatDate(data.endsAt)}.`,
    next: [
      "Aucun autre prélèvement ne sera effectué et aucun autre colis ne vous sera expédié au titre de cet abonnement.",
      "Les commandes déjà payées vous restent acquises : elles sont préparées et livrées normalement.",
      "Aucun frais ne vous est demandé.",
    ],
    keep: "Conservez cet email : il confirme la résiliation de votre contrat (article L. 215-1-1 du Code de la consommation).",
  };
}

export function subscriptionCanceledSubject(order: Pick<EmailOrder, "id">) {
  return `Résiliation de votre abonnement (commande n°${order.id})`;
}

function SubscriptionCanceledEmail(data: SubscriptionCanceledData) {
  const { shop, order } = data;
  const f = facts(data);
  return (
    <EmailLayout
      shop={shop}
      title={subscriptionCanceledSubject(order)}
      preheader={`Votre abonnement est résilié à compter du ${formatDate(data.endsAt)}.`}
    >
      <Heading>Votre abonnement est résilié</Heading>
      <Paragraph>{greeting(order.customerFirstName, order.customerName)}</Paragraph>
      <Paragraph>{f.confirmation}</Paragraph>
      <DetailRows
        rows={[
          ["Abonnement", `commande n°${order.id}`],
          ["Fin de l'abonnement", formatDate(data.endsAt)],
        ]}
      />
      <Paragraph>
        <strong>Et ensuite ?</strong>
      </Paragraph>
      <ul style={{ margin: "0 0 16px", paddingLeft: "22px" }}>
        {f.next.map((line) => (
          <li key={line}>
            <Paragraph>{line}</Paragraph>
          </li>
        ))}
      </ul>
      <Paragraph small>{f.keep}</Paragraph>
      <SubscriptionPageLink url={data.subscriptionUrl} />
    </EmailLayout>
  );
}

export function subscriptionCanceledEmail(data: SubscriptionCanceledData): EmailContent {
  const f = facts(data);
  const text = paragraphs(
    greeting(data.order.customerFirstName, data.order.customerName),
    f.confirmation,
    `Abonnement : commande n°${data.order.id}\nFin de l'abonnement : ${formatDate(data.endsAt)}`,
    `Et ensuite ?\n${f.next.map((l) => `- ${l}`).join("\n")}`,
    f.keep,
    subscriptionPageText(data.subscriptionUrl),
    footerText(data.shop),
  );
  return { subject: subscriptionCanceledSubject(data.order), html: htmlDocument(<SubscriptionCanceledEmail {...data} />), text };
}
