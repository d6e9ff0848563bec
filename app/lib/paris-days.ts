import { parisLocalToIso } from "./dates";

/**
 * Days of the Europe/Paris calendar, written `2026-11-27`: what the analytics count by, whatever
 * the server's time zone. A day starts at Paris midnight, which is 23:00 or 22:00 UTC the day
 * before depending on summer time; a day is 23, 24 or 25 hours long.
 */

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const dayFormat = new Intl.DateTimeFormat("en-CA", {
  timeZone: "Europe/Paris",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
});

/** Whether `value` is a real day written `YYYY-MM-DD`. */
export function isDay(value: string): boolean {
  const m = DAY.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === value;
}

/** The Paris day of an instant. */
export function parisDay(at: Date | string): string {
  return dayFormat.format(typeof at === "string" ? new Date(at) : at);
}

/** The instant (ISO, UTC) Paris midnight starts `day`. */
export function parisDayStart(day: string): string {
  const iso = parisLocalToIso(`${day}T00:00`);
  if (!iso) throw new Error(`Jour invalide : ${day}`);
  return iso;
}

/** The day `n` days after `day` (before, when negative). */
export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

/** The number of days from `from` to `to`, both included. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

/** The same day `months` months earlier or later, clamped to the month's last day (31 March − 1 month: 28 or 29 February). */
export function addMonths(day: string, months: number): string {
  const [y, m, d] = day.split("-").map(Number);
  const first = new Date(Date.UTC(y, m - 1 + months, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  first.setUTCDate(Math.min(d, last));
  return first.toISOString().slice(0, 10);
}
