import { addressOnOneLine, COMPANY, type ShopContact } from "~/lib/company";
import type { EmailShop } from "./types";

/** The settings' view of the shop, as the legal texts take it. */
export function shopContact(shop: EmailShop): ShopContact {
  return { siteName: shop.name, siteEmail: shop.email, siteAddress: shop.address, sitePhone: shop.phone };
}

/** Who sells: the company's registered identity and its contact details, line by line. */
export function sellerLines(shop: EmailShop): string[] {
  return [
    `${COMPANY.legalName}, ${COMPANY.form} au capital de ${COMPANY.capital}`,
    `${COMPANY.rcs} – TVA ${COMPANY.vatNumber}`,
    `Siège social : ${addressOnOneLine(shop.address)}`,
    `Email : ${shop.email} – Téléphone : ${shop.phone}`,
  ];
}
