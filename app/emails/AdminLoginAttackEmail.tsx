import { formatDateTime } from "~/lib/dates";
import { htmlDocument } from "./document";
import { EmailLayout } from "./Layout";
import { Button, DetailRows, Heading, Paragraph } from "./parts";
import { footerText, oneLine, paragraphs } from "./text";
import type { EmailContent, EmailShop } from "./types";

/** To the shop: many sign-ins failed for an administrator's username. */
export type AdminLoginAttackData = {
  shop: EmailShop;
  username: string;
  failures: number;
  windowMinutes: number;
  lastAddress: string;
  lastAt: string;
};

export const ADMIN_LOGIN_ATTACK_SUBJECT = "Tentatives de connexion sur votre compte administrateur";

const summary = (data: AdminLoginAttackData) =>
  `Au moins ${data.failures} tentatives de connexion ont échoué en ${data.windowMinutes} minutes pour l'identifiant « ${oneLine(data.username, 80)} ».`;

const advice = [
  "Votre compte n'est pas bloqué : vous pouvez toujours vous connecter depuis votre propre adresse. Les adresses qui échouent sont ralenties, puis refusées pendant 15 minutes après 10 échecs.",
  "Si ce n'était pas vous, choisissez un mot de passe long et unique, et vérifiez les sessions ouvertes de l'administration. Vous recevrez au plus un email de ce type par heure.",
];

function AdminLoginAttackEmail(data: AdminLoginAttackData) {
  const { shop } = data;
  return (
    <EmailLayout shop={shop} title={ADMIN_LOGIN_ATTACK_SUBJECT} preheader={summary(data)}>
      <Heading>Tentatives de connexion sur votre compte administrateur</Heading>
      <Paragraph>{summary(data)}</Paragraph>
      <DetailRows
        rows={[
          ["Identifiant", oneLine(data.username, 80)],
          ["Dernier échec", formatDateTime(data.lastAt)],
          ["Depuis l'adresse", oneLine(data.lastAddress, 80)],
        ]}
      />
      {advice.map((text) => (
        <Paragraph key={text}>{text}</Paragraph>
      ))}
      <Button href={`${shop.publicUrl}/admin/sessions`}>Voir les sessions ouvertes</Button>
    </EmailLayout>
  );
}

export function adminLoginAttackEmail(data: AdminLoginAttackData): EmailContent {
  const text = paragraphs(
    "Tentatives de connexion sur votre compte administrateur",
    summary(data),
    `Identifiant : ${oneLine(data.username, 80)}\nDernier échec : ${formatDateTime(data.lastAt)}\nDepuis l'adresse : ${oneLine(data.lastAddress, 80)}`,
    ...advice,
    `Voir les sessions ouvertes : ${data.shop.publicUrl}/admin/sessions`,
    footerText(data.shop),
  );
  return { subject: ADMIN_LOGIN_ATTACK_SUBJECT, html: htmlDocument(<AdminLoginAttackEmail {...data} />), text };
}
