import { formatDayInWords } from "~/lib/dates";
import { formatPrice } from "~/lib/money";
import { htmlDocument } from "./document";
import { EmailLayout } from "./Layout";
import { Button, DetailRows, Heading, OrderLines, Paragraph } from "./parts";
import { greeting, footerText, orderLinesText, paragraphs } from "./text";
import { LINK_STYLE } from "./theme";
import type { EmailContent, EmailOrder, EmailShop } from "./types";

/** The one reminder of a checkout left unpaid, sent only because the buyer asked for it on the delivery form. */
export type CartReminderData = {
  shop: EmailShop;
  order: Pick<EmailOrder, "id" | "createdAt" | "customerFirstName" | "lines" | "subtotalCents" | "shippingCents" | "totalCents">;
  /** The promotion code the order was made with, if any. */
  promotionCode: string | null;
  /** « Finaliser ma commande »: the signed link back to the payment step (orders/reminder-links.server.ts). */
  resumeUrl: string;
  /** The one-click unsubscribe page. */
  unsubscribeUrl: string;
};

export const CART_REMINDER_SUBJECT = "Votre commande vous attend";

function facts(data: CartReminderData) {
  const day = formatDayInWords(data.order.createdAt);
  return {
    amount: formatPrice(data.order.totalCents),
    intro: `Vous avez commencé une commande le ${day} sans la finaliser. Elle vous attend : votre panier est gardé tel quel, il ne reste que le paiement.`,
    why: "Vous recevez cet email parce que vous avez coché « M'envoyer un rappel si je ne finalise pas ma commande ». C'est le seul rappel : nous ne vous écrirons plus au sujet de cette commande.",
    lifetime: "Ce lien est valable 7 jours. Il vous est personnel : ne transférez pas cet email.",
    unsubscribe: "Ne plus recevoir de rappels de commande :",
  };
}

function CartReminderEmail(data: CartReminderData) {
  const f = facts(data);
  return (
    <EmailLayout
      shop={data.shop}
      title={CART_REMINDER_SUBJECT}
      preheader={`Votre commande de ${f.amount} n'est pas encore payée.`}
    >
      <Heading>Votre commande vous attend</Heading>
      <Paragraph>{greeting(data.order.customerFirstName)}</Paragraph>
      <Paragraph>{f.intro}</Paragraph>
      <DetailRows
        rows={[
          ["Commande", `n°${data.order.id}`],
          ...(data.promotionCode ? ([["Code promo", data.promotionCode]] as [string, string][]) : []),
          ["Montant", f.amount],
        ]}
      />
      <OrderLines order={data.order} />
      <Button href={data.resumeUrl}>Finaliser ma commande</Button>
      <Paragraph small>{f.lifetime}</Paragraph>
      <Paragraph small>{f.why}</Paragraph>
      <Paragraph small>
        {f.unsubscribe}{" "}
        <a href={data.unsubscribeUrl} style={LINK_STYLE}>
          me désinscrire des rappels
        </a>
      </Paragraph>
    </EmailLayout>
  );
}

export function cartReminderEmail(data: CartReminderData): EmailContent {
  const f = facts(data);
  const text = paragraphs(
    greeting(data.order.customerFirstName),
    f.intro,
    `Commande : n°${data.order.id}${data.promotionCode ? `\nCode promo : ${data.promotionCode}` : ""}\nMontant : ${f.amount}`,
    orderLinesText(data.order),
    `Finaliser ma commande : ${data.resumeUrl}`,
    f.lifetime,
    f.why,
    `${f.unsubscribe} ${data.unsubscribeUrl}`,
    footerText(data.shop),
  );
  return { subject: CART_REMINDER_SUBJECT, html: htmlDocument(<CartReminderEmail {...data} />), text };
}
