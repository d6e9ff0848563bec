import { addressLines, type ShopContact } from "~/lib/company";
import { DELIVERY } from "~/content/brand";

/**
 * What the right of withdrawal covers, said once for the withdrawal page (/retractation) and
 * its acknowledgement email, in the words of the terms of sale (section « Droit de
 * rétractation ») and of the returns page.
 */

export type WithdrawalRightsPoint = { title: string; text: string };

export type WithdrawalRights = {
  points: WithdrawalRightsPoint[];
  /** Where to send the sealed sachets back: the company, then the address of the site settings, line by line. */
  returnAddress: string[];
  /** The model withdrawal form (annexe à l'article R. 221-1), in the terms of sale. */
  modelFormPath: string;
  returnsPath: string;
};

export const WITHDRAWAL_MODEL_FORM_PATH = "/cgv#retractation";
export const RETURNS_PATH = "/retours";

/** `legalName`: the seller's name in the site settings (the shop's name when it is empty). */
export function withdrawalRights(contact: Pick<ShopContact, "siteAddress" | "siteName" | "legalName">): WithdrawalRights {
  return {
    points: [
      {
        title: "Délai",
        text: `Vous disposez de ${DELIVERY.withdrawalDays} jours à compter de la réception de votre commande pour vous rétracter, sans avoir à vous justifier (pour un abonnement, à compter de la réception du premier pack).`,
      },
      {
        title: "Produits concernés",
        text: "Seuls les sachets de masques encore scellés peuvent être retournés : un produit d'hygiène descellé après la livraison est exclu du droit de rétractation (article L. 221-28, 5° du Code de la consommation).",
      },
      {
        title: "Retour des produits",
        text: `Renvoyez les sachets non ouverts, dans leur emballage d'origine, au plus tard ${DELIVERY.withdrawalDays} jours après votre demande, à l'adresse ci-dessous. Les frais de retour sont à votre charge.`,
      },
      {
        title: "Remboursement",
        text: `Nous vous remboursons la totalité des sommes versées dans les ${DELIVERY.refundDays} jours suivant votre demande (article L. 221-24 du Code de la consommation), par le même moyen de paiement que celui utilisé pour la commande. Le remboursement peut être différé jusqu'à la réception des produits ou de la preuve de leur expédition.`,
      },
    ],
    returnAddress: [contact.legalName.trim() || contact.siteName, ...addressLines(contact.siteAddress)],
    modelFormPath: WITHDRAWAL_MODEL_FORM_PATH,
    returnsPath: RETURNS_PATH,
  };
}
