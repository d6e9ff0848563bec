import { z } from "zod";
import { normalizeFrenchPhone } from "~/lib/phone";
import { safeText } from "./text";

/**
 * Delivery form (cart step 2). The spec's messages word for word where it fixes one (a field
 * too short); the others say what to type.
 */
export const DELIVERY_MESSAGES = {
  firstName: "Le prénom doit contenir au moins 2 caractères",
  lastName: "Le nom doit contenir au moins 2 caractères",
  email: "Adresse email invalide",
  address: "L'adresse doit contenir au moins 5 caractères",
  postalCode: "Le code postal doit contenir au moins 5 caractères",
  city: "La ville doit contenir au moins 2 caractères",
  /** Five characters that are not a French postal code ("ABCDE", "750011"). */
  postalCodeFormat: "Saisissez un code postal à 5 chiffres",
  /** 00..., 96...: no such French postal code. */
  postalCodeUnknown: "Ce code postal n'existe pas : vérifiez les 5 chiffres de votre code postal",
  /** 97..., 98...: overseas. */
  postalCodeOverseas: "Nous livrons en France métropolitaine et en Corse : saisissez le code postal d'une adresse en métropole",
  address2: "Le complément d'adresse ne doit pas dépasser 100 caractères",
  phone: "Saisissez un numéro de téléphone français à 10 chiffres, par exemple 06 12 34 56 78 (ou +33 6 12 34 56 78)",
} as const;

function text(min: number, max: number, message: string, tooLong: string) {
  return safeText({ error: message }).trim().min(min, message).max(max, tooLong);
}

/**
 * A French postal code of metropolitan France (Corsica included): 5 digits, spaces ignored
 * ("75 011"). Shorter than 5 characters: the spec's message.
 */
export const postalCodeField = safeText({ error: DELIVERY_MESSAGES.postalCode })
  .transform((value) => value.replace(/\s+/g, ""))
  .pipe(
    z
      .string()
      .min(5, { message: DELIVERY_MESSAGES.postalCode, abort: true })
      .regex(/^\d{5}$/, { message: DELIVERY_MESSAGES.postalCodeFormat, abort: true })
      .refine((code) => !/^9[78]/.test(code), { message: DELIVERY_MESSAGES.postalCodeOverseas, abort: true })
      .refine((code) => /^(0[1-9]|[1-8]\d|9[0-5])/.test(code), DELIVERY_MESSAGES.postalCodeUnknown),
  )
  .meta({ description: "Code postal français à 5 chiffres (France métropolitaine et Corse)", examples: ["69003"] });

/** An optional text: empty or missing is null. */
function optionalText(max: number, tooLong: string) {
  return safeText({ error: tooLong })
    .trim()
    .max(max, tooLong)
    .nullish()
    .transform((value) => value || null);
}

/** An optional French telephone number, kept as +33XXXXXXXXX (lib/phone.ts); empty or missing is null. */
export const phoneField = safeText({ error: DELIVERY_MESSAGES.phone })
  .trim()
  .max(30, DELIVERY_MESSAGES.phone)
  .nullish()
  .transform((value, ctx) => {
    if (!value) return null;
    const phone = normalizeFrenchPhone(value);
    if (!phone) {
      ctx.addIssue({ code: "custom", message: DELIVERY_MESSAGES.phone });
      return z.NEVER;
    }
    return phone;
  })
  .meta({
    description: "Téléphone pour le transporteur (facultatif) : numéro français, enregistré au format +33612345678",
    examples: ["06 12 34 56 78"],
  });

/** Field rules shared by the delivery form, POST /api/orders and the subscription's address. */
export const deliveryFields = {
  firstName: text(2, 60, DELIVERY_MESSAGES.firstName, "Le prénom ne doit pas dépasser 60 caractères"),
  lastName: text(2, 60, DELIVERY_MESSAGES.lastName, "Le nom ne doit pas dépasser 60 caractères"),
  email: safeText({ error: DELIVERY_MESSAGES.email })
    .trim()
    .max(254, DELIVERY_MESSAGES.email)
    .pipe(z.email(DELIVERY_MESSAGES.email))
    .transform((v) => v.toLowerCase()),
  address: text(5, 200, DELIVERY_MESSAGES.address, "L'adresse ne doit pas dépasser 200 caractères"),
  /** « Complément d'adresse » (building, floor, access code...): optional. */
  address2: optionalText(100, DELIVERY_MESSAGES.address2).meta({
    description: "Complément d'adresse (bâtiment, étage, code d'accès), facultatif",
    examples: ["Bâtiment B, 3e étage"],
  }),
  postalCode: postalCodeField,
  city: text(2, 100, DELIVERY_MESSAGES.city, "La ville ne doit pas dépasser 100 caractères"),
  phone: phoneField,
};

/** The delivery form's box, word for word (unticked by default). */
export const REMINDER_CONSENT_LABEL = "M'envoyer un rappel si je ne finalise pas ma commande";

/**
 * The consent to one reminder email if the checkout is not paid (services/cart-reminders): the
 * form's box (« on » when ticked, Conform reads it as true) and `reminderConsent` of
 * POST /api/orders. Missing means no: without it, no reminder is ever sent.
 */
export const reminderConsentField = z.boolean({ error: "reminderConsent doit être vrai ou faux." }).optional().meta({
  description:
    "Consentement au rappel par email si la commande n'est pas payée (« M'envoyer un rappel si je ne finalise pas ma commande ») : un seul email, 4 heures après. Absent : non",
});

export const deliverySchema = z.object({ ...deliveryFields, reminderConsent: reminderConsentField });

export type DeliveryInput = z.infer<typeof deliverySchema>;

/** Country of every delivery (the shop ships to France). */
export const DELIVERY_COUNTRY = "France";
