/**
 * The largest id a row can have: ids are 32-bit integers in the database (PostgreSQL's
 * `integer`), so a larger number names no row, on either engine.
 */
export const MAX_ID = 2_147_483_647;

/** Database ids in URLs, metadata and API paths: a positive integer of at most 10 digits (and at most MAX_ID). */
export const ID_PATTERN = /^[1-9]\d{0,9}$/;

/** The id as a number, or null when the text is not a positive integer id. */
export function parseIdOrNull(value: string | null | undefined): number | null {
  if (!value || !ID_PATTERN.test(value)) return null;
  const id = Number(value);
  return id <= MAX_ID ? id : null;
}

/** Public id of an admin session (16 random bytes in base64url): names it in the sessions list and the API. */
export const SESSION_ID_PATTERN = /^[A-Za-z0-9_-]{22}$/;
