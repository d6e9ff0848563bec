import type { ActionFunctionArgs } from "@remix-run/node";
import type Stripe from "stripe";
import { getConfig } from "~/config.server";
import { apiError, apiJson, handleApi, methodNotAllowed } from "~/http/api.server";
import { refundTrialDuplicates } from "~/services/payments/refunds.server";
import { handleStripeEvent, prepareStripeEvent } from "~/services/payments/webhook.server";
import { getStripeClient } from "~/services/stripe.server";
import { countWebhook } from "~/services/observability/metrics.server";

/**
 * POST /api/stripe/webhook: Stripe's signed events (the emulator's in demo mode).
 * The raw body is verified with the webhook secret; a bad signature is a 400 and changes nothing.
 * Each event is handled once (its id is recorded), so replays are harmless.
 */
const MAX_WEBHOOK_BYTES = 512 * 1024;

export const loader = () => methodNotAllowed(["POST"]);

export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(async () => {
    if (request.method !== "POST") return methodNotAllowed(["POST"]);
    const signature = request.headers.get("Stripe-Signature");
    if (!signature) return apiError(400, "Signature Stripe manquante");
    if (Number(request.headers.get("Content-Length") ?? "0") > MAX_WEBHOOK_BYTES) {
      return apiError(413, "Corps de requête trop volumineux");
    }
    const payload = await request.text();
    if (payload.length > MAX_WEBHOOK_BYTES) return apiError(413, "Corps de requête trop volumineux");

    let event: Stripe.Event;
    try {
      event = getStripeClient().webhooks.constructEvent(payload, signature, getConfig().stripe.webhookSecret);
    } catch {
      countWebhook("inconnu", "invalid_signature");
      return apiError(400, "Signature du webhook invalide");
    }
    const { outcome } = await handleStripeEvent(await prepareStripeEvent(event));
    // A second trial pack of one email, paid just now: its automatic refund is asked for.
    if (outcome === "order_paid") await refundTrialDuplicates();
    return apiJson({ received: true, type: event.type, outcome });
  });
