import { formatDateTime } from "~/lib/dates";
import { htmlDocument } from "./document";
import { EmailLayout } from "./Layout";
import { Box, Button, DetailRows, Heading, UserText } from "./parts";
import { footerText, oneLine, paragraphs, quoted, userText } from "./text";
import type { EmailContactRequest, EmailContent, EmailShop } from "./types";

/** To the shop: a visitor sent the contact form. */
export type ShopNewContactData = { shop: EmailShop; contact: EmailContactRequest };

/** The subject carries the visitor's own subject, on one line (no header can be smuggled in). */
export function shopNewContactSubject(contact: Pick<EmailContactRequest, "subject">) {
  return `Nouvelle demande de contact : ${oneLine(contact.subject, 120)}`;
}

function ShopNewContactEmail({ shop, contact }: ShopNewContactData) {
  return (
    <EmailLayout
      shop={shop}
      title={shopNewContactSubject(contact)}
      preheader={`${oneLine(contact.name)} (${oneLine(contact.email)}) a écrit via le formulaire de contact.`}
    >
      <Heading>Nouvelle demande de contact</Heading>
      <DetailRows
        rows={[
          ["De", oneLine(contact.name)],
          ["Email", oneLine(contact.email)],
          ["Reçue le", formatDateTime(contact.createdAt)],
          ["Objet", oneLine(contact.subject)],
        ]}
      />
      <Box>
        <UserText>{userText(contact.message)}</UserText>
      </Box>
      <Button href={`${shop.publicUrl}/admin/contacts`}>Voir les demandes de contact</Button>
    </EmailLayout>
  );
}

export function shopNewContactEmail(data: ShopNewContactData): EmailContent {
  const { shop, contact } = data;
  const text = paragraphs(
    "Nouvelle demande de contact",
    `De : ${oneLine(contact.name)}\nEmail : ${oneLine(contact.email)}\nReçue le : ${formatDateTime(contact.createdAt)}\nObjet : ${oneLine(contact.subject)}`,
    quoted(contact.message),
    `Voir les demandes de contact : ${shop.publicUrl}/admin/contacts`,
    footerText(shop),
  );
  return { subject: shopNewContactSubject(contact), html: htmlDocument(<ShopNewContactEmail {...data} />), text };
}
