import { z } from "zod";
import { CARRIERS, CARRIER_LABELS } from "~/lib/carriers";
import { safeText } from "./text";

const SIRET_MESSAGE = "Le SIRET compte 14 chiffres (par exemple 921 458 303 00017).";
const VAT_MESSAGE = "Le numéro de TVA intracommunautaire s'écrit FR suivi de 11 chiffres (par exemple FR51 921 458 303).";
const CARRIER_MESSAGE = `Choisissez un transporteur : ${CARRIERS.map((c) => CARRIER_LABELS[c]).join(", ")}.`;

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
});

export type SettingsInput = z.infer<typeof settingsSchema>;

/** PATCH /api/settings: any of the fields, nothing else (the merged result is checked with settingsSchema). */
export const settingsPatchSchema = settingsSchema.partial().strict();
