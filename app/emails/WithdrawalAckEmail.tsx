import { withdrawalRights } from "~/legal/withdrawal-rights";
import { formatRequestMoment } from "~/lib/withdrawal-deadline";
import { htmlDocument } from "./document";
import { EmailLayout } from "./Layout";
import { Box, DetailRows, Heading, Paragraph, SubHeading, UserText } from "./parts";
import { greeting, footerText, heading, paragraphs, quoted, userText } from "./text";
import { LINK_STYLE } from "./theme";
import type { EmailContent, EmailOrder, EmailShop } from "./types";

export type WithdrawalAckData = {
  shop: EmailShop;
  order: Pick<EmailOrder, "id" | "customerName" | "customerFirstName">;
  /** When the customer confirmed the request (ISO, UTC). */
  requestedAt: string;
  /** The reason given, if any. */
  reason: string | null;
};

export function withdrawalAckSubject(order: Pick<EmailOrder, "id">) {
  return `Accusé de réception de votre rétractation (commande n°${order.id})`;
}

function facts(data: WithdrawalAckData) {
  const { shop, order } = data;
  const rights = withdrawalRights({ siteAddress: shop.address, siteName: shop.name, legalName: shop.legal.legalName });
  return {
    hello: greeting(order.customerFirstName, order.customerName),
    moment: formatRequestMoment(data.requestedAt),
    confirmation: `Nous avons bien reçu, ${formatRequestMoment(data.requestedAt)} (heure de Paris), votre demande de rétractation du contrat de la commande n°${order.id}. Cet email en est l'accusé de réception : conservez-le.`,
    reason: data.reason ? userText(data.reason) : null,
    rights,
    modelFormUrl: `${shop.publicUrl}${rights.modelFormPath}`,
    returnsUrl: `${shop.publicUrl}${rights.returnsPath}`,
  };
}

function WithdrawalAckEmail(data: WithdrawalAckData) {
  const f = facts(data);
  return (
    <EmailLayout
      shop={data.shop}
      title={withdrawalAckSubject(data.order)}
      preheader={`Votre demande de rétractation du ${f.moment.replace(/^le /, "")} est enregistrée.`}
    >
      <Heading>Votre rétractation est enregistrée</Heading>
      <Paragraph>{f.hello}</Paragraph>
      <Paragraph>{f.confirmation}</Paragraph>
      <DetailRows
        rows={[
          ["Commande", `n°${data.order.id}`],
          ["Demande reçue", f.moment],
        ]}
      />
      {f.reason ? (
        <>
          <Paragraph>Le motif que vous avez indiqué :</Paragraph>
          <Box>
            <UserText>{f.reason}</UserText>
          </Box>
        </>
      ) : null}

      <SubHeading>Ce que couvre votre droit de rétractation</SubHeading>
      {f.rights.points.map((point) => (
        <Paragraph key={point.title}>
          <strong>{point.title}.</strong> {point.text}
        </Paragraph>
      ))}
      <Paragraph>
        <strong>Adresse de retour :</strong>
        {f.rights.returnAddress.map((line, i) => (
          <span key={i}>
            <br />
            {line}
          </span>
        ))}
      </Paragraph>
      <Paragraph small>
        Le{" "}
        <a href={f.modelFormUrl} style={LINK_STYLE}>
          modèle de formulaire de rétractation
        </a>{" "}
        figure dans nos conditions générales de vente ; la marche à suivre pour le retour est détaillée sur la page{" "}
        <a href={f.returnsUrl} style={LINK_STYLE}>
          Retours et remboursements
        </a>
        .
      </Paragraph>
    </EmailLayout>
  );
}

function withdrawalAckText(data: WithdrawalAckData): string {
  const f = facts(data);
  return paragraphs(
    f.hello,
    f.confirmation,
    `Commande : n°${data.order.id}\nDemande reçue : ${f.moment}`,
    f.reason && `Le motif que vous avez indiqué :\n${quoted(f.reason)}`,
    heading("Ce que couvre votre droit de rétractation"),
    ...f.rights.points.map((point) => `${point.title} : ${point.text}`),
    `Adresse de retour :\n${f.rights.returnAddress.join("\n")}`,
    `Modèle de formulaire de rétractation : ${f.modelFormUrl}\nRetours et remboursements : ${f.returnsUrl}`,
    footerText(data.shop),
  );
}

export function withdrawalAckEmail(data: WithdrawalAckData): EmailContent {
  return {
    subject: withdrawalAckSubject(data.order),
    html: htmlDocument(<WithdrawalAckEmail {...data} />),
    text: withdrawalAckText(data),
  };
}
