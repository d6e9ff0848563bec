import { DELIVERY } from "~/content/brand";

/**
 * The refund deadline of a withdrawal (article L. 221-24 du Code de la consommation): the
 * seller refunds within 14 days of the customer's request. Counted in calendar days in Paris,
 * as the back office shows it: a request of 25 November is due on 9 December, "3 days left"
 * on 6 December, "last day" on 9 December, overdue from 10 December.
 */

const TZ = "Europe/Paris";
const DAY_MS = 86_400_000;

/** Days within which the refund is due, counted from the request. */
export const WITHDRAWAL_REFUND_DAYS = DELIVERY.refundDays;

/** From this many days left (and below), the back office highlights the request. */
export const WITHDRAWAL_SOON_DAYS = 3;

const dayKey = new Intl.DateTimeFormat("en-CA", { timeZone: TZ, year: "numeric", month: "2-digit", day: "2-digit" });

/** The Paris calendar day of an instant, as a day number (days since 1970-01-01). */
function parisDayNumber(at: Date): number {
  const [year, month, day] = dayKey.format(at).split("-").map(Number);
  return Math.round(Date.UTC(year, month - 1, day) / DAY_MS);
}

/** The instant the refund is due: the request plus 14 days. */
export function withdrawalRefundDeadline(requestedAt: string | Date): Date {
  const at = typeof requestedAt === "string" ? new Date(requestedAt) : requestedAt;
  return new Date(at.getTime() + WITHDRAWAL_REFUND_DAYS * DAY_MS);
}

export type WithdrawalUrgency = "ok" | "soon" | "overdue";

export type WithdrawalDeadline = {
  /** The deadline (ISO, UTC). */
  deadline: string;
  /** Calendar days (Paris) from today to the deadline's day: 0 on the last day, negative once past. */
  daysLeft: number;
  /** ok: more than 3 days left; soon: 3 days or fewer (amber); overdue: the deadline's day has passed (red). */
  urgency: WithdrawalUrgency;
  /** « 12 jours restants », « 1 jour restant », « Dernier jour », « Délai dépassé de 2 jours ». */
  label: string;
};

export function withdrawalDeadline(requestedAt: string | Date, now: Date = new Date()): WithdrawalDeadline {
  const deadline = withdrawalRefundDeadline(requestedAt);
  const daysLeft = parisDayNumber(deadline) - parisDayNumber(now);
  const urgency: WithdrawalUrgency = daysLeft < 0 ? "overdue" : daysLeft <= WITHDRAWAL_SOON_DAYS ? "soon" : "ok";
  return { deadline: deadline.toISOString(), daysLeft, urgency, label: deadlineLabel(daysLeft) };
}

function deadlineLabel(daysLeft: number): string {
  if (daysLeft < 0) return `Délai dépassé de ${-daysLeft} jour${-daysLeft > 1 ? "s" : ""}`;
  if (daysLeft === 0) return "Dernier jour pour rembourser";
  return `${daysLeft} jour${daysLeft > 1 ? "s" : ""} restant${daysLeft > 1 ? "s" : ""}`;
}

const dayInWords = new Intl.DateTimeFormat("fr-FR", { timeZone: TZ, day: "numeric", month: "long", year: "numeric" });
const timeOfDay = new Intl.DateTimeFormat("fr-FR", { timeZone: TZ, hour: "2-digit", minute: "2-digit", hourCycle: "h23" });

/** « le 25 novembre 2026 à 19:42 », « le 1er décembre 2026 à 08:05 » (Paris). */
export function formatRequestMoment(value: string | Date): string {
  const at = typeof value === "string" ? new Date(value) : value;
  if (Number.isNaN(at.getTime())) return "-";
  return `le ${dayInWords.format(at).replace(/^1 /, "1er ")} à ${timeOfDay.format(at)}`;
}
