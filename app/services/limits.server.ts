import { ShopError } from "~/lib/shop-error";
import { createBackoff, createRateLimiter, formatWait, type RateLimiter } from "./rate-limit.server";
import { countRateLimitRefusal } from "~/services/observability/metrics.server";

/**
 * Every rate limit of the shop, its numbers in one place. Counters live in the database
 * (rate-limit.server.ts), keyed by client address (http/client-address.server.ts) or by
 * username. A refusal is a ShopError 429 with a French message and its Retry-After.
 *
 * The numbers leave a real shopper well below every limit, shoppers sharing one address behind
 * a carrier's NAT included. The e2e suite acts as distinct shoppers: each test sends its own
 * X-Forwarded-For (tests/e2e/shopper.ts).
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
  /**
   * Carts created per address (a first product added by a browser without a cart, page and API
   * together): a browser makes one cart and keeps it 30 days, so this counts shoppers, not
   * clicks. A carrier's NAT puts many real shoppers behind one IPv4 address, and a promotion
   * brings them in a burst: the hour's allowance may be used in minutes. A flood from one
   * address is held to 300 rows an hour; a browser that has its cart is never refused.
   */
  newCartsPerAddress: { windowMs: 60 * MINUTE, max: 300 },
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
const newCarts = createRateLimiter({ name: "new-cart", ...LIMITS.newCartsPerAddress });

/**
 * The limits that refuse requests, by their keys' prefix (the limiter's name), with the number
 * of hits that uses up a window: the health page (services/health) counts the keys that reached
 * theirs. The sign-in delay and the attack alert refuse nothing and are not listed.
 */
export const REFUSING_LIMITS: Record<string, number> = {
  "login-address": LIMITS.loginFailuresPerAddress.max,
  "cancel-address": LIMITS.cancelFailuresPerAddress.max,
  "withdrawal-address": LIMITS.withdrawalFailuresPerAddress.max,
  "order-lookup": LIMITS.orderLookupMissesPerAddress.max,
  "subscription-link-address": LIMITS.subscriptionLinkRequestsPerAddress.max,
  "subscription-link-email": LIMITS.subscriptionLinkRequestsPerEmail.max,
  "new-cart": LIMITS.newCartsPerAddress.max,
  "contact-form": LIMITS.contactMessagesPerAddress.max,
  "contact-api": LIMITS.contactApiPerAddress.max,
  "api-order": LIMITS.apiOrdersPerAddress.max,
  "delivery-form": LIMITS.deliveryFormsPerAddress.max,
};

/** Said to a shopper refused a new cart: they may share their address with many others. */
export const NEW_CART_REFUSAL = "Trop de paniers ont été créés depuis votre réseau en peu de temps.";

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
  if (retryAfterSeconds > 0) {
    countRateLimitRefusal(limiter.name);
    throw tooManyRequests(message, retryAfterSeconds);
  }
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
 * Creates a cart for a client address: its place in the address's allowance is reserved before
 * the write (concurrent creations never pass the limit) and given back when the write fails
 * (a product out of stock, an unknown pack), so only the carts really created count. Past the
 * allowance, a 429 and nothing is written.
 */
export async function throttleNewCart<T>(address: string, create: () => Promise<T>): Promise<T> {
  const reservation = await newCarts.reserve(address);
  if (!reservation.ok) throw tooManyRequests(NEW_CART_REFUSAL, reservation.retryAfterSeconds);
  try {
    return await create();
  } catch (error) {
    await reservation.refund();
    throw error;
  }
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
    newCarts,
  ])
    await limiter.clear();
  for (const { limiter } of Object.values(publicWrites)) await limiter.clear();
}
