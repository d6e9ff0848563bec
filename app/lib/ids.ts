/** Database ids in URLs, metadata and API paths: a positive integer of at most 15 digits. */
export const ID_PATTERN = /^[1-9]\d{0,14}$/;

/** The id as a number, or null when the text is not a positive integer id. */
export function parseIdOrNull(value: string | null | undefined): number | null {
  return value && ID_PATTERN.test(value) ? Number(value) : null;
}
