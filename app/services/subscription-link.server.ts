import { createHmac, timingSafeEqual } from "node:crypto";
import { getConfig } from "~/config.server";
import { SUBSCRIPTION_LINK_DAYS } from "~/lib/link-lifetimes";

/**
 * The management link of a subscription's private page, carried by every subscription email:
 * `/mon-abonnement?id=N&expire=UNIX&cle=KEY`, where the key is the HMAC-SHA256 of
 * `subscription-page:<id>:<expire>` with the session secret, base64url. No account is needed:
 * the link is the proof, and it can change the delivery address or cancel. So it lives days,
 * not months (SUBSCRIPTION_LINK_DAYS after the email); an expired link's page sends a fresh one
 * by email on request (subscriptions/manage-link.server.ts). Stored nowhere, verified against
 * every session secret, so a secret rotation (SESSION_SECRET=new,old) keeps the links already
 * sent working until they expire. No other link (an order's view link, an invoice's pay link)
 * ever leads to this page.
 */

export const SUBSCRIPTION_LINK_KEY_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export { SUBSCRIPTION_LINK_DAYS };

const DAY_MS = 86_400_000;

export type SubscriptionLink = { id: number; expiresAt: number; key: string };

function sign(subscriptionId: number, expiresAt: number, secret: string): Buffer {
  return createHmac("sha256", secret).update(`subscription-page:${subscriptionId}:${expiresAt}`, "utf8").digest();
}

/** A link to the subscription's page that works until `now + SUBSCRIPTION_LINK_DAYS` (expiry in Unix seconds). */
export function subscriptionLink(subscriptionId: number, now: Date = new Date()): SubscriptionLink {
  const expiresAt = Math.floor((now.getTime() + SUBSCRIPTION_LINK_DAYS * DAY_MS) / 1000);
  const [secret] = getConfig().sessionSecrets;
  return { id: subscriptionId, expiresAt, key: sign(subscriptionId, expiresAt, secret).toString("base64url") };
}

/** The query string of the link (`id=…&expire=…&cle=…`). */
export function subscriptionLinkQuery(link: SubscriptionLink): string {
  return `id=${link.id}&expire=${link.expiresAt}&cle=${link.key}`;
}

/** The subscription's private page with a fresh link (a path of this site). */
export function subscriptionPagePath(subscriptionId: number, now: Date = new Date()): string {
  return `/mon-abonnement?${subscriptionLinkQuery(subscriptionLink(subscriptionId, now))}`;
}

/** The absolute URL of the subscription's private page, as the emails carry it. */
export function subscriptionPageUrl(subscriptionId: number, now: Date = new Date()): string {
  return `${getConfig().publicUrl}/mon-abonnement?${subscriptionLinkQuery(subscriptionLink(subscriptionId, now))}`;
}

export type LinkCheck = { ok: true; id: number; expiresAt: number } | { ok: false; reason: "invalid" | "expired" };

/**
 * Reads and checks a link's query (`id`, `expire`, `cle`): `invalid` when anything is missing,
 * malformed or not signed by us; `expired` when it was ours but is out of date.
 */
export function checkSubscriptionLink(params: URLSearchParams, now: Date = new Date()): LinkCheck {
  const idText = params.get("id") ?? "";
  const expireText = params.get("expire") ?? "";
  const key = params.get("cle") ?? "";
  if (!/^[1-9]\d{0,15}$/.test(idText) || !/^[1-9]\d{0,11}$/.test(expireText) || !SUBSCRIPTION_LINK_KEY_PATTERN.test(key)) {
    return { ok: false, reason: "invalid" };
  }
  const id = Number(idText);
  const expiresAt = Number(expireText);
  if (!Number.isSafeInteger(id)) return { ok: false, reason: "invalid" };
  // Compared as text: two spellings of the same bytes (the last character's unused bits) are not both accepted.
  const given = Buffer.from(key, "ascii");
  const signed = getConfig().sessionSecrets.some((secret) => {
    const expected = Buffer.from(sign(id, expiresAt, secret).toString("base64url"), "ascii");
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!signed) return { ok: false, reason: "invalid" };
  if (expiresAt * 1000 <= now.getTime()) return { ok: false, reason: "expired" };
  return { ok: true, id, expiresAt };
}
