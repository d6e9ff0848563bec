/** Database ids in URLs, metadata and API paths: a positive integer of at most 15 digits. */
export const ID_PATTERN = /^[1-9]\d{0,14}$/;

/** The id as a number, or null when the text is not a positive integer id. */
export function parseIdOrNull(value: string | null | undefined): number | null {
  return value && ID_PATTERN.test(value) ? Number(value) : null;
}

/** Public id of an admin session (16 random bytes in base64url): names it in the sessions list and the API. */
export const SESSION_ID_PATTERN = /^[A-Za-z0-9_-]{22}$/;
