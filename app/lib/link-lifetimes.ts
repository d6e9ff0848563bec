/**
 * How long the links of the emails work, said in the emails and on the pages that send new ones.
 * An order's view link lives as long as its documents (services/orders/link.server.ts).
 */

/**
 * The management link of a subscription's private page (`/mon-abonnement`,
 * services/subscription-link.server.ts): days, not months, because it can change the delivery
 * address or cancel.
 */
export const SUBSCRIPTION_LINK_DAYS = 7;

/** The link to pay a failed renewal (`/abonnement/payer`, services/invoice-link.server.ts). */
export const INVOICE_PAY_LINK_DAYS = 30;

/** The one answer of « Recevoir un nouveau lien » on /mon-abonnement, whatever the address typed. */
export const NEW_LINK_SENT_MESSAGE = `Si un abonnement correspond à cette adresse, un nouveau lien vient d'y être envoyé. Il est valable ${SUBSCRIPTION_LINK_DAYS} jours.`;
