import { ShopError } from "~/lib/shop-error";
import { createBackoff, createRateLimiter, formatWait, type RateLimiter } from "./rate-limit.server";

/**
 * Every rate limit of the shop, its numbers in one place. Counters live in the database
 * (rate-limit.server.ts), keyed by client address (http/client-address.server.ts) or by
 * username. A refusal is a ShopError 429 with a French message and its Retry-After.
 *
 * The numbers leave a real shopper, and the e2e suite (a few hundred requests per run, all
 * from 127.0.0.1, about 10 API orders, 15 delivery forms and 8 contact messages), well
 * below every limit.
 */

const MINUTE = 60_000;

export const LIMITS = {
  /** Failed sign-ins per address: the 11th attempt in 15 minutes is refused (each attempt is counted before its password is checked). */
  loginFailuresPerAddress: { windowMs: 15 * MINUTE, max: 10 },
  /**
   * Failed sign-ins per username and address: the first 3 in 15 minutes cost nothing; after
   * the n-th (n ≥ 3), the next attempt for that username from that address waits 2^(n-2)
   * seconds after it (2, 4, 8, 16, 32, then 60 s at most). Other addresses are not slowed
   * down: failures from elsewhere never keep the administrator out.
   */
  loginDelayPerUsernameAndAddress: { windowMs: 15 * MINUTE, free: 3, baseSeconds: 2, maxSeconds: 60 },
  /** Failed sign-ins per username, from any addresses: from the 10th in 15 minutes, the shop is emailed (once an hour at most). Never a refusal. */
  loginAttackAlertPerUsername: { windowMs: 15 * MINUTE, max: 10 },
  /** Failed subscription cancellations per address (wrong order number or email), 15 minutes. */
  cancelFailuresPerAddress: { windowMs: 15 * MINUTE, max: 10 },
  /** Online withdrawals that matched no paid order (wrong number or email) per address, 15 minutes. */
  withdrawalFailuresPerAddress: { windowMs: 15 * MINUTE, max: 10 },
  /** Unknown order numbers looked up per address (API, tracking, confirmation pages together), 10 minutes. */
  orderLookupMissesPerAddress: { windowMs: 10 * MINUTE, max: 20 },
  /** Public writes per address, each form or endpoint counted on its own, per 10 minutes. */
  contactMessagesPerAddress: { windowMs: 10 * MINUTE, max: 10 },
  contactApiPerAddress: { windowMs: 10 * MINUTE, max: 10 },
  apiOrdersPerAddress: { windowMs: 10 * MINUTE, max: 20 },
  /** Every accepted delivery form counts, corrections of the same order included. */
  deliveryFormsPerAddress: { windowMs: 10 * MINUTE, max: 30 },
  /** Requests for a fresh subscription management link by email, per client address, one hour (every request counts, matched or not). */
  subscriptionLinkRequestsPerAddress: { windowMs: 60 * MINUTE, max: 10 },
  /** The same, per email address asked for (kept as a hash), one hour: a mailbox is never flooded. */
  subscriptionLinkRequestsPerEmail: { windowMs: 60 * MINUTE, max: 3 },
} as const;

export const loginFailuresByAddress = createRateLimiter({ name: "login-address", ...LIMITS.loginFailuresPerAddress });
export const loginDelayByUsernameAndAddress = createBackoff({
  name: "login-username-address",
  ...LIMITS.loginDelayPerUsernameAndAddress,
});
export const loginFailuresByUsername = createRateLimiter({ name: "login-username", ...LIMITS.loginAttackAlertPerUsername });
export const cancelFailuresByAddress = createRateLimiter({ name: "cancel-address", ...LIMITS.cancelFailuresPerAddress });
export const withdrawalFailuresByAddress = createRateLimiter({
  name: "withdrawal-address",
  ...LIMITS.withdrawalFailuresPerAddress,
});
const orderLookupMisses = createRateLimiter({ name: "order-lookup", ...LIMITS.orderLookupMissesPerAddress });
const subscriptionLinkRequestsByAddress = createRateLimiter({
  name: "subscription-link-address",
  ...LIMITS.subscriptionLinkRequestsPerAddress,
});
const subscriptionLinkRequestsByEmail = createRateLimiter({
  name: "subscription-link-email",
  ...LIMITS.subscriptionLinkRequestsPerEmail,
});

const publicWrites = {
  "contact-form": {
    limiter: createRateLimiter({ name: "contact-form", ...LIMITS.contactMessagesPerAddress }),
    message: "Vous avez envoyé beaucoup de messages en peu de temps.",
  },
  "contact-api": {
    limiter: createRateLimiter({ name: "contact-api", ...LIMITS.contactApiPerAddress }),
    message: "Trop de demandes de contact envoyées en peu de temps.",
  },
  "api-order": {
    limiter: createRateLimiter({ name: "api-order", ...LIMITS.apiOrdersPerAddress }),
    message: "Trop de commandes créées en peu de temps.",
  },
  "delivery-form": {
    limiter: createRateLimiter({ name: "delivery-form", ...LIMITS.deliveryFormsPerAddress }),
    message: "Trop de commandes enregistrées en peu de temps.",
  },
} satisfies Record<string, { limiter: RateLimiter; message: string }>;

export type PublicWrite = keyof typeof publicWrites;

/** A 429 saying when to try again. */
export function tooManyRequests(message: string, retryAfterSeconds: number): ShopError {
  return new ShopError(429, "too_many_requests", `${message} Réessayez dans ${formatWait(retryAfterSeconds)}.`, {
    retryAfterSeconds,
  });
}

/** Throws the 429 when the key is limited. */
export async function assertNotLimited(limiter: RateLimiter, key: string, message: string) {
  const retryAfterSeconds = await limiter.retryAfterSeconds(key);
  if (retryAfterSeconds > 0) throw tooManyRequests(message, retryAfterSeconds);
}

/**
 * Runs a public write (a contact message, an order) for a client address: refused with a 429
 * once the address has used its allowance; counted when it succeeds (a refused or invalid
 * request costs nothing).
 */
export async function throttlePublicWrite<T>(kind: PublicWrite, address: string, write: () => Promise<T> | T): Promise<T> {
  const { limiter, message } = publicWrites[kind];
  await assertNotLimited(limiter, address, message);
  const result = await write();
  await limiter.hit(address);
  return result;
}

/**
 * Looks an order up by its number for an anonymous client: numbers that name no order are
 * counted per address, and an address that has tried too many gets a 429 whatever it asks
 * (so the answer says nothing about the number). Orders found are not counted.
 */
export async function lookupOrderByNumber<T>(
  address: string,
  find: () => Promise<T | null | undefined> | T | null | undefined,
): Promise<T | null> {
  await assertNotLimited(orderLookupMisses, address, "Trop de numéros de commande introuvables ont été essayés.");
  const found = (await find()) ?? null;
  if (found === null) await orderLookupMisses.hit(address);
  return found;
}

/**
 * Counts a request for a fresh subscription management link, per client address and per
 * email address (`emailKey`: a hash, never the address itself), before anything is looked up:
 * refused with a 429 past either limit, whether or not the address has a subscription, so the
 * answer says nothing about it.
 */
export async function throttleSubscriptionLinkRequest(address: string, emailKey: string): Promise<void> {
  const message = "Vous avez demandé beaucoup de liens en peu de temps.";
  const byAddress = await subscriptionLinkRequestsByAddress.reserve(address);
  if (!byAddress.ok) throw tooManyRequests(message, byAddress.retryAfterSeconds);
  const byEmail = await subscriptionLinkRequestsByEmail.reserve(emailKey);
  if (!byEmail.ok) throw tooManyRequests(message, byEmail.retryAfterSeconds);
}

/** Forgets every counter (tests). */
export async function resetAllRateLimits() {
  for (const limiter of [
    loginFailuresByAddress,
    loginDelayByUsernameAndAddress,
    loginFailuresByUsername,
    cancelFailuresByAddress,
    withdrawalFailuresByAddress,
    orderLookupMisses,
    subscriptionLinkRequestsByAddress,
    subscriptionLinkRequestsByEmail,
  ])
    await limiter.clear();
  for (const { limiter } of Object.values(publicWrites)) await limiter.clear();
}
