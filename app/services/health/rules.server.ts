/**
 * The health page's colours (/admin/sante), from the figures read by shop-health.server.ts.
 * Green: nothing to do. Amber: to look at soon. Red: to act on now (the dashboard shows a banner).
 * The thresholds are documented in the README (« Santé de la boutique »).
 */

export type Level = "green" | "amber" | "red";

const HOUR = 3_600_000;
const MINUTE = 60_000;

/** Emails: waiting more than 10 min or 1 failure in 24 h is amber; more than 1 h or 5 failures is red. */
export const EMAIL_RULES = { amberWaitMs: 10 * MINUTE, redWaitMs: HOUR, amberFailures: 1, redFailures: 5 } as const;
/** Webhooks: a failed one not processed since is amber; red once it has waited more than 1 h. */
export const WEBHOOK_RULES = { redWaitMs: HOUR } as const;
/** Renewals failed in 7 days: 1 is amber, 5 red. */
export const RENEWAL_RULES = { amber: 1, red: 5 } as const;
/** Keys (addresses, mailboxes) that reached a rate limit in the last hour: 1 is amber, 50 red (a flood). */
export const RATE_LIMIT_RULES = { amber: 1, red: 50 } as const;

/**
 * Backup: none while BACKUP_EVERY > 0, or older than twice BACKUP_EVERY, is red; older than
 * BACKUP_EVERY plus one hour (the scheduler's margin) is amber; BACKUP_EVERY = 0 (no periodic
 * snapshot) is amber: the shop relies on someone else's backups.
 */
export function backupLevel(ageMs: number | null, everyHours: number): Level {
  if (everyHours <= 0) return "amber";
  if (ageMs === null || ageMs > 2 * everyHours * HOUR) return "red";
  return ageMs > everyHours * HOUR + HOUR ? "amber" : "green";
}

export function emailLevel(oldestWaitingMs: number | null, failures24h: number): Level {
  const wait = oldestWaitingMs ?? 0;
  if (wait > EMAIL_RULES.redWaitMs || failures24h >= EMAIL_RULES.redFailures) return "red";
  if (wait > EMAIL_RULES.amberWaitMs || failures24h >= EMAIL_RULES.amberFailures) return "amber";
  return "green";
}

export function webhookLevel(unprocessedFailures: number, oldestFailureAgeMs: number | null): Level {
  if (unprocessedFailures === 0) return "green";
  return (oldestFailureAgeMs ?? 0) > WEBHOOK_RULES.redWaitMs ? "red" : "amber";
}

export function renewalLevel(failed7d: number): Level {
  return failed7d >= RENEWAL_RULES.red ? "red" : failed7d >= RENEWAL_RULES.amber ? "amber" : "green";
}

export function rateLimitLevel(keysAtLimit: number): Level {
  return keysAtLimit >= RATE_LIMIT_RULES.red ? "red" : keysAtLimit >= RATE_LIMIT_RULES.amber ? "amber" : "green";
}

/** Demo mode is amber (no real payment); live with a legal mention missing, or the demo company's identity, is red. */
export function modeLevel(mode: "demo" | "live", missingMentions: number, demoCompany: boolean): Level {
  if (mode === "demo") return "amber";
  return missingMentions > 0 || demoCompany ? "red" : "green";
}

/** The worst of the levels. */
export function worstLevel(levels: Level[]): Level {
  return levels.includes("red") ? "red" : levels.includes("amber") ? "amber" : "green";
}
