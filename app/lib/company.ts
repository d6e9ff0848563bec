/**
 * Registered company details shown in the legal texts and the emails (the contact details
 * come from the site settings, edited by the administrators).
 */
export const COMPANY = {
  legalName: "Maison Éclat SAS",
  form: "société par actions simplifiée",
  capital: "10 000 €",
  rcs: "RCS Paris 921 458 303",
  siren: "921 458 303",
  vatNumber: "FR51 921 458 303",
  director: "Claire Dumont",
  directorRole: "Présidente",
} as const;

export const HOST = {
  name: "OVH SAS",
  address: "2 rue Kellermann, 59100 Roubaix, France",
  phone: "1007",
  website: "https://www.ovhcloud.com",
} as const;

export const MEDIATOR = {
  name: "CM2C (Centre de la Médiation de la Consommation de Conciliateurs de Justice)",
  address: "49 rue de Ponthieu, 75008 Paris",
  website: "https://www.cm2c.net",
} as const;

/** The contact details of the site settings that the legal texts and the emails quote. */
export type ShopContact = { siteName: string; siteEmail: string; siteAddress: string; sitePhone: string };

/** The lines of a postal address as typed in the settings, without blank lines. */
export function addressLines(address: string): string[] {
  return address
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
}

/** The address on one line, for running text: "12 rue des Lilas, 75011 Paris, France". */
export function addressOnOneLine(address: string) {
  return addressLines(address).join(", ");
}
