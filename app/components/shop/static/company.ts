/** Registered company details shown in the legal texts (the contact details come from the site settings). */
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
