import { OPENING_HOURS } from "~/content/brand";
import { formatDateTime } from "~/lib/dates";
import { htmlDocument } from "./document";
import { EmailLayout } from "./Layout";
import { Box, DetailRows, Heading, Paragraph, UserText } from "./parts";
import { footerText, heading, oneLine, paragraphs, quoted, userText } from "./text";
import type { EmailContactRequest, EmailContent, EmailShop } from "./types";

export type ContactAckData = { shop: EmailShop; contact: EmailContactRequest };

export const CONTACT_ACK_SUBJECT = "Nous avons bien reçu votre message";
const reply = "Notre service client vous répond par email dans les meilleurs délais, pendant ses heures d'ouverture :";

function ContactAckEmail({ shop, contact }: ContactAckData) {
  return (
    <EmailLayout shop={shop} title={CONTACT_ACK_SUBJECT} preheader={`Votre message « ${oneLine(contact.subject, 80)} » est bien arrivé : nous vous répondons vite.`}>
      <Heading>Merci pour votre message</Heading>
      <Paragraph>Bonjour {oneLine(contact.name)},</Paragraph>
      <Paragraph>Nous avons bien reçu votre message du {formatDateTime(contact.createdAt)}. {reply}</Paragraph>
      <DetailRows rows={OPENING_HOURS.map((h): [string, string] => [h.days, h.hours])} />
      <Paragraph>Pour rappel, voici votre message :</Paragraph>
      <Box>
        <Paragraph>
          <strong>Objet :</strong> {oneLine(contact.subject)}
        </Paragraph>
        <UserText>{userText(contact.message)}</UserText>
      </Box>
      <Paragraph small>Inutile de nous réécrire en attendant : votre demande est enregistrée.</Paragraph>
    </EmailLayout>
  );
}

export function contactAckEmail(data: ContactAckData): EmailContent {
  const { shop, contact } = data;
  const text = paragraphs(
    `Bonjour ${oneLine(contact.name)},`,
    `Nous avons bien reçu votre message du ${formatDateTime(contact.createdAt)}. ${reply}`,
    OPENING_HOURS.map((h) => `${h.days} : ${h.hours}`).join("\n"),
    heading("Votre message"),
    `Objet : ${oneLine(contact.subject)}`,
    quoted(contact.message),
    "Inutile de nous réécrire en attendant : votre demande est enregistrée.",
    footerText(shop),
  );
  return { subject: CONTACT_ACK_SUBJECT, html: htmlDocument(<ContactAckEmail {...data} />), text };
}
