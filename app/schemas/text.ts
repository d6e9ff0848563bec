import { z } from "zod";

/**
 * Every text field of every form and API body starts from `safeText()`: a string without
 * control characters (NUL, ESC, DEL, the C1 range...). Multi-line fields (a message, an
 * address block) keep their ordinary line breaks and tabs.
 */

export const CONTROL_CHARACTERS_MESSAGE = "Caractères non autorisés";

/** Unicode category Cc: U+0000-U+001F and U+007F-U+009F. */
const ANY_CONTROL = /\p{Cc}/u;
/** The same, except tab, line feed and carriage return (a textarea sends CRLF). */
const CONTROL_EXCEPT_LINE_BREAKS = /(?![\t\n\r])\p{Cc}/u;

export function hasControlCharacters(value: string, options: { multiline?: boolean } = {}): boolean {
  return (options.multiline ? CONTROL_EXCEPT_LINE_BREAKS : ANY_CONTROL).test(value);
}

/**
 * A string that refuses control characters with the French message "Caractères non autorisés".
 * `error` is the message for a missing value or a value that is not a string.
 * Chain the field's own rules after it: `safeText({ error }).trim().min(2, ...)`.
 */
export function safeText(options: { error?: string; multiline?: boolean } = {}) {
  const base = options.error === undefined ? z.string() : z.string({ error: options.error });
  return base.refine((value) => !hasControlCharacters(value, options), { message: CONTROL_CHARACTERS_MESSAGE });
}
