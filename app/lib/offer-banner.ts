/**
 * The trial offer's countdown banner ("Fin de l'offre d'essai dans 9 heures"): it counts down
 * to the end set in the settings and is gone once the offer is over, so it never announces an
 * end that does not come. Browser-safe: the product page renders it on the server and the
 * browser refreshes it while the page stays open.
 */

const MINUTE_MS = 60 * 1000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

const plural = (n: number, one: string, many: string) => `${n} ${n > 1 ? many : one}`;

/** "dans 9 heures", "dans 1 heure", "dans 25 minutes", "dans 3 jours"; null once `endsAt` has passed (or without one). */
export function timeLeftText(endsAt: string | null | undefined, now: Date = new Date()): string | null {
  if (!endsAt) return null;
  const end = Date.parse(endsAt);
  if (Number.isNaN(end)) return null;
  const left = end - now.getTime();
  if (left <= 0) return null;
  if (left < HOUR_MS) return `dans ${plural(Math.ceil(left / MINUTE_MS), "minute", "minutes")}`;
  if (left < 2 * DAY_MS) return `dans ${plural(Math.max(1, Math.round(left / HOUR_MS)), "heure", "heures")}`;
  return `dans ${plural(Math.round(left / DAY_MS), "jour", "jours")}`;
}

/** The banner's text, or null when there is nothing to announce (no end set, or the end passed). */
export function trialOfferBannerText(endsAt: string | null | undefined, now: Date = new Date()): string | null {
  const left = timeLeftText(endsAt, now);
  return left ? `Fin de l'offre d'essai ${left}` : null;
}

/**
 * Whether the trial offer is over: an end is set and has passed. From then on the trial pack
 * is no longer sold (services/packs.server.ts), so the countdown announced a real end.
 */
export function trialOfferOver(endsAt: string | null | undefined, now: Date = new Date()): boolean {
  if (!endsAt) return false;
  const end = Date.parse(endsAt);
  return !Number.isNaN(end) && end <= now.getTime();
}
