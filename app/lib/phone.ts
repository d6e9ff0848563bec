/**
 * French telephone numbers, as the delivery form takes them for the carrier: typed in any of
 * the usual ways (06 12 34 56 78, 06.12.34.56.78, +33 6 12 34 56 78, 0033 6..., +33 (0)6...),
 * kept in the international form (+33612345678) and shown in the national one
 * (06 12 34 56 78). Client-safe: the form, the server and the pages share it.
 */

/** The international form (+33 and 9 digits), or null when it is not a French number. */
export function normalizeFrenchPhone(value: string): string | null {
  let digits = value
    .trim()
    .replace(/[\s.\-/]/g, "")
    .replace(/\(0\)/g, "");
  if (digits.startsWith("+33")) digits = digits.slice(3);
  else if (digits.startsWith("0033")) digits = digits.slice(4);
  else if (/^0\d{9}$/.test(digits)) digits = digits.slice(1);
  else return null;
  return /^[1-9]\d{8}$/.test(digits) ? `+33${digits}` : null;
}

/** "+33612345678" → "06 12 34 56 78"; anything else as it is. */
export function formatFrenchPhone(value: string | null | undefined): string {
  if (!value) return "";
  const match = /^\+33([1-9]\d{8})$/.exec(value);
  if (!match) return value;
  return `0${match[1]}`.replace(/(\d{2})(?=\d)/g, "$1 ");
}
