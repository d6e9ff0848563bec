import { z } from "zod";
import { CARRIERS, CARRIER_LABELS } from "~/lib/carriers";
import { parisLocalToIso } from "~/lib/dates";
import { safeText } from "./text";

const SIRET_MESSAGE = "Le SIRET compte 14 chiffres (par exemple 921 458 303 00017).";
const VAT_MESSAGE = "Le numéro de TVA intracommunautaire s'écrit FR suivi de 11 chiffres (par exemple FR51 921 458 303).";
const CARRIER_MESSAGE = `Choisissez un transporteur : ${CARRIERS.map((c) => CARRIER_LABELS[c]).join(", ")}.`;

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
      ctx.addIssue({ code: "custom", message: "La fin de l'offre d'essai doit être une date et une heure, par exemple 25/11/2026 21:30." });
      return z.NEVER;
    }
    return iso;
  });

const text = (label: string, max: number, multiline = false) =>
  safeText({ error: `${label} est requis.`, multiline })
    .trim()
    .min(1, `${label} est requis.`)
    .max(max, `${label} ne doit pas dépasser ${max} caractères.`);

export const settingsSchema = z.object({
  siteName: text("Le nom du site", 80),
  siteEmail: safeText({ error: "Veuillez entrer une adresse email valide." })
    .trim()
    .max(254, "Veuillez entrer une adresse email valide.")
    .pipe(z.email("Veuillez entrer une adresse email valide.")),
  siteDescription: text("La description", 500, true),
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
    .transform((v) => v.replace(/\s+/g, "").toUpperCase())
    .pipe(z.string().regex(/^FR[0-9A-Z]{2}\d{9}$/, VAT_MESSAGE)),
  defaultCarrier: z.enum(CARRIERS, { error: CARRIER_MESSAGE }),
  trialOfferEndsAt: offerEndField,
});

export type SettingsInput = z.infer<typeof settingsSchema>;

/** PATCH /api/settings: any of the fields, nothing else (the merged result is checked with settingsSchema). */
export const settingsPatchSchema = settingsSchema.partial().strict();
