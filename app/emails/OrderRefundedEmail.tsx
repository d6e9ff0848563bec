import { formatPrice } from "~/lib/money";
import { htmlDocument } from "./document";
import { EmailLayout } from "./Layout";
import { Button, DetailRows, Heading, Paragraph } from "./parts";
import { greeting, footerText, paragraphs } from "./text";
import type { EmailContent, EmailOrder, EmailShop } from "./types";

export type OrderRefundedData = {
  shop: EmailShop;
  order: EmailOrder;
  /** This refund, including VAT. */
  amountCents: number;
  /** What the customer has still paid for the order after it (0 once refunded in full). */
  remainingPaidCents: number;
  /** The refund's credit note: its number and the customer's link, when issued. */
  creditNote: { number: string; url: string } | null;
  /** Why the shop refunded on its own (the trial pack already bought with this email), or null. */
  note?: string | null;
};

function facts(data: OrderRefundedData) {
  const full = data.remainingPaidCents <= 0;
  return {
    summary: full
      ? `Nous avons remboursé votre commande n°${data.order.id} : ${formatPrice(data.amountCents)}.`
      : `Nous avons remboursé une partie de votre commande n°${data.order.id} : ${formatPrice(data.amountCents)}.`,
    card: "Le montant est recrédité sur la carte utilisée pour le paiement, sous quelques jours selon votre banque.",
    rows: [
      ["Commande", `n°${data.order.id}`],
      ["Montant remboursé", formatPrice(data.amountCents)],
      ...(full ? [] : [["Montant restant payé", formatPrice(data.remainingPaidCents)]]),
      ...(data.creditNote ? [["Avoir", data.creditNote.number]] : []),
    ] as [string, string][],
  };
}

export function orderRefundedSubject(order: Pick<EmailOrder, "id">) {
  return `Remboursement de votre commande n°${order.id}`;
}

function OrderRefundedEmail(data: OrderRefundedData) {
  const { shop, order } = data;
  const f = facts(data);
  return (
    <EmailLayout
      shop={shop}
      title={orderRefundedSubject(order)}
      preheader={`${formatPrice(data.amountCents)} remboursés sur votre carte.`}
    >
      <Heading>Votre remboursement</Heading>
      <Paragraph>{greeting(order.customerFirstName, order.customerName)}</Paragraph>
      <Paragraph>{f.summary}</Paragraph>
      {data.note ? <Paragraph>{data.note}</Paragraph> : null}
      <DetailRows rows={f.rows} />
      <Paragraph>{f.card}</Paragraph>
      {data.creditNote ? <Button href={data.creditNote.url}>Voir l'avoir {data.creditNote.number}</Button> : null}
    </EmailLayout>
  );
}

export function orderRefundedEmail(data: OrderRefundedData): EmailContent {
  const f = facts(data);
  const text = paragraphs(
    greeting(data.order.customerFirstName, data.order.customerName),
    f.summary,
    data.note ?? null,
    f.rows.map(([label, value]) => `${label} : ${value}`).join("\n"),
    f.card,
    data.creditNote ? `Votre avoir ${data.creditNote.number} :\n${data.creditNote.url}` : null,
    footerText(data.shop),
  );
  return { subject: orderRefundedSubject(data.order), html: htmlDocument(<OrderRefundedEmail {...data} />), text };
}
