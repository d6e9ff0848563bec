import { z } from "zod";
import { normaliseRecoveryCode, normaliseTotpCode } from "~/lib/recovery-codes";
import { safeText } from "./text";

/**
 * The forms of the administrators' second factor: the code step of the sign-in, and the security
 * page (confirm the enrolment, turn the factor off, new recovery codes). The JSON API's sign-in
 * takes the same `code` (schemas/login.ts).
 */

const CODE_REQUIRED = "Le code de vérification est requis";
const CODE_FORMAT = "Le code de vérification est composé de 6 chiffres";
const RECOVERY_REQUIRED = "Le code de secours est requis";
const RECOVERY_FORMAT = "Un code de secours a 12 caractères, par exemple abcd-efgh-2345";
const EITHER_FORMAT = "Saisissez les 6 chiffres de votre application ou un code de secours (abcd-efgh-2345)";

/** The 6 digits shown by the authenticator app (spaces allowed). */
export const totpCodeField = safeText({ error: CODE_REQUIRED })
  .trim()
  .min(1, CODE_REQUIRED)
  .max(20, CODE_FORMAT)
  .refine((value) => normaliseTotpCode(value) !== null, { message: CODE_FORMAT });

export const recoveryCodeField = safeText({ error: RECOVERY_REQUIRED })
  .trim()
  .min(1, RECOVERY_REQUIRED)
  .max(40, RECOVERY_FORMAT)
  .refine((value) => normaliseRecoveryCode(value) !== null, { message: RECOVERY_FORMAT });

/** Either a current code or a recovery code (the JSON API's `code`). */
export const secondFactorCodeField = safeText({ error: CODE_REQUIRED })
  .trim()
  .min(1, CODE_REQUIRED)
  .max(40, EITHER_FORMAT)
  .refine((value) => normaliseTotpCode(value) !== null || normaliseRecoveryCode(value) !== null, {
    message: EITHER_FORMAT,
  });

/** A checkbox: "on" when ticked, absent otherwise. */
const checkbox = z
  .union([z.literal("on"), z.boolean()])
  .optional()
  .transform((value) => value === "on" || value === true);

/** Sign-in, second step: the code, and « Se souvenir de cet appareil ». */
export const totpStepSchema = z.object({ code: totpCodeField, remember: checkbox });
/** Sign-in, second step with a recovery code instead. */
export const recoveryStepSchema = z.object({ recoveryCode: recoveryCodeField });

/** Security page: the first code, which turns the factor on. */
export const totpConfirmSchema = z.object({ code: totpCodeField });
/** Security page: new recovery codes, with a current code (or a recovery code). */
export const recoveryRegenerateSchema = z.object({ code: secondFactorCodeField });

const PROOF_REQUIRED = "Saisissez un code de vérification ou votre mot de passe";
/** Security page: turning the factor off, with a current code (or a recovery code) or the password. */
export const totpDisableSchema = z
  .object({
    // An empty field is absent (Conform sends no value for it).
    code: secondFactorCodeField.optional(),
    password: safeText().max(256, "Le mot de passe ne doit pas dépasser 256 caractères").optional(),
  })
  .refine((value) => value.code !== undefined || value.password !== undefined, { message: PROOF_REQUIRED, path: ["code"] });

export type TotpDisableInput = z.infer<typeof totpDisableSchema>;
