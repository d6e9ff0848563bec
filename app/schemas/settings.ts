import { z } from "zod";
import { safeText } from "./text";

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
});

export type SettingsInput = z.infer<typeof settingsSchema>;

/** PATCH /api/settings: any of the six fields, nothing else (the merged result is checked with settingsSchema). */
export const settingsPatchSchema = settingsSchema.partial().strict();
