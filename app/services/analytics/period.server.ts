import { addDays, addMonths, daysBetween, parisDay, parisDayStart } from "~/lib/paris-days";
import { formatDate } from "~/lib/dates";
import type { AnalyticsPreset } from "~/schemas/analytics";

/**
 * A period of the analytics, its comparison and its buckets. Every boundary is a Paris
 * midnight turned into a UTC instant, so a day of 23 or 25 hours (the changes of time) counts
 * exactly what happened on that day in Paris.
 */

/** A stretch of whole Paris days: `from` and `to` included, and the instants it runs between. */
export type Span = { from: string; to: string; start: string; end: string };

/** One point of a chart: a day, or a week from Monday (the first and last may be cut by the period). */
export type Bucket = Span & { label: string };

export type Period = Span & {
  days: number;
  granularity: "day" | "week";
  /** The same number of days just before. */
  previous: Span;
  buckets: Bucket[];
};

/** Periods up to this many days are drawn by day, longer ones by week. */
const DAILY_UP_TO = 92;

export function span(from: string, to: string): Span {
  return { from, to, start: parisDayStart(from), end: parisDayStart(addDays(to, 1)) };
}

/** The days a preset covers, ending today (Paris). */
export function presetDays(preset: AnalyticsPreset, now = new Date()): { from: string; to: string } {
  const to = parisDay(now);
  if (preset === "12m") return { from: addDays(addMonths(to, -12), 1), to };
  const days = { "7j": 7, "30j": 30, "90j": 90 }[preset];
  return { from: addDays(to, 1 - days), to };
}

/** Monday of the day's week. */
function mondayOf(day: string): string {
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay(); // 0 = Sunday
  return addDays(day, -((weekday + 6) % 7));
}

function bucketsOf(from: string, to: string, granularity: Period["granularity"]): Bucket[] {
  const buckets: Bucket[] = [];
  let day = from;
  while (day <= to) {
    const last = granularity === "day" ? day : addDays(mondayOf(day), 6) < to ? addDays(mondayOf(day), 6) : to;
    const label = granularity === "day" ? formatDate(`${day}T12:00:00Z`) : `Semaine du ${formatDate(`${day}T12:00:00Z`)}`;
    buckets.push({ ...span(day, last), label });
    day = addDays(last, 1);
  }
  return buckets;
}

export function periodOf(from: string, to: string): Period {
  const days = daysBetween(from, to);
  const granularity = days <= DAILY_UP_TO ? "day" : "week";
  return {
    ...span(from, to),
    days,
    granularity,
    previous: span(addDays(from, -days), addDays(from, -1)),
    buckets: bucketsOf(from, to, granularity),
  };
}
