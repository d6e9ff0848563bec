import { PAYMENT_MESSAGES } from "~/lib/payment-messages";
import { ShopError } from "~/lib/shop-error";

/**
 * One payment start per order at a time, in this process: a second start for the same
 * order while the first talks to Stripe is refused with 409 `resource_already_exists`.
 */
const busyOrders = new Set<number>();

export async function withOrderLock<T>(orderId: number, run: () => Promise<T>): Promise<T> {
  if (busyOrders.has(orderId)) {
    throw new ShopError(409, "resource_already_exists", PAYMENT_MESSAGES.concurrentAttempt.description);
  }
  busyOrders.add(orderId);
  try {
    return await run();
  } finally {
    busyOrders.delete(orderId);
  }
}
