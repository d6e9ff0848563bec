import type { ShopError } from "~/lib/shop-error";
import { toShopError } from "~/services/stripe-errors.server";

/**
 * Page actions and service refusals. A page action that calls a service catches its error and
 * asks `actionError` what it was: a ShopError (a Stripe outage included, as a 503) that the
 * page shows (toast, Conform reply or inline message, with the error's status), or null for
 * an unexpected error, which the page rethrows or reports as it does today.
 */
export function actionError(error: unknown): ShopError | null {
  return toShopError(error);
}

/** Conform's reply options for a refusal: the message on its form field, or on the whole form. */
export function refusalReply(refusal: ShopError): { fieldErrors: Record<string, string[]> } | { formErrors: string[] } {
  return refusal.field ? { fieldErrors: { [refusal.field]: [refusal.message] } } : { formErrors: [refusal.message] };
}
