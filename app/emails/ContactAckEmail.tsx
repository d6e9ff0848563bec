import { OPENING_HOURS } from "~/content/brand";
import { formatDateTime } from "~/lib/dates";
import { htmlDocument } from "./document";
import { EmailLayout } from "./Layout";
import { DetailRows, Heading, Paragraph } from "./parts";
import { footerText, oneLine, paragraphs } from "./text";
import type { EmailContactRequest, EmailContent, EmailShop } from "./types";

export type ContactAckData = { shop: EmailShop; contact: EmailContactRequest };

export const CONTACT_ACK_SUBJECT = "Nous avons bien reçu votre message";
/**
 * The form can be sent with anyone's address: so that the acknowledgement cannot carry someone
 * else's text to that address, it quotes neither the message nor the name, only the subject, cut short.
 */
const SUBJECT_SHOWN = 80;
const reply = "Notre service client vous répond par email dans les meilleurs délais, pendant ses heures d'ouverture :";

function ContactAckEmail({ shop, contact }: ContactAckData) {
  const subject = oneLine(contact.subject, SUBJECT_SHOWN);
  return (
    <EmailLayout
      shop={shop}
      title={CONTACT_ACK_SUBJECT}
      preheader={`Votre message « ${subject} » est bien arrivé : nous vous répondons vite.`}
    >
      <Heading>Merci pour votre message</Heading>
      <Paragraph>Bonjour,</Paragraph>
      <Paragraph>
        Nous avons bien reçu votre message du {formatDateTime(contact.createdAt)} (objet : « {subject} »). {reply}
      </Paragraph>
      <DetailRows rows={OPENING_HOURS.map((h): [string, string] => [h.days, h.hours])} />
      <Paragraph small>Inutile de nous réécrire en attendant : votre demande est enregistrée.</Paragraph>
    </EmailLayout>
  );
}

export function contactAckEmail(data: ContactAckData): EmailContent {
  const { shop, contact } = data;
  const text = paragraphs(
    "Bonjour,",
    `Nous avons bien reçu votre message du ${formatDateTime(contact.createdAt)}. ${reply}`,
    OPENING_HOURS.map((h) => `${h.days} : ${h.hours}`).join("\n"),
    `Objet : ${oneLine(contact.subject, SUBJECT_SHOWN)}`,
    "Inutile de nous réécrire en attendant : votre demande est enregistrée.",
    footerText(shop),
  );
  return { subject: CONTACT_ACK_SUBJECT, html: htmlDocument(<ContactAckEmail {...data} />), text };
}
