import { addressOnOneLine, type ShopContact } from "~/lib/company";

/**
 * The model withdrawal form (annexe à l'article R. 221-1 du Code de la consommation), addressed
 * to the seller. Quoted by the terms of sale and by the order confirmation email.
 */
export function withdrawalForm(contact: ShopContact): { title: string; paragraphs: string[] } {
  return {
    title: "Modèle de formulaire de rétractation",
    paragraphs: [
      "(Veuillez compléter et renvoyer le présent formulaire uniquement si vous souhaitez vous rétracter du contrat.)",
      `À l'attention de ${contact.legalName || contact.siteName}, ${addressOnOneLine(contact.siteAddress)}, ${contact.siteEmail} :`,
      "Je/Nous (*) vous notifie/notifions (*) par la présente ma/notre (*) rétractation du contrat portant sur la vente du bien (*) ci-dessous :",
      "Commandé le (*) / reçu le (*) :",
      "Nom du (des) consommateur(s) :",
      "Adresse du (des) consommateur(s) :",
      "Signature du (des) consommateur(s) (uniquement en cas de notification du présent formulaire sur papier) :",
      "Date :",
      "(*) Rayez la mention inutile.",
    ],
  };
}
