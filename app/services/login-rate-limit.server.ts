/**
 * Admin sign-in rate limit: failed attempts are counted per client address and per
 * username over a sliding 15-minute window. Kept in memory (one server process);
 * a restart forgets it, which only ever gives an attacker a fresh window of 5 tries.
 */

export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
/** Failures allowed per username in the window; the next attempt is refused (429). */
export const MAX_FAILURES_PER_USERNAME = 5;
/** Failures allowed per client address (higher: several people may share one address). */
export const MAX_FAILURES_PER_ADDRESS = 20;

const MAX_TRACKED_KEYS = 10_000;

const failures = new Map<string, number[]>();

function recent(key: string, now: number): number[] {
  const list = (failures.get(key) ?? []).filter((t) => now - t < LOGIN_WINDOW_MS);
  if (list.length === 0) failures.delete(key);
  else failures.set(key, list);
  return list;
}

function prune(now: number) {
  if (failures.size < MAX_TRACKED_KEYS) return;
  for (const key of [...failures.keys()]) recent(key, now);
  // Still too many: forget the oldest keys (Map keeps insertion order).
  for (const key of failures.keys()) {
    if (failures.size < MAX_TRACKED_KEYS) break;
    failures.delete(key);
  }
}

const addressKey = (address: string) => `ip:${address}`;
const usernameKey = (username: string) => `user:${username.trim().toLowerCase()}`;

export type LoginGate = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export function checkLoginAllowed(address: string, username: string, now = Date.now()): LoginGate {
  let wait = 0;
  for (const [key, max] of [
    [addressKey(address), MAX_FAILURES_PER_ADDRESS],
    [usernameKey(username), MAX_FAILURES_PER_USERNAME],
  ] as const) {
    const list = recent(key, now);
    if (list.length >= max) {
      // Allowed again when enough failures have left the window.
      const freedAt = list[list.length - max] + LOGIN_WINDOW_MS;
      wait = Math.max(wait, freedAt - now);
    }
  }
  return wait > 0 ? { allowed: false, retryAfterSeconds: Math.ceil(wait / 1000) } : { allowed: true };
}

export function recordLoginFailure(address: string, username: string, now = Date.now()) {
  prune(now);
  for (const key of [addressKey(address), usernameKey(username)]) {
    const list = recent(key, now);
    list.push(now);
    failures.set(key, list);
  }
}

/** A successful sign-in clears the username's failures (the address keeps its count). */
export function recordLoginSuccess(username: string) {
  failures.delete(usernameKey(username));
}

export function tooManyAttemptsMessage(retryAfterSeconds: number) {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `Trop de tentatives de connexion. Réessayez dans ${minutes} ${minutes > 1 ? "minutes" : "minute"}.`;
}

/** For tests. */
export function resetLoginRateLimit() {
  failures.clear();
}
