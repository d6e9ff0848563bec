import { termsVersionLabel } from "~/legal/terms-of-sale";
import { withdrawalForm } from "~/legal/withdrawal-form";
import { DELIVERY } from "~/content/brand";
import { formatDate } from "~/lib/dates";
import { formatPrice } from "~/lib/money";
import { htmlDocument } from "./document";
import { EmailLayout } from "./Layout";
import { AddressBlock, Box, Button, DetailRows, Divider, Heading, OrderLines, Paragraph, SubHeading } from "./parts";
import { sellerLines, shopContact } from "./seller";
import { WithdrawalFormBox } from "./TermsDocument";
import { SubscriptionPageLink, subscriptionPageText, type WithSubscriptionUrl } from "./subscription-page";
import { greeting, nameOf, withName, addressText, footerText, heading, orderLinesText, paragraphs } from "./text";
import { LINK_STYLE } from "./theme";
import { renewalChargeText, type RenewalCharge } from "~/lib/renewal-amount";
import type { EmailContent, EmailOrder, EmailShop } from "./types";

export type OrderConfirmationData = {
  shop: EmailShop;
  order: EmailOrder;
  /** The version of the terms of sale attached (the order's own). */
  termsVersion: string;
  /** The attachment's file name, quoted in the body. */
  termsFileName: string;
  /** The first renewal of a subscription (ISO): day 30. */
  firstRenewalAt: string | null;
  /** What the subscription's renewals charge (a promotion code's discount while it lasts); null for a one-off order. */
  renewalCharge?: RenewalCharge | null;
  /** The order's invoice, issued with the payment: its number and the customer's signed link. */
  invoice?: { number: string; url: string } | null;
} & WithSubscriptionUrl;

const deliveryEstimate = `Votre colis est expédié sous ${DELIVERY.shippedWithin} et vous parvient en ${DELIVERY.arrival}, en colis suivi.`;
const withdrawalIntro = `Vous disposez de ${DELIVERY.withdrawalDays} jours à compter de la réception de votre commande pour vous rétracter, sans avoir à vous justifier (pour un abonnement, à compter de la réception du premier pack). Informez-nous de votre décision par une déclaration dénuée d'ambiguïté, par exemple avec le formulaire ci-dessous, puis renvoyez les produits dans les 14 jours (les frais de retour sont à votre charge) ; nous vous remboursons dans les ${DELIVERY.refundDays} jours, par le même moyen de paiement.`;
const withdrawalException =
  "Exception : pour des raisons d'hygiène et de protection de la santé, les sachets de masques ouverts après la livraison ne peuvent pas être retournés (article L. 221-28, 5° du Code de la consommation) ; seuls les sachets encore scellés peuvent l'être.";

function subscriptionTerms(data: OrderConfirmationData) {
  const amount = formatPrice(data.order.totalCents);
  const renewal = data.firstRenewalAt ? `, le ${formatDate(data.firstRenewalAt)},` : "";
  return {
    charges:
      data.renewalCharge && (data.renewalCharge.code || data.renewalCharge.amountCents !== data.order.totalCents)
        ? `${amount} débités aujourd'hui, puis ${renewalChargeText(data.renewalCharge)} toutes les 4 semaines à partir du 30e jour${renewal} avec un nouveau pack expédié à chaque échéance.`
        : `${amount} débités aujourd'hui, puis le même montant toutes les 4 semaines à partir du 30e jour${renewal} avec un nouveau pack expédié à chaque échéance.`,
    cancel: "Sans engagement : vous pouvez résilier à tout moment, en ligne, sans frais ni justification.",
    cancelUrl: `${data.shop.publicUrl}/abonnement/resilier?commande=${data.order.id}`,
  };
}

/** The online withdrawal page, the order number filled in (article L. 221-21 du Code de la consommation). */
function withdrawalUrl(data: OrderConfirmationData): string {
  return `${data.shop.publicUrl}/retractation?commande=${data.order.id}`;
}

export function orderConfirmationSubject(order: Pick<EmailOrder, "id">) {
  return `Confirmation de votre commande n°${order.id}`;
}

function OrderConfirmationEmail(data: OrderConfirmationData) {
  const { shop, order } = data;
  const subscription = order.isSubscription ? subscriptionTerms(data) : null;
  const form = withdrawalForm(shopContact(shop));
  const hello = nameOf(order.customerFirstName, order.customerName);
  return (
    <EmailLayout
      shop={shop}
      title={orderConfirmationSubject(order)}
      preheader={withName("Merci", hello, `! Votre commande n°${order.id} de ${formatPrice(order.totalCents)} est confirmée.`)}
    >
      <Heading>Merci pour votre commande !</Heading>
      <Paragraph>{greeting(order.customerFirstName, order.customerName)}</Paragraph>
      <Paragraph>
        Nous avons bien reçu votre commande n°{order.id} du {formatDate(order.createdAt)} et son paiement. Voici son récapitulatif
        : gardez cet email, il vous servira de justificatif.
      </Paragraph>
      <DetailRows
        rows={[
          ["Commande", `n°${order.id}`],
          ["Date", formatDate(order.createdAt)],
          ["Formule", order.isSubscription ? "Abonnement (toutes les 4 semaines)" : "Achat unique"],
        ]}
      />
      <SubHeading>Votre commande</SubHeading>
      <OrderLines order={order} />
      {data.invoice ? (
        <Paragraph>
          Votre facture n°{data.invoice.number} est disponible :{" "}
          <a href={data.invoice.url} style={LINK_STYLE}>
            télécharger ma facture
          </a>
          .
        </Paragraph>
      ) : null}

      {subscription ? (
        <Box>
          <Paragraph>
            <strong>Votre abonnement.</strong> {subscription.charges} {subscription.cancel}
          </Paragraph>
          <Paragraph small>
            Pour résilier :{" "}
            <a href={subscription.cancelUrl} style={LINK_STYLE}>
              {subscription.cancelUrl}
            </a>
          </Paragraph>
          <SubscriptionPageLink url={data.subscriptionUrl} />
        </Box>
      ) : null}

      <SubHeading>Livraison</SubHeading>
      <AddressBlock order={order} />
      <Paragraph>{deliveryEstimate}</Paragraph>
      <Button href={order.trackingUrl}>Suivre ma commande</Button>

      <Divider />
      <SubHeading>Droit de rétractation</SubHeading>
      <Paragraph small>{withdrawalIntro}</Paragraph>
      <Paragraph small>{withdrawalException}</Paragraph>
      <Paragraph small>
        <a href={withdrawalUrl(data)} style={LINK_STYLE}>
          Se rétracter du contrat ici
        </a>{" "}
        : en ligne, avec le numéro de commande et votre adresse email ; un accusé de réception vous est envoyé.
      </Paragraph>
      <WithdrawalFormBox title={form.title} paragraphs={form.paragraphs} />

      <SubHeading>Vendeur et conditions de vente</SubHeading>
      <Paragraph small>
        {sellerLines(shop).map((line, i) => (
          <span key={i}>
            {i > 0 ? <br /> : null}
            {line}
          </span>
        ))}
      </Paragraph>
      <Paragraph small>
        Conditions générales de vente, version du {termsVersionLabel(data.termsVersion)} : elles s'appliquent à cette commande et
        sont jointes à cet email ({data.termsFileName}).
      </Paragraph>
    </EmailLayout>
  );
}

function orderConfirmationText(data: OrderConfirmationData): string {
  const { shop, order } = data;
  const subscription = order.isSubscription ? subscriptionTerms(data) : null;
  const form = withdrawalForm(shopContact(shop));
  return paragraphs(
    greeting(order.customerFirstName, order.customerName),
    `Merci pour votre commande ! Nous avons bien reçu votre commande n°${order.id} du ${formatDate(order.createdAt)} et son paiement. Gardez cet email, il vous servira de justificatif.`,
    heading("Votre commande"),
    `Commande : n°${order.id}\nDate : ${formatDate(order.createdAt)}\nFormule : ${order.isSubscription ? "Abonnement (toutes les 4 semaines)" : "Achat unique"}`,
    orderLinesText(order),
    data.invoice ? `Votre facture n°${data.invoice.number} : ${data.invoice.url}` : null,
    subscription && heading("Votre abonnement"),
    subscription && `${subscription.charges}\n${subscription.cancel}\nPour résilier : ${subscription.cancelUrl}`,
    subscription && subscriptionPageText(data.subscriptionUrl),
    heading("Livraison"),
    addressText(order),
    deliveryEstimate,
    `Suivre ma commande : ${order.trackingUrl}`,
    heading("Droit de rétractation"),
    withdrawalIntro,
    withdrawalException,
    `Se rétracter du contrat ici (en ligne, avec le numéro de commande et votre adresse email ; un accusé de réception vous est envoyé) : ${withdrawalUrl(data)}`,
    `--- ${form.title} ---\n\n${form.paragraphs.join("\n\n")}\n\n---`,
    heading("Vendeur et conditions de vente"),
    sellerLines(shop).join("\n"),
    `Conditions générales de vente, version du ${termsVersionLabel(data.termsVersion)} : elles s'appliquent à cette commande et sont jointes à cet email (${data.termsFileName}).`,
    footerText(shop),
  );
}

export function orderConfirmationEmail(data: OrderConfirmationData): EmailContent {
  return {
    subject: orderConfirmationSubject(data.order),
    html: htmlDocument(<OrderConfirmationEmail {...data} />),
    text: orderConfirmationText(data),
  };
}
