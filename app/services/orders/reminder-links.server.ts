import { createHmac, timingSafeEqual } from "node:crypto";
import { getConfig } from "~/config.server";

/**
 * The two links of an abandoned-checkout reminder (cart-reminders/schedule.server.ts), stored nowhere and
 * signed with the session secret (HMAC-SHA256, base64url), checked against every secret of the
 * list so that a rotation keeps the links already sent working:
 * - « Finaliser ma commande »: `/panier/reprendre?commande=N&expire=UNIX&cle=KEY` over
 *   `cart-reminder:<order>:<expire>`. It restores the cart and leads to the order's payment step
 *   (cart-reminders/restore.server.ts) and nothing else; it lives RESUME_LINK_DAYS from the reminder.
 * - the unsubscribe link: `/rappels/desinscription?commande=N&cle=KEY` over
 *   `reminder-unsubscribe:<order>`. It only ever adds the order's address to the list
 *   (customers/reminder-unsubscribes.server.ts), so it has no expiry: an old email must still stop the reminders.
 */

export const RESUME_LINK_DAYS = 7;

const DAY_MS = 86_400_000;
const KEY_PATTERN = /^[A-Za-z0-9_-]{43}$/;

function sign(message: string, secret: string): string {
  return createHmac("sha256", secret).update(message, "utf8").digest("base64url");
}

/** Compared as text in constant time, against every secret of the list. */
function signedByUs(message: string, key: string): boolean {
  if (!KEY_PATTERN.test(key)) return false;
  const given = Buffer.from(key, "ascii");
  return getConfig().sessionSecrets.some((secret) => {
    const expected = Buffer.from(sign(message, secret), "ascii");
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

function orderIdOf(params: URLSearchParams): number | null {
  const text = params.get("commande") ?? "";
  if (!/^[1-9]\d{0,15}$/.test(text)) return null;
  const id = Number(text);
  return Number.isSafeInteger(id) ? id : null;
}

/** The path of « Finaliser ma commande » for a reminder queued at `remindedAt`. */
export function resumePath(orderId: number, remindedAt: Date): string {
  const expire = Math.floor((remindedAt.getTime() + RESUME_LINK_DAYS * DAY_MS) / 1000);
  const [secret] = getConfig().sessionSecrets;
  return `/panier/reprendre?commande=${orderId}&expire=${expire}&cle=${sign(`cart-reminder:${orderId}:${expire}`, secret)}`;
}

export type ResumeLinkCheck = { ok: true; orderId: number } | { ok: false; reason: "invalid" | "expired" };

/** `invalid` when anything is missing, malformed or not signed by us; `expired` when ours but past its 7 days. */
export function checkResumeLink(params: URLSearchParams, now: Date = new Date()): ResumeLinkCheck {
  const orderId = orderIdOf(params);
  const expireText = params.get("expire") ?? "";
  if (orderId === null || !/^[1-9]\d{0,11}$/.test(expireText)) return { ok: false, reason: "invalid" };
  const expire = Number(expireText);
  if (!signedByUs(`cart-reminder:${orderId}:${expire}`, params.get("cle") ?? "")) return { ok: false, reason: "invalid" };
  if (expire * 1000 <= now.getTime()) return { ok: false, reason: "expired" };
  return { ok: true, orderId };
}

/** The path of the one-click unsubscribe link of an order's reminder. */
export function unsubscribePath(orderId: number): string {
  const [secret] = getConfig().sessionSecrets;
  return `/rappels/desinscription?commande=${orderId}&cle=${sign(`reminder-unsubscribe:${orderId}`, secret)}`;
}

/** The order an unsubscribe link names, or null when it is not one of ours. */
export function checkUnsubscribeLink(params: URLSearchParams): number | null {
  const orderId = orderIdOf(params);
  if (orderId === null) return null;
  return signedByUs(`reminder-unsubscribe:${orderId}`, params.get("cle") ?? "") ? orderId : null;
}
