// @ts-check
import { createHmac } from "node:crypto";

/**
 * The `Stripe-Signature` header Stripe sends with a webhook:
 * `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<payload>" keyed with the endpoint secret>`.
 * The official SDK's `webhooks.constructEvent` verifies exactly this.
 * @param {string} payload the raw JSON body, byte for byte
 * @param {string} secret the webhook endpoint secret
 * @param {number} [timestamp] unix seconds (defaults to now)
 */
export function signWebhookPayload(payload, secret, timestamp = Math.floor(Date.now() / 1000)) {
  const signature = createHmac("sha256", secret).update(`${timestamp}.${payload}`, "utf8").digest("hex");
  return `t=${timestamp},v1=${signature}`;
}
