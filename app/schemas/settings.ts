import { z } from "zod";
import { CARRIERS, CARRIER_LABELS } from "~/lib/carriers";
import { parisLocalToIso } from "~/lib/dates";
import { safeText } from "./text";

const SIRET_MESSAGE = "Le SIRET compte 14 chiffres (par exemple 921 458 303 00017).";
const VAT_MESSAGE =
  "Le numéro de TVA intracommunautaire commence par le code d'un pays de l'Union européenne (FR, DE, BE...) suivi de 2 à 13 chiffres ou lettres (par exemple FR51 921 458 303).";
const FR_VAT_MESSAGE =
  "Un numéro de TVA français s'écrit FR, puis 2 caractères de clé, puis les 9 chiffres du SIREN (par exemple FR51 921 458 303).";
const RCS_NUMBER_MESSAGE = "Le numéro RCS est le SIREN : 9 chiffres (par exemple 921 458 303).";
const CAPITAL_MESSAGE = "Le capital social est un montant en euros (par exemple 10 000 ou 10 000 €).";
const URL_MESSAGE =
  "L'adresse du site du médiateur doit être une adresse web complète commençant par https:// (par exemple https://www.cm2c.net).";
const CARRIER_MESSAGE = `Choisissez un transporteur : ${CARRIERS.map((c) => CARRIER_LABELS[c]).join(", ")}.`;

/** The days a sent email's content (HTML, text) is kept: its record (to whom, when, subject) stays for ever. */
export const EMAIL_RETENTION_DAYS = { default: 90, min: 7, max: 3650 } as const;
const RETENTION_MESSAGE = `La conservation du contenu des emails envoyés est un nombre entier de jours, entre ${EMAIL_RETENTION_DAYS.min} et ${EMAIL_RETENTION_DAYS.max}.`;

/** A number field (the form sends text) or a JSON number; empty means the default, 90 days. */
const retentionDaysField = z.coerce
  .number({ error: RETENTION_MESSAGE })
  .int({ error: RETENTION_MESSAGE })
  .min(EMAIL_RETENTION_DAYS.min, { error: RETENTION_MESSAGE })
  .max(EMAIL_RETENTION_DAYS.max, { error: RETENTION_MESSAGE })
  .default(EMAIL_RETENTION_DAYS.default);

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * The end of the trial offer: a date and time in Paris time as a datetime-local field sends it
 * (`2026-11-25T21:30`), or an ISO instant with its offset (the API); empty or null for none.
 * Kept as an ISO instant (UTC).
 */
const offerEndField = z
  .union([safeText().trim(), z.null()])
  .optional()
  .transform((value, ctx) => {
    if (!value) return null;
    const iso = ISO_INSTANT.test(value) ? new Date(value).toISOString() : parisLocalToIso(value);
    if (!iso || Number.isNaN(Date.parse(iso))) {
      ctx.addIssue({
        code: "custom",
        message: "La fin de l'offre d'essai doit être une date et une heure, par exemple 25/11/2026 21:30.",
      });
      return z.NEVER;
    }
    return iso;
  });

const text = (label: string, max: number, multiline = false) =>
  safeText({ error: `${label} est requis.`, multiline })
    .trim()
    .min(1, `${label} est requis.`)
    .max(max, `${label} ne doit pas dépasser ${max} caractères.`);

/** A field of the legal identity that may stay empty until the shop fills it in ("" then). */
const optionalText = (label: string, max: number, multiline = false) =>
  z
    .union([safeText({ error: `${label} doit être un texte.`, multiline }), z.null()])
    .optional()
    .transform((v) => (v ?? "").trim())
    // A refinement, not a piped z.string(): Conform would read the piped string's "" as a missing value.
    .refine((v) => v.length <= max, `${label} ne doit pas dépasser ${max} caractères.`);

const PHONE_CHARACTERS = /^[+0-9 ().-]+$/;

const optionalPhone = (label: string) =>
  optionalText(label, 30).refine(
    (v) => v === "" || PHONE_CHARACTERS.test(v),
    `${label} ne doit contenir que des chiffres, espaces et + ( ) . -`,
  );

/** The member states' VAT prefixes (Greece is EL; XI is Northern Ireland). */
export const EU_VAT_COUNTRIES = [
  "AT", "BE", "BG", "CY", "CZ", "DE", "DK", "EE", "EL", "ES", "FI", "FR", "HR", "HU", "IE", "IT", "LT", "LU", "LV", "MT", "NL", "PL", "PT", "RO", "SE", "SI", "SK", "XI",
] as const; // prettier-ignore

/** 9 digits grouped by three: "921 458 303". */
const groupSiren = (digits: string) => `${digits.slice(0, 3)} ${digits.slice(3, 6)} ${digits.slice(6, 9)}`;

/**
 * The shape of an intra-EU VAT number, spaces, dots and dashes removed and in capitals: a member
 * state's code and 2 to 13 letters or digits; a French one is FR, a 2-character key and the
 * SIREN, and a numeric key must match the SIREN (key = (12 + 3 × (SIREN mod 97)) mod 97).
 */
export function vatNumberProblem(vat: string): string | null {
  const country = vat.slice(0, 2);
  if (!/^[A-Z]{2}[0-9A-Z]{2,13}$/.test(vat) || !(EU_VAT_COUNTRIES as readonly string[]).includes(country)) return VAT_MESSAGE;
  if (country !== "FR") return null;
  const match = /^FR([0-9A-Z]{2})(\d{9})$/.exec(vat);
  if (!match) return FR_VAT_MESSAGE;
  const [, key, siren] = match;
  if (/^\d{2}$/.test(key) && Number(key) !== (12 + 3 * (Number(siren) % 97)) % 97) {
    return "La clé de ce numéro de TVA ne correspond pas à son SIREN : vérifiez les 2 caractères après FR.";
  }
  return null;
}

/** A share capital typed "10000", "10 000 €", "1 500,50 euros" → "10 000 €", "1 500,50 €". */
const shareCapitalField = optionalText("Le capital social", 30).transform((value, ctx) => {
  if (value === "") return "";
  const match = /^(\d{1,12})(?:[,.](\d{1,2}))?$/.exec(value.replace(/\s+/g, "").replace(/(€|euros?|EUR)$/i, ""));
  if (!match) {
    ctx.addIssue({ code: "custom", message: CAPITAL_MESSAGE });
    return z.NEVER;
  }
  const units = match[1].replace(/^0+(?=\d)/, "").replace(/\B(?=(\d{3})+(?!\d))/g, " ");
  return `${units}${match[2] ? `,${match[2].padEnd(2, "0")}` : ""} €`;
});

/** The RCS number (the SIREN), typed with or without spaces; kept as "921 458 303". */
const rcsNumberField = optionalText("Le numéro RCS", 20).transform((value, ctx) => {
  if (value === "") return "";
  const digits = value.replace(/[\s.]+/g, "");
  if (!/^\d{9}$/.test(digits)) {
    ctx.addIssue({ code: "custom", message: RCS_NUMBER_MESSAGE });
    return z.NEVER;
  }
  return groupSiren(digits);
});

const httpsUrlField = optionalText("L'adresse du site du médiateur", 200).refine((value) => {
  if (value === "") return true;
  try {
    const url = new URL(value);
    return url.protocol === "https:" && url.hostname.includes(".") && !url.username && !url.password;
  } catch {
    return false;
  }
}, URL_MESSAGE);

const settingsFields = z.object({
  siteName: text("Le nom du site", 80),
  siteEmail: safeText({ error: "Veuillez entrer une adresse email valide." })
    .trim()
    .max(254, "Veuillez entrer une adresse email valide.")
    .pipe(z.email("Veuillez entrer une adresse email valide.")),
  siteDescription: text("La description", 500, true),
  /** The registered office's address: the shop has one address (lib/company.ts). */
  siteAddress: text("L'adresse", 300, true),
  sitePhone: safeText({ error: "Le téléphone est requis." })
    .trim()
    .min(1, "Le téléphone est requis.")
    .max(30, "Le téléphone ne doit pas dépasser 30 caractères.")
    .regex(/^[+0-9 ().-]+$/, "Le téléphone ne doit contenir que des chiffres, espaces et + ( ) . -"),
  siteFooterText: text("Le texte du pied de page", 300, true),
  // The seller's identity on invoices (Code de commerce L441-9), and the default carrier.
  legalName: text("La raison sociale", 120),
  siret: safeText({ error: SIRET_MESSAGE })
    .transform((v) => v.replace(/\s+/g, ""))
    .pipe(z.string().regex(/^\d{14}$/, SIRET_MESSAGE))
    .transform((v) => `${v.slice(0, 3)} ${v.slice(3, 6)} ${v.slice(6, 9)} ${v.slice(9)}`),
  vatNumber: safeText({ error: VAT_MESSAGE })
    .transform((v) => v.replace(/[\s.-]+/g, "").toUpperCase())
    .superRefine((v, ctx) => {
      const problem = vatNumberProblem(v);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    }),
  // The rest of the legal identity: the legal notice, the terms of sale, the confirmation emails.
  // Each may stay empty while the shop fills it in; the dashboard of a live shop lists the missing ones.
  legalForm: optionalText("La forme juridique", 80),
  shareCapital: shareCapitalField,
  rcsCity: optionalText("La ville du greffe (RCS)", 60),
  rcsNumber: rcsNumberField,
  publicationDirector: optionalText("Le nom du directeur de la publication", 100),
  publicationDirectorRole: optionalText("La fonction du directeur de la publication", 80),
  hostName: optionalText("Le nom de l'hébergeur", 120),
  hostAddress: optionalText("L'adresse de l'hébergeur", 300, true),
  hostPhone: optionalPhone("Le téléphone de l'hébergeur"),
  mediatorName: optionalText("Le nom du médiateur", 200),
  mediatorAddress: optionalText("L'adresse du médiateur", 300, true),
  mediatorUrl: httpsUrlField,
  defaultCarrier: z.enum(CARRIERS, { error: CARRIER_MESSAGE }),
  trialOfferEndsAt: offerEndField,
  emailContentRetentionDays: retentionDaysField,
});

const sirenOfSiret = (siret: string) => siret.replace(/\D/g, "").slice(0, 9);

/** The settings form and the whole of the settings after a PATCH; the RCS and VAT numbers must carry the SIRET's SIREN. */
export const settingsSchema = settingsFields.superRefine((value, ctx) => {
  const siren = sirenOfSiret(value.siret);
  if (value.rcsNumber && siren.length === 9 && value.rcsNumber.replace(/\D/g, "") !== siren) {
    ctx.addIssue({
      code: "custom",
      path: ["rcsNumber"],
      message: `Le numéro RCS doit être le SIREN, c'est-à-dire les 9 premiers chiffres du SIRET (${groupSiren(siren)}).`,
    });
  }
  if (
    value.vatNumber.startsWith("FR") &&
    siren.length === 9 &&
    /^FR[0-9A-Z]{2}\d{9}$/.test(value.vatNumber) &&
    value.vatNumber.slice(4) !== siren
  ) {
    ctx.addIssue({
      code: "custom",
      path: ["vatNumber"],
      message: `Un numéro de TVA français se termine par le SIREN du SIRET (${groupSiren(siren)}).`,
    });
  }
});

export type SettingsInput = z.infer<typeof settingsSchema>;

/** PATCH /api/settings: any of the fields, nothing else (the merged result is checked with settingsSchema). */
export const settingsPatchSchema = settingsFields.partial().strict();
