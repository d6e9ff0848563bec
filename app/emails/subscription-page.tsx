import { SUBSCRIPTION_LINK_DAYS } from "~/lib/link-lifetimes";
import { Paragraph } from "./parts";
import { LINK_STYLE } from "./theme";

/**
 * The link to the subscription's private page (/mon-abonnement, signed and expiring) that every
 * subscription email carries: where the customer sees the next renewal, changes the delivery
 * address, pays a failed renewal or cancels.
 */

export const SUBSCRIPTION_PAGE_INTRO =
  "Votre espace abonnement (prochain renouvellement, adresse de livraison, commandes, résiliation)";

/** What the emails say of the link's lifetime, true to SUBSCRIPTION_LINK_DAYS. */
export function subscriptionLinkLifetime(days: number = SUBSCRIPTION_LINK_DAYS): string {
  return `Ce lien est valable ${days} jours ; vous pourrez en demander un nouveau sur la page.`;
}

/** The email's `subscriptionUrl`: null when the order has no subscription record. */
export type WithSubscriptionUrl = { subscriptionUrl?: string | null };

export function SubscriptionPageLink({ url }: { url: string | null | undefined }) {
  if (!url) return null;
  return (
    <Paragraph small>
      {SUBSCRIPTION_PAGE_INTRO} :{" "}
      <a href={url} style={LINK_STYLE}>
        gérer mon abonnement
      </a>
      . {subscriptionLinkLifetime()} Ce lien vous est personnel : ne le transférez pas.
    </Paragraph>
  );
}

/** The same, in the text part (null when there is no link). */
export function subscriptionPageText(url: string | null | undefined): string | null {
  return url
    ? `${SUBSCRIPTION_PAGE_INTRO} : ${url}\n${subscriptionLinkLifetime()} Ce lien vous est personnel : ne le transférez pas.`
    : null;
}
