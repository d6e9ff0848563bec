import type { ShopContact } from "~/lib/company";
import { terms20261120 } from "./terms-2026-11-20";
import { terms20261125 } from "./terms-2026-11-25";
import type { TermsOfSale } from "./terms-types";

export type { Block, Inline, TermsOfSale, TermsSection } from "./terms-types";

/**
 * The terms of sale, versioned. Each order records the version it was made under
 * (orders.terms_version), and its confirmation email attaches that version. So a published
 * version is never edited: to change the text, copy the current version's file to a new one
 * named after the date the new text takes effect (`terms-YYYY-MM-DD.ts`), edit the copy, add
 * it to VERSIONS below and point CURRENT_TERMS_VERSION at it. The old versions stay here, so
 * an older order's terms can always be shown again as they were.
 *
 * The texts take the site settings (the company's identity, address, email, phone, its host and its
 * consumer mediator) as a parameter: these are the seller's details at the time of reading, not
 * part of the agreement.
 */
const VERSIONS: Record<string, (settings: ShopContact) => TermsOfSale> = {
  "2026-11-20": terms20261120,
  "2026-11-25": terms20261125,
};

/** The version in force: every new order is made under it. */
export const CURRENT_TERMS_VERSION = "2026-11-25";

export const TERMS_VERSIONS: readonly string[] = Object.keys(VERSIONS).sort();

export function isTermsVersion(version: string | null | undefined): version is string {
  return typeof version === "string" && Object.hasOwn(VERSIONS, version);
}

/**
 * The terms of sale of a version (the current one when null: orders made before versions were
 * kept). An unknown version is a programming error, never a customer's input: it throws.
 */
export function termsOfSale(version: string | null | undefined, settings: ShopContact): TermsOfSale {
  const wanted = version ?? CURRENT_TERMS_VERSION;
  const make = isTermsVersion(wanted) ? VERSIONS[wanted] : undefined;
  if (!make) throw new Error(`Version des conditions générales de vente inconnue : ${wanted}`);
  return make(settings);
}

const versionFormat = new Intl.DateTimeFormat("fr-FR", { timeZone: "UTC", day: "numeric", month: "long", year: "numeric" });

/** "2026-11-20" → "20 novembre 2026": the date a version took effect, as the texts say it. */
export function termsVersionLabel(version: string): string {
  const date = new Date(`${version}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? version : versionFormat.format(date);
}
