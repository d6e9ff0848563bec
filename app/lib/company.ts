/**
 * The seller's identity and contact details as the legal texts and the emails quote them. They
 * all come from the site settings (services/settings.server.ts), edited by the administrators:
 * nothing here is a value, only the shapes and the helpers that write them out.
 *
 * The registered office is the settings' postal address (`siteAddress`): the shop has one address,
 * the one of its registered office, printed on the invoices, the legal notice and the terms of sale.
 */

/** The company's registration, its publication director, its host and its consumer mediator; "" for a field not filled in yet. */
export type LegalIdentity = {
  legalName: string;
  /** "SAS", "société par actions simplifiée"... */
  legalForm: string;
  /** "10 000 €". */
  shareCapital: string;
  rcsCity: string;
  /** The SIREN under which the company is registered: "921 458 303". */
  rcsNumber: string;
  /** "921 458 303 00017". */
  siret: string;
  /** "FR51921458303". */
  vatNumber: string;
  publicationDirector: string;
  publicationDirectorRole: string;
  hostName: string;
  /** Multi-line, as typed. */
  hostAddress: string;
  hostPhone: string;
  mediatorName: string;
  /** Multi-line, as typed. */
  mediatorAddress: string;
  /** https://... */
  mediatorUrl: string;
};

export const LEGAL_IDENTITY_FIELDS = [
  "legalName",
  "legalForm",
  "shareCapital",
  "rcsCity",
  "rcsNumber",
  "siret",
  "vatNumber",
  "publicationDirector",
  "publicationDirectorRole",
  "hostName",
  "hostAddress",
  "hostPhone",
  "mediatorName",
  "mediatorAddress",
  "mediatorUrl",
] as const satisfies readonly (keyof LegalIdentity)[];

/** The legal identity's fields of an object holding them (the settings, for instance). */
export function legalIdentityOf(source: LegalIdentity): LegalIdentity {
  return Object.fromEntries(LEGAL_IDENTITY_FIELDS.map((field) => [field, source[field]])) as LegalIdentity;
}

/** The contact details of the site settings and the legal identity that the legal texts and the emails quote. */
export type ShopContact = { siteName: string; siteEmail: string; siteAddress: string; sitePhone: string } & LegalIdentity;

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

/** "RCS Paris 921 458 303", or "" while the city or the number is missing. */
export function rcsLine(identity: Pick<LegalIdentity, "rcsCity" | "rcsNumber">): string {
  return identity.rcsCity && identity.rcsNumber ? `RCS ${identity.rcsCity} ${identity.rcsNumber}` : "";
}

/**
 * "Maison Éclat SAS au capital de 10 000 €" (a name that already ends with its form, « SAS »),
 * "Maison Éclat, SARL au capital de 5 000 €", "SAS au capital de 10 000 €" without the name,
 * leaving out what is not filled in.
 */
export function companyDescription(identity: Pick<LegalIdentity, "legalName" | "legalForm" | "shareCapital">): string {
  const capital = identity.shareCapital ? `au capital de ${identity.shareCapital}` : "";
  const name = identity.legalName.trim();
  const legalForm = identity.legalForm.trim();
  if (name && legalForm && name.toLowerCase().endsWith(` ${legalForm.toLowerCase()}`)) {
    return [name, capital].filter(Boolean).join(" ");
  }
  const form = [legalForm, capital].filter(Boolean).join(" ");
  return [name, form].filter(Boolean).join(", ");
}

/** "Claire Dumont, Présidente", or the name alone. */
export function directorLine(identity: Pick<LegalIdentity, "publicationDirector" | "publicationDirectorRole">): string {
  return [identity.publicationDirector, identity.publicationDirectorRole].filter(Boolean).join(", ");
}

/** The mediator's address written out for a link's text: "www.cm2c.net". */
export function urlLabel(url: string): string {
  return url.replace(/^https?:\/\//, "").replace(/\/$/, "");
}
