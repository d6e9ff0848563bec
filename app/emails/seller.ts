import { addressOnOneLine, companyDescription, rcsLine, urlLabel, type ShopContact } from "~/lib/company";
import type { EmailShop } from "./types";

/** The settings' view of the shop, as the legal texts take it. */
export function shopContact(shop: EmailShop): ShopContact {
  return { siteName: shop.name, siteEmail: shop.email, siteAddress: shop.address, sitePhone: shop.phone, ...shop.legal };
}

/**
 * Who sells: the company's registered identity, its contact details and its consumer mediator
 * (Code de la consommation L616-1), line by line (what the settings hold of them).
 */
export function sellerLines(shop: EmailShop): string[] {
  const { legal } = shop;
  const registration = [
    rcsLine(legal),
    legal.siret ? `SIRET ${legal.siret}` : "",
    legal.vatNumber ? `TVA ${legal.vatNumber}` : "",
  ]
    .filter(Boolean)
    .join(" – ");
  return [
    companyDescription(legal) || shop.name,
    registration,
    `Siège social : ${addressOnOneLine(shop.address)}`,
    `Email : ${shop.email} – Téléphone : ${shop.phone}`,
    legal.mediatorName
      ? `En cas de litige, vous pouvez recourir gratuitement au médiateur de la consommation : ${[legal.mediatorName, addressOnOneLine(legal.mediatorAddress), legal.mediatorUrl ? urlLabel(legal.mediatorUrl) : ""].filter(Boolean).join(", ")}.`
      : "",
  ].filter(Boolean);
}

/**
 * The company's legal form, share capital and registration, under every email's signature
 * (Code de commerce R123-237: on every letter): « Maison Éclat SAS, société par actions simplifiée
 * au capital de 10 000 € – RCS Paris 921 458 303 »; "" while the settings hold none of them.
 */
export function legalFooterLine(shop: Pick<EmailShop, "legal">): string {
  const { legal } = shop;
  const described = legal.legalForm || legal.shareCapital ? companyDescription(legal) : "";
  return [described, rcsLine(legal)].filter(Boolean).join(" – ");
}
