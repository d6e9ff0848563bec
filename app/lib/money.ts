/** Money is integer cents. Display: `25,90€`; API: `"25.90"`; input accepts `25,90` or `25.90`. */

/** The shop's one currency, as Stripe names it: every amount asked of Stripe is in it, and a payment in another currency pays nothing. */
export const CURRENCY = "eur";

export function formatPrice(cents: number | null | undefined): string {
  const value = typeof cents === "number" && Number.isFinite(cents) ? Math.round(cents) : 0;
  const sign = value < 0 ? "-" : "";
  const abs = Math.abs(value);
  const euros = Math.floor(abs / 100);
  const rest = String(abs % 100).padStart(2, "0");
  return `${sign}${euros},${rest}€`;
}

/** Decimal string for the JSON API: 2590 -> "25.90". */
export function centsToDecimal(cents: number | null | undefined): string {
  const value = typeof cents === "number" && Number.isFinite(cents) ? Math.round(cents) : 0;
  const sign = value < 0 ? "-" : "";
  const abs = Math.abs(value);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

/** The shipping line of a cart, an order or an invoice: 'Gratuite' when free, else the amount. */
export function shippingLabel(cents: number): string {
  return cents === 0 ? "Gratuite" : formatPrice(cents);
}

const PRICE_PATTERN = /^\s*(\d{1,7})(?:[.,](\d{1,2}))?\s*€?\s*$/;

/** Parses "25,90", "25.90", "25,9", "25" or "25,90€" into cents; null when not a price. */
export function parsePriceToCents(input: string | number | null | undefined): number | null {
  if (typeof input === "number") {
    return Number.isFinite(input) && input >= 0 && input < 1e7 ? Math.round(input * 100) : null;
  }
  if (typeof input !== "string") return null;
  const match = PRICE_PATTERN.exec(input);
  if (!match) return null;
  const euros = Number(match[1]);
  const cents = Number((match[2] ?? "0").padEnd(2, "0"));
  return euros * 100 + cents;
}
