import { z } from "zod";
import { safeText } from "./text";

export const PASSWORD_MIN_LENGTH = 10;
const PASSWORD_TOO_SHORT = `Le mot de passe doit contenir au moins ${PASSWORD_MIN_LENGTH} caractères.`;

const optionalText = (max: number, label: string) =>
  safeText()
    .trim()
    .max(max, `${label} ne doit pas dépasser ${max} caractères.`)
    .nullable()
    .optional()
    .transform((v) => (v ? v : null));

const passwordField = safeText({ error: "Le mot de passe est requis." })
  .min(PASSWORD_MIN_LENGTH, PASSWORD_TOO_SHORT)
  .max(256, "Le mot de passe ne doit pas dépasser 256 caractères.");

const userFields = {
  username: safeText({ error: "Le nom d'utilisateur est requis." })
    .trim()
    .min(3, "Le nom d'utilisateur doit contenir au moins 3 caractères.")
    .max(40, "Le nom d'utilisateur ne doit pas dépasser 40 caractères.")
    .regex(/^[A-Za-z0-9._-]+$/, "Le nom d'utilisateur ne doit contenir que des lettres, des chiffres et . _ -"),
  email: safeText({ error: "Veuillez entrer une adresse email valide." })
    .trim()
    .max(254, "Veuillez entrer une adresse email valide.")
    .pipe(z.email("Veuillez entrer une adresse email valide.")),
  firstName: optionalText(60, "Le prénom"),
  lastName: optionalText(60, "Le nom"),
  address: optionalText(200, "L'adresse"),
  city: optionalText(80, "La ville"),
  postalCode: safeText()
    .trim()
    .max(10, "Le code postal ne doit pas dépasser 10 caractères.")
    .regex(/^[A-Za-z0-9 -]*$/, "Le code postal ne doit contenir que des chiffres et des lettres.")
    .nullable()
    .optional()
    .transform((v) => (v ? v : null)),
  country: optionalText(60, "Le pays"),
  phone: safeText()
    .trim()
    .max(30, "Le téléphone ne doit pas dépasser 30 caractères.")
    .regex(/^[+0-9 ().-]*$/, "Le téléphone ne doit contenir que des chiffres, espaces et + ( ) . -")
    .nullable()
    .optional()
    .transform((v) => (v ? v : null)),
  isAdmin: z.boolean({ error: "isAdmin doit être vrai ou faux." }).optional().default(false),
};

/** New user (form and POST /api/users): the password is required. */
export const userCreateSchema = z.object({ ...userFields, password: passwordField });

/** Edited user: an empty password keeps the current one. */
export const userUpdateSchema = z.object({ ...userFields, password: passwordField.optional() });

export type UserCreateInput = z.output<typeof userCreateSchema>;
export type UserUpdateInput = z.output<typeof userUpdateSchema>;
