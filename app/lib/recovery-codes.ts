/**
 * Recovery codes of the administrators' second factor: 12 characters of Crockford's base32,
 * shown as `xxxx-xxxx-xxxx`. Typed back, case, spaces and dashes do not matter, and the letters
 * people confuse with digits (i, l, o) are read as 1 and 0.
 */
export const RECOVERY_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";

/** The code reduced to its 12 characters, or null when it cannot be a recovery code. */
export function normaliseRecoveryCode(input: string): string | null {
  const compact = input
    .toLowerCase()
    .replace(/[\s-]+/g, "")
    .replace(/[il]/g, "1")
    .replace(/o/g, "0");
  return /^[0-9a-hjkmnp-tv-z]{12}$/.test(compact) ? compact : null;
}

/** A 6-digit code as typed (spaces allowed, as some apps show `123 456`), or null. */
export function normaliseTotpCode(input: string): string | null {
  const compact = input.replace(/\s+/g, "");
  return /^\d{6}$/.test(compact) ? compact : null;
}
