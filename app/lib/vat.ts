/**
 * French VAT on the shop's prices. Every price is stored including VAT (TTC), in cents, and
 * every product sold is at the standard rate of 20 %.
 *
 * Rounding, the same on every invoice and credit note:
 * - each line's amount including VAT is its unit price × quantity (exact, in cents);
 * - its amount before VAT is that amount / 1.20, rounded to the nearest cent (a half cent up);
 * - its VAT is the difference, so that before VAT + VAT = including VAT on every line;
 * - the totals are the sums of the lines, so the invoice's total including VAT is exactly what
 *   the customer paid;
 * - the unit price before VAT shown on a line is the unit price / 1.20 rounded the same way,
 *   for information: the line's amounts are computed from its total, never from it.
 * Integer arithmetic only (no floating-point amounts).
 */

/** The standard rate, in basis points (20 % = 2000). */
export const STANDARD_VAT_RATE_BP = 2000;

/** "20 %" (with a narrow no-break space, as French typography wants). */
export function formatVatRate(rateBp: number): string {
  const whole = rateBp / 100;
  return `${Number.isInteger(whole) ? whole : whole.toFixed(1).replace(".", ",")}\u202f%`;
}

/** The amount before VAT of an amount including VAT, rounded to the nearest cent, a half up. */
export function excludingVat(includingCents: number, rateBp = STANDARD_VAT_RATE_BP): number {
  // including × 10000 / (10000 + rate), rounded half up: floor((2 × including × 10000 + divisor) / (2 × divisor)).
  const divisor = 10_000 + rateBp;
  return Math.floor((2 * includingCents * 10_000 + divisor) / (2 * divisor));
}

export type VatLine = {
  label: string;
  detail: string | null;
  quantity: number;
  /** Unit price including VAT. */
  unitIncludingCents: number;
  /** Unit price before VAT (for information, see above). */
  unitExcludingCents: number;
  rateBp: number;
  excludingCents: number;
  vatCents: number;
  includingCents: number;
};

export type VatTotals = { excludingCents: number; vatCents: number; includingCents: number };

/** One line of an invoice from its unit price including VAT and its quantity. */
export function vatLine(input: {
  label: string;
  detail?: string | null;
  quantity: number;
  unitIncludingCents: number;
  rateBp?: number;
}): VatLine {
  const rateBp = input.rateBp ?? STANDARD_VAT_RATE_BP;
  const includingCents = input.unitIncludingCents * input.quantity;
  const excludingCents = excludingVat(includingCents, rateBp);
  return {
    label: input.label,
    detail: input.detail ?? null,
    quantity: input.quantity,
    unitIncludingCents: input.unitIncludingCents,
    unitExcludingCents: excludingVat(input.unitIncludingCents, rateBp),
    rateBp,
    excludingCents,
    vatCents: includingCents - excludingCents,
    includingCents,
  };
}

export function vatTotals(lines: VatLine[]): VatTotals {
  return lines.reduce<VatTotals>(
    (t, l) => ({
      excludingCents: t.excludingCents + l.excludingCents,
      vatCents: t.vatCents + l.vatCents,
      includingCents: t.includingCents + l.includingCents,
    }),
    { excludingCents: 0, vatCents: 0, includingCents: 0 },
  );
}
