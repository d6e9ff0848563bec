/** Dates are stored as UTC ISO strings and shown in fr-FR, Europe/Paris. */
const TZ = "Europe/Paris";

const dateFormat = new Intl.DateTimeFormat("fr-FR", { timeZone: TZ, day: "2-digit", month: "2-digit", year: "numeric" });
const dateTimeFormat = new Intl.DateTimeFormat("fr-FR", {
  timeZone: TZ,
  day: "2-digit",
  month: "2-digit",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
});
const longFormat = new Intl.DateTimeFormat("fr-FR", {
  timeZone: TZ,
  weekday: "long",
  day: "numeric",
  month: "long",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
});

function toDate(value: string | Date | null | undefined): Date | null {
  if (!value) return null;
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** `05/03/2026` */
export function formatDate(value: string | Date | null | undefined): string {
  const d = toDate(value);
  return d ? dateFormat.format(d) : "-";
}

/** `05/03/2026 14:07` */
export function formatDateTime(value: string | Date | null | undefined): string {
  const d = toDate(value);
  return d ? dateTimeFormat.format(d).replace(",", "").replace(" à ", " ") : "-";
}

/** `jeudi 5 mars 2026 à 14:07` */
export function formatLongDate(value: string | Date | null | undefined): string {
  const d = toDate(value);
  return d ? longFormat.format(d) : "-";
}

const dayFormat = new Intl.DateTimeFormat("fr-FR", { timeZone: TZ, day: "numeric", month: "long", year: "numeric" });

/** `23 décembre 2026`, `1er mars 2027`: a day in a sentence (Paris). */
export function formatDayInWords(value: string | Date | null | undefined): string {
  const d = toDate(value);
  return d ? dayFormat.format(d).replace(/^1 /, "1er ") : "-";
}

const parisParts = new Intl.DateTimeFormat("en-GB", {
  timeZone: TZ,
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hourCycle: "h23",
});

/** Paris wall-clock fields of an instant. */
function parisFields(ms: number) {
  const get = (type: string) => Number(parisParts.formatToParts(new Date(ms)).find((p) => p.type === type)?.value);
  return {
    year: get("year"),
    month: get("month"),
    day: get("day"),
    hour: get("hour"),
    minute: get("minute"),
    second: get("second"),
  };
}

/** `2026-11-25T21:30`: an instant as a datetime-local field shows it, in Paris time ("" for none). */
export function toParisLocalInput(value: string | Date | null | undefined): string {
  const d = toDate(value);
  if (!d) return "";
  const f = parisFields(d.getTime());
  const two = (n: number) => String(n).padStart(2, "0");
  return `${f.year}-${two(f.month)}-${two(f.day)}T${two(f.hour)}:${two(f.minute)}`;
}

const LOCAL_INPUT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/**
 * A datetime-local value (`2026-11-25T21:30`), read as Paris time, as an ISO instant (UTC);
 * null when it is not such a value or not a real date.
 */
export function parisLocalToIso(value: string): string | null {
  const m = LOCAL_INPUT.exec(value.trim());
  if (!m) return null;
  const [year, month, day, hour, minute] = m.slice(1).map(Number);
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  const check = new Date(wall);
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59) return null;
  // The offset of Paris at that moment (one correction covers the changes of time).
  let instant = wall;
  for (let i = 0; i < 2; i++) {
    const f = parisFields(instant);
    const shown = Date.UTC(f.year, f.month - 1, f.day, f.hour, f.minute, f.second);
    instant -= shown - wall;
  }
  return new Date(instant).toISOString();
}
