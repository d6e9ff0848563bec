import { formatDayInWords } from "~/lib/dates";
import { formatPrice } from "~/lib/money";
import { htmlDocument } from "./document";
import { EmailLayout } from "./Layout";
import { AddressBlock, Box, Button, DetailRows, Heading, Paragraph, SubHeading } from "./parts";
import { greeting, addressText, footerText, heading, oneLine, paragraphs } from "./text";
import { subscriptionLinkLifetime } from "./subscription-page";
import { LINK_STYLE } from "./theme";
import { renewalChargeText, type RenewalCharge } from "~/lib/renewal-amount";
import type { EmailAddress, EmailContent, EmailShop } from "./types";

/** The reminder a few days before a renewal: when, how much, what and where, and how to stop it. */
export type RenewalReminderData = {
  shop: EmailShop;
  /** The subscription's first order: its number identifies the subscription on the cancellation form. */
  firstOrderId: number;
  /** Who we greet. */
  hello: string;
  /** The renewal (ISO). */
  renewsAt: string;
  amountCents: number;
  /** With a promotion code still discounting the renewals: « 20,90€ (code CINQ, encore 1 renouvellement), puis 25,90€ ». */
  charge?: RenewalCharge | null;
  /** The pack as subscribed: `Masque Hydrogel au Collagène – 6 masques + 2 offerts`, its quantity and, when known, the number of masks. */
  pack: { name: string; quantity: number; masks: number | null };
  /** Where the renewal is shipped. */
  address: EmailAddress;
  /** The signed link to the subscription's private page (services/subscription-link.server.ts). */
  manageUrl: string;
};

function facts(data: RenewalReminderData) {
  const day = formatDayInWords(data.renewsAt);
  const amount = formatPrice(data.amountCents);
  const { pack } = data;
  return {
    day,
    amount,
    amountLine: data.charge ? renewalChargeText(data.charge) : amount,
    intro: `Votre abonnement sera renouvelé automatiquement le ${day}. Ce jour-là, ${amount} seront prélevés sur la carte enregistrée pour votre abonnement, et nous vous expédierons un nouveau colis.`,
    shipped: `${pack.name} × ${pack.quantity}${pack.masks ? `, soit ${pack.masks} masques` : ""}.`,
    nothingToDo: "Vous souhaitez continuer ? Vous n'avez rien à faire.",
    rights: [
      "Vous pouvez résilier votre abonnement à tout moment, en ligne, sans frais ni justification.",
      `Si vous résiliez avant le ${day}, ce renouvellement n'aura pas lieu : rien ne sera prélevé et aucun colis ne vous sera expédié. Après la résiliation, plus aucun prélèvement ne sera effectué.`,
      "Les colis déjà payés vous restent acquis.",
    ],
    cancelFormUrl: `${data.shop.publicUrl}/abonnement/resilier?commande=${data.firstOrderId}`,
    alternative: `Vous pouvez aussi résilier avec le formulaire en ligne, muni de votre numéro de commande n°${data.firstOrderId} et de votre adresse email :`,
    personal: `${subscriptionLinkLifetime()} Le lien de votre espace abonnement vous est personnel : ne transférez pas cet email.`,
  };
}

export function renewalReminderSubject(data: Pick<RenewalReminderData, "renewsAt">) {
  return `Votre abonnement sera renouvelé le ${formatDayInWords(data.renewsAt)}`;
}

function RenewalReminderEmail(data: RenewalReminderData) {
  const { shop } = data;
  const f = facts(data);
  return (
    <EmailLayout
      shop={shop}
      title={renewalReminderSubject(data)}
      preheader={`${f.amount} le ${f.day}. Vous pouvez résilier à tout moment, sans frais.`}
    >
      <Heading>Votre abonnement sera renouvelé le {f.day}</Heading>
      <Paragraph>{greeting(data.hello)}</Paragraph>
      <Paragraph>{f.intro}</Paragraph>
      <DetailRows
        rows={[
          ["Renouvellement le", f.day],
          ["Montant prélevé", f.amountLine],
          ["Abonnement", `commande n°${data.firstOrderId}`],
        ]}
      />
      <SubHeading>Ce que nous vous expédierons</SubHeading>
      <Paragraph>{f.shipped}</Paragraph>
      <SubHeading>Adresse de livraison</SubHeading>
      <AddressBlock order={data.address} />
      <Paragraph>{f.nothingToDo}</Paragraph>

      <SubHeading>Vous souhaitez arrêter ?</SubHeading>
      <Box>
        {f.rights.map((line) => (
          <Paragraph key={line}>{line}</Paragraph>
        ))}
      </Box>
      <Button href={data.manageUrl}>Gérer ou résilier mon abonnement</Button>
      <Paragraph small>
        {f.alternative}{" "}
        <a href={f.cancelFormUrl} style={LINK_STYLE}>
          {f.cancelFormUrl}
        </a>
      </Paragraph>
      <Paragraph small>{f.personal}</Paragraph>
    </EmailLayout>
  );
}

export function renewalReminderEmail(data: RenewalReminderData): EmailContent {
  const f = facts(data);
  const text = paragraphs(
    greeting(data.hello),
    f.intro,
    `Renouvellement le : ${f.day}\nMontant prélevé : ${f.amountLine}\nAbonnement : commande n°${data.firstOrderId}`,
    heading("Ce que nous vous expédierons"),
    oneLine(f.shipped),
    heading("Adresse de livraison"),
    addressText(data.address),
    f.nothingToDo,
    heading("Vous souhaitez arrêter ?"),
    f.rights.join("\n"),
    `Gérer ou résilier mon abonnement : ${data.manageUrl}`,
    `${f.alternative}\n${f.cancelFormUrl}`,
    f.personal,
    footerText(data.shop),
  );
  return { subject: renewalReminderSubject(data), html: htmlDocument(<RenewalReminderEmail {...data} />), text };
}
