import { PAYMENT_MESSAGES } from "~/lib/payment-messages";
import { busyRefusal, isDatabaseBusy } from "~/db/busy.server";
import { isShopError, ShopError } from "~/lib/shop-error";

/**
 * Errors of the Stripe SDK (real Stripe or the emulator): the one guard, the one
 * "does not exist" test, and the one translation into a ShopError for the answers.
 */

const PROVIDER_DOWN_MESSAGE = "Le service de paiement est momentanément indisponible. Veuillez réessayer dans un instant.";

/** What the app reads on an error thrown by the Stripe SDK. */
export type StripeLikeError = { type: string; code?: string; statusCode?: number; message: string };

export function isStripeError(error: unknown): error is StripeLikeError {
  return (
    typeof error === "object" &&
    error !== null &&
    typeof (error as { type?: unknown }).type === "string" &&
    String((error as { type: string }).type).startsWith("Stripe")
  );
}

/** Stripe says the object does not exist (e.g. the emulator restarted, or it was deleted). */
function isStripeMissing(error: unknown): boolean {
  return isStripeError(error) && (error.code === "resource_missing" || error.statusCode === 404);
}

/** A retrieve that answers null when Stripe says the object does not exist. */
export async function retrieveOrNull<T>(run: () => Promise<T>): Promise<T | null> {
  try {
    return await run();
  } catch (error) {
    if (isStripeMissing(error)) return null;
    throw error;
  }
}

/**
 * The refusal a person or an API client can act on behind a failed call: a ShopError as
 * it is, a saturated database (db/busy.server.ts) or a Stripe outage as a 503 ShopError, a
 * Stripe idempotency clash as a 409; null for anything else (an unexpected error).
 */
export function toShopError(error: unknown): ShopError | null {
  if (isShopError(error)) return error;
  if (isDatabaseBusy(error)) return busyRefusal();
  if (!isStripeError(error)) return null;
  if (error.type === "StripeIdempotencyError") {
    return new ShopError(409, "resource_already_exists", PAYMENT_MESSAGES.concurrentAttempt.description);
  }
  if (error.type === "StripeConnectionError" || error.type === "StripeAPIError" || error.type === "StripeRateLimitError") {
    return new ShopError(503, "provider_unavailable", PROVIDER_DOWN_MESSAGE);
  }
  return null;
}
