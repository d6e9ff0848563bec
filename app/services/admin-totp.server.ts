import { createHash, randomBytes } from "node:crypto";
import { getTOTPAuthUri, verifyTOTP } from "@epic-web/totp";
import base32Encode from "base32-encode";
import { and, asc, count, eq, isNotNull, isNull, lt, or } from "drizzle-orm";
import QRCode from "qrcode";
import { getConfig } from "~/config.server";
import { getDb, type DbOrTx } from "~/db/client.server";
import { lockFor } from "~/db/locks.server";
import { adminRecoveryCodes, adminTotp, users } from "~/db/schema";
import { BRAND } from "~/lib/meta";
import { normaliseRecoveryCode, normaliseTotpCode, RECOVERY_ALPHABET } from "~/lib/recovery-codes";
import { ShopError } from "~/lib/shop-error";
import { forgetTrustedDevices } from "./admin-trusted-devices.server";
import { openSecret, sealSecret } from "./secret-box.server";

/**
 * The administrators' second factor: TOTP codes (RFC 6238: HMAC-SHA-1, 6 digits, 30 s steps,
 * what every authenticator app reads from the QR code) and single-use recovery codes.
 *
 * - Enrolment: a secret is drawn (160 bits) and kept encrypted (secret-box.server.ts) while the
 *   administrator scans it; the factor is on only once a current code is typed. The secret is
 *   never shown again after that.
 * - A code is accepted one step before or after the server's clock, and never twice: the step of
 *   the last accepted code is kept (`last_used_step`), and only a later step passes.
 * - Recovery codes: 10, shown once, each usable once; only their SHA-256 is kept.
 */

export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
const TOTP_ALGORITHM = "SHA-1";
/** Steps accepted on each side of the server's clock. */
export const TOTP_WINDOW = 1;
export const RECOVERY_CODE_COUNT = 10;

const secretContext = (userId: number) => `admin-totp:${userId}`;

export type TotpStatus =
  | { state: "off" }
  | { state: "pending"; secret: string; uri: string; qrSvg: string }
  | { state: "on"; enabledAt: string; recoveryCodesLeft: number };

/** The shared secret, base32 (RFC 4648, no padding), as authenticator apps want it. */
function newSecret(): string {
  return base32Encode(randomBytes(20), "RFC4648", { padding: false });
}

export function totpUri(secret: string, username: string): string {
  return getTOTPAuthUri({
    secret,
    accountName: username,
    issuer: BRAND,
    period: TOTP_PERIOD_SECONDS,
    digits: TOTP_DIGITS,
    algorithm: TOTP_ALGORITHM,
  });
}

/** The current time step. */
const currentStep = () => Math.floor(Date.now() / 1000 / TOTP_PERIOD_SECONDS);

/** The step whose code this is (within the window), or null. */
async function stepOfCode(secret: string, code: string): Promise<number | null> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const step = currentStep();
    const match = await verifyTOTP({
      otp: code,
      secret,
      period: TOTP_PERIOD_SECONDS,
      digits: TOTP_DIGITS,
      algorithm: TOTP_ALGORITHM,
      window: TOTP_WINDOW,
    });
    // The step changed while the code was checked: check again against the new one.
    if (currentStep() !== step) continue;
    return match ? step + match.delta : null;
  }
  return null;
}

async function totpRow(userId: number, db: DbOrTx = getDb()) {
  const [row] = await db.select().from(adminTotp).where(eq(adminTotp.userId, userId)).limit(1);
  return row;
}

function readSecret(userId: number, encrypted: string): string {
  const secret = openSecret(encrypted, secretContext(userId));
  if (secret === null) {
    throw new ShopError(
      409,
      "totp_secret_unreadable",
      "La clé de double authentification ne peut plus être lue (secret de session changé). Utilisez un code de secours.",
    );
  }
  return secret;
}

/** True when the user's second factor is on. */
export async function hasTotp(userId: number): Promise<boolean> {
  const row = await totpRow(userId);
  return Boolean(row?.enabledAt);
}

/** What the security page shows: nothing yet, the enrolment under way (secret, URI, QR code), or the factor on. */
export async function getTotpStatus(user: { id: number; username: string }): Promise<TotpStatus> {
  const row = await totpRow(user.id);
  if (!row) return { state: "off" };
  if (row.enabledAt) {
    return { state: "on", enabledAt: row.enabledAt, recoveryCodesLeft: await recoveryCodesLeft(user.id) };
  }
  const secret = readSecret(user.id, row.encryptedSecret);
  const uri = totpUri(secret, user.username);
  const qrSvg = await QRCode.toString(uri, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
  return { state: "pending", secret, uri, qrSvg };
}

const ALREADY_ON = "La double authentification est déjà activée sur ce compte.";

/** Starts (or starts again, with a new secret) the enrolment of this user. */
export async function startTotpEnrolment(userId: number): Promise<void> {
  const db = getDb();
  const row = await totpRow(userId, db);
  if (row?.enabledAt) throw new ShopError(409, "totp_already_enabled", ALREADY_ON);
  const values = {
    userId,
    encryptedSecret: sealSecret(newSecret(), secretContext(userId)),
    createdAt: new Date().toISOString(),
    enabledAt: null,
    lastUsedStep: null,
  };
  await db
    .insert(adminTotp)
    .values(values)
    .onConflictDoUpdate({ target: adminTotp.userId, set: values, where: isNull(adminTotp.enabledAt) });
}

/** Gives up an enrolment that was not confirmed (the factor stays off). */
export async function cancelTotpEnrolment(userId: number): Promise<void> {
  await getDb()
    .delete(adminTotp)
    .where(and(eq(adminTotp.userId, userId), isNull(adminTotp.enabledAt)));
}

export const INVALID_CODE = "Code de vérification invalide. Vérifiez l'heure de votre téléphone et saisissez le code affiché.";

/**
 * Confirms the enrolment with a current code: the factor is on, and the 10 recovery codes are
 * returned, to be shown once. Refused (400, on `code`) with a wrong code.
 */
export async function confirmTotpEnrolment(userId: number, code: string): Promise<string[]> {
  const row = await totpRow(userId);
  if (!row) throw new ShopError(409, "totp_not_started", "Commencez par afficher le QR code à scanner.");
  if (row.enabledAt) throw new ShopError(409, "totp_already_enabled", ALREADY_ON);
  const totp = normaliseTotpCode(code);
  const step = totp === null ? null : await stepOfCode(readSecret(userId, row.encryptedSecret), totp);
  if (step === null) throw new ShopError(400, "invalid_code", INVALID_CODE, { field: "code" });
  return await getDb().transaction(async (tx) => {
    const enabled = await tx
      .update(adminTotp)
      .set({ enabledAt: new Date().toISOString(), lastUsedStep: step })
      .where(and(eq(adminTotp.userId, userId), isNull(adminTotp.enabledAt), eq(adminTotp.encryptedSecret, row.encryptedSecret)))
      .returning({ userId: adminTotp.userId });
    if (enabled.length === 0) {
      throw new ShopError(409, "totp_enrolment_changed", "L'activation a changé entre-temps : rechargez la page et recommencez.");
    }
    return await replaceRecoveryCodes(userId, tx);
  });
}

/**
 * Checks a second-factor code of a user whose factor is on: a 6-digit TOTP code (within the
 * window, in a step later than the last accepted one), or an unused recovery code, which is
 * then used up. False otherwise (factor off included).
 */
export async function checkSecondFactor(userId: number, code: string): Promise<boolean> {
  const totp = normaliseTotpCode(code);
  if (totp !== null) return await checkTotpCode(userId, totp);
  return await spendRecoveryCode(userId, code);
}

async function checkTotpCode(userId: number, code: string): Promise<boolean> {
  const row = await totpRow(userId);
  if (!row?.enabledAt) return false;
  const step = await stepOfCode(readSecret(userId, row.encryptedSecret), code);
  if (step === null) return false;
  // Only a step later than the last one accepted: a code seen once (or an older one) is refused.
  const accepted = await getDb()
    .update(adminTotp)
    .set({ lastUsedStep: step })
    .where(
      and(
        eq(adminTotp.userId, userId),
        isNotNull(adminTotp.enabledAt),
        or(isNull(adminTotp.lastUsedStep), lt(adminTotp.lastUsedStep, step)),
      ),
    )
    .returning({ userId: adminTotp.userId });
  return accepted.length > 0;
}

// ---------------------------------------------------------------------------
// Recovery codes (lib/recovery-codes.ts): 60 random bits each.

function newRecoveryCode(): string {
  const chars = [...randomBytes(12)].map((byte) => RECOVERY_ALPHABET[byte & 31]).join("");
  return `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8)}`;
}

const hashRecoveryCode = (normalised: string) => createHash("sha256").update(`admin-recovery:${normalised}`).digest("hex");

async function replaceRecoveryCodes(userId: number, db: DbOrTx): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  const createdAt = new Date().toISOString();
  // Deleted then written: two replacements at once would leave both sets.
  await lockFor(db, "admin-user", userId);
  await db.delete(adminRecoveryCodes).where(eq(adminRecoveryCodes.userId, userId));
  await db
    .insert(adminRecoveryCodes)
    .values(codes.map((code) => ({ userId, codeHash: hashRecoveryCode(normaliseRecoveryCode(code)!), createdAt })));
  return codes;
}

async function spendRecoveryCode(userId: number, input: string): Promise<boolean> {
  const normalised = normaliseRecoveryCode(input);
  if (normalised === null || !(await hasTotp(userId))) return false;
  const used = await getDb()
    .update(adminRecoveryCodes)
    .set({ usedAt: new Date().toISOString() })
    .where(
      and(
        eq(adminRecoveryCodes.userId, userId),
        eq(adminRecoveryCodes.codeHash, hashRecoveryCode(normalised)),
        isNull(adminRecoveryCodes.usedAt),
      ),
    )
    .returning({ id: adminRecoveryCodes.id });
  return used.length > 0;
}

async function recoveryCodesLeft(userId: number): Promise<number> {
  const [row] = await getDb()
    .select({ n: count() })
    .from(adminRecoveryCodes)
    .where(and(eq(adminRecoveryCodes.userId, userId), isNull(adminRecoveryCodes.usedAt)));
  return Number(row?.n ?? 0);
}

/** New recovery codes (the old ones stop working), to be shown once. The caller has checked a current code. */
export async function regenerateRecoveryCodes(userId: number): Promise<string[]> {
  if (!(await hasTotp(userId))) throw new ShopError(409, "totp_not_enabled", "La double authentification n'est pas activée.");
  return await getDb().transaction((tx) => replaceRecoveryCodes(userId, tx));
}

/** Turns the factor off: secret, recovery codes and remembered browsers are deleted. The caller has checked a code or the password. */
export async function disableTotp(userId: number): Promise<void> {
  await getDb().transaction(async (tx) => {
    await forgetTrustedDevices(userId, tx);
    await tx.delete(adminRecoveryCodes).where(eq(adminRecoveryCodes.userId, userId));
    await tx.delete(adminTotp).where(eq(adminTotp.userId, userId));
  });
}

/** Administrators whose second factor is not on (the live dashboard warns about each). */
export async function adminsWithoutTotp(): Promise<{ id: number; username: string }[]> {
  return await getDb()
    .select({ id: users.id, username: users.username })
    .from(users)
    .leftJoin(adminTotp, and(eq(adminTotp.userId, users.id), isNotNull(adminTotp.enabledAt)))
    .where(and(eq(users.isAdmin, true), isNull(adminTotp.userId)))
    .orderBy(asc(users.username));
}

/** The live dashboard's warning: the administrators without a second factor (none in demo mode, where it is optional). */
export async function secondFactorWarning(): Promise<{ id: number; username: string }[]> {
  if (getConfig().mode !== "live") return [];
  return await adminsWithoutTotp();
}
