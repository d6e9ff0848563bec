import { z } from "zod";
import { safeText } from "./text";
import { secondFactorCodeField } from "./two-factor";

/** Admin sign-in (page form and POST /api/admin/login): messages word for word from spec section 5. */
const USERNAME_REQUIRED = "Le nom d'utilisateur est requis";
const PASSWORD_REQUIRED = "Le mot de passe est requis";

export const loginSchema = z.object({
  username: safeText({ error: USERNAME_REQUIRED })
    .trim()
    .min(1, USERNAME_REQUIRED)
    .max(100, "Le nom d'utilisateur ne doit pas dépasser 100 caractères"),
  // Not trimmed: spaces may be part of a password. Bounded so scrypt never hashes megabytes.
  password: safeText({ error: PASSWORD_REQUIRED })
    .min(1, PASSWORD_REQUIRED)
    .max(256, "Le mot de passe ne doit pas dépasser 256 caractères"),
});

export type LoginInput = z.infer<typeof loginSchema>;

export const LOGIN_FAILED_TITLE = "Échec de la connexion";
export const LOGIN_FAILED_MESSAGE = "Identifiants invalides";

/**
 * POST /api/admin/login: the same fields, and `code` for an account protected by the second
 * factor (the 6 digits of the authenticator app, or a recovery code).
 */
export const apiLoginSchema = loginSchema.extend({ code: secondFactorCodeField.optional() });

export type ApiLoginInput = z.infer<typeof apiLoginSchema>;
