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
