import { randomBytes } from "node:crypto";
import { PAYMENT_MESSAGES } from "~/lib/payment-messages";
import { ShopError } from "~/lib/shop-error";
import { acquireLease, PROCESS_HOLDER, releaseLease } from "~/services/leases.server";

/**
 * One payment start per order at a time, across every server process on the database: the
 * start holds the lease `payment-start:<order id>` (leases.server.ts) while it talks to Stripe.
 * A second start for the same order meanwhile, in this process or another, is refused with
 * 409 `resource_already_exists`. The lease is given back when the start ends; if its process
 * dies before, it expires after ORDER_LOCK_MS and the next start takes it over.
 */

/** Longer than a start can last (Stripe's timeout and retries), short enough after a crash. */
export const ORDER_LOCK_MS = 2 * 60_000;

export function orderLockName(orderId: number) {
  return `payment-start:${orderId}`;
}

export async function withOrderLock<T>(orderId: number, run: () => Promise<T>): Promise<T> {
  const name = orderLockName(orderId);
  // Each start is its own holder: two starts in one process exclude each other too.
  const holder = `${PROCESS_HOLDER}:${randomBytes(4).toString("hex")}`;
  if (!(await acquireLease(name, ORDER_LOCK_MS, holder))) {
    throw new ShopError(409, "resource_already_exists", PAYMENT_MESSAGES.concurrentAttempt.description);
  }
  try {
    return await run();
  } finally {
    await releaseLease(name, holder);
  }
}
