import type { z } from "zod";
import {
  apiErrorSchema,
  attachPaymentMethodResponseSchema,
  paymentConfirmResponseSchema,
  paymentStartResponseSchema,
  subscriptionStartResponseSchema,
} from "~/schemas/api-responses";

/**
 * The payment step's calls to the shop's JSON API (spec section 7: credentials and a JSON
 * body). Every answer is read with the response schemas of the OpenAPI document:
 * - a 2xx answer that matches its schema is { ok: true, data };
 * - an error answer is { ok: false, error } with the API's error body (its French message
 *   and, for some payment errors, a code), or error: null when the body is not one;
 * - a 2xx answer that does not match its schema is { ok: false, error: null } too, so the
 *   caller takes its generic error path.
 * A network failure (fetch rejects) is thrown.
 */

export type ApiErrorBody = z.infer<typeof apiErrorSchema>;

export type ApiResult<T> = { ok: true; status: number; data: T } | { ok: false; status: number; error: ApiErrorBody | null };

async function postJson<S extends z.ZodType>(url: string, body: unknown, schema: S): Promise<ApiResult<z.output<S>>> {
  const response = await fetch(url, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(body),
  });
  let json: unknown = null;
  try {
    json = await response.json();
  } catch {
    // a non-JSON answer: the status only
  }
  if (response.ok) {
    const parsed = schema.safeParse(json);
    if (parsed.success) return { ok: true, status: response.status, data: parsed.data };
    console.warn("Réponse inattendue de", url, response.status);
    return { ok: false, status: response.status, error: null };
  }
  const error = apiErrorSchema.safeParse(json);
  return { ok: false, status: response.status, error: error.success ? error.data : null };
}

/** POST /api/payments/start (one-off): the card payment's client secret, or paid: true. */
export function startOneOffPayment(orderId: number) {
  return postJson("/api/payments/start", { orderId, mode: "one_off" }, paymentStartResponseSchema);
}

/** POST /api/create-subscription: the subscription and its first invoice's client secret. */
export function createSubscription(input: { orderId: number; customerEmail: string; customerName: string }) {
  const { orderId, customerEmail, customerName } = input;
  return postJson("/api/create-subscription", { orderId, customerEmail, customerName }, subscriptionStartResponseSchema);
}

/** POST /api/attach-payment-method: the card pays the subscription's next invoices. */
export function attachPaymentMethod(input: {
  orderId: number;
  subscriptionId: string;
  paymentMethodId: string;
  customerEmail: string;
}) {
  const { orderId, subscriptionId, paymentMethodId, customerEmail } = input;
  return postJson(
    "/api/attach-payment-method",
    { orderId, subscriptionId, paymentMethodId, customerEmail },
    attachPaymentMethodResponseSchema,
  );
}

/** POST /api/payments/confirm: the server asks Stripe and answers whether the order is paid. */
export function confirmPayment(orderId: number) {
  return postJson("/api/payments/confirm", { orderId }, paymentConfirmResponseSchema);
}
