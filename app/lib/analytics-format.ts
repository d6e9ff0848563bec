/**
 * How the analytics write their figures, in French: amounts with their thousands apart
 * (« 12 345,60€ », the shop's sign after the amount), counts, percentages and their change.
 */

const amountFormat = new Intl.NumberFormat("fr-FR", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const countFormat = new Intl.NumberFormat("fr-FR", { maximumFractionDigits: 0 });
const percentFormat = new Intl.NumberFormat("fr-FR", { style: "percent", maximumFractionDigits: 1 });
const changeFormat = new Intl.NumberFormat("fr-FR", { style: "percent", maximumFractionDigits: 0, signDisplay: "exceptZero" });

export function formatAmount(cents: number | null): string {
  return cents === null ? "—" : `${amountFormat.format(cents / 100)}€`;
}

/** Whole euros, for the axes. */
export function formatEuros(cents: number): string {
  return `${countFormat.format(Math.round(cents / 100))}€`;
}

export function formatCount(n: number | null): string {
  return n === null ? "—" : countFormat.format(n);
}

/** 12.34 → « 12,3 % ». */
export function formatPercent(percent: number | null): string {
  return percent === null ? "—" : percentFormat.format(percent / 100);
}

/** The change against the previous period: « +12 % », « −3 % », « 0 % », or « — » with nothing to compare with. */
export function formatChange(change: number | null): string {
  return change === null ? "—" : changeFormat.format(change / 100);
}
