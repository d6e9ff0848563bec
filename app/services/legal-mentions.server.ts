import { getConfig } from "~/config.server";
import { DEMO_LEGAL_IDENTITY } from "~/db/seed.server";
import type { LegalIdentity } from "~/lib/company";
import { getSettings } from "./settings.server";

/**
 * The mentions the law requires of the shop (LCEN art. 6 for the legal notice, Code de la
 * consommation L111-1 and L616-1 for the terms of sale), each with the settings' fields it needs.
 */
const REQUIRED_MENTIONS: { label: string; fields: (keyof LegalIdentity)[] }[] = [
  { label: "raison sociale", fields: ["legalName"] },
  { label: "forme juridique", fields: ["legalForm"] },
  { label: "capital social", fields: ["shareCapital"] },
  { label: "RCS", fields: ["rcsCity", "rcsNumber"] },
  { label: "SIRET", fields: ["siret"] },
  { label: "numéro de TVA intracommunautaire", fields: ["vatNumber"] },
  { label: "directeur de la publication", fields: ["publicationDirector"] },
  { label: "hébergeur", fields: ["hostName", "hostAddress", "hostPhone"] },
  { label: "médiateur de la consommation", fields: ["mediatorName", "mediatorAddress", "mediatorUrl"] },
];

/** The required mentions with at least one field left empty, in the order of the settings page. */
export function missingLegalMentions(identity: LegalIdentity): string[] {
  return REQUIRED_MENTIONS.filter((mention) => mention.fields.some((field) => identity[field].trim() === "")).map(
    (mention) => mention.label,
  );
}

export type LegalMentionsWarning = {
  missing: string[];
  /** The settings still name the demo company (the seed's), not the shop's. */
  demoCompany: boolean;
};

/**
 * What the dashboard of a live shop warns about: the legal mentions not filled in, and the demo
 * company's identity left in place. Null in demo mode, or when everything is in order.
 */
export async function legalMentionsWarning(given?: LegalIdentity): Promise<LegalMentionsWarning | null> {
  if (getConfig().mode !== "live") return null;
  const settings = given ?? (await getSettings());
  const missing = missingLegalMentions(settings);
  const demoCompany = settings.legalName === DEMO_LEGAL_IDENTITY.legalName || settings.siret === DEMO_LEGAL_IDENTITY.siret;
  return missing.length > 0 || demoCompany ? { missing, demoCompany } : null;
}
