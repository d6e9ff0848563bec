// @ts-check
/**
 * The Stripe events the shop acts on (webhook.server.ts handles each of them), and nothing else.
 * Its webhook endpoint is subscribed to exactly these: in Stripe's dashboard in live mode (README,
 * « Mise en production »), by the emulator in demo mode. Any other event would cost a whole request
 * for nothing. A plain module so that the speed measures, run by node alone, read the same list.
 * @type {readonly import("stripe").Stripe.Event.Type[]}
 */
export const HANDLED_WEBHOOK_EVENTS = Object.freeze([
  "payment_intent.succeeded",
  "checkout.session.completed",
  "payment_intent.payment_failed",
  "invoice.paid",
  "invoice.payment_failed",
  "invoice.payment_action_required",
  "customer.subscription.updated",
  "customer.subscription.deleted",
  "charge.refunded",
  "refund.created",
  "refund.updated",
  "setup_intent.succeeded",
]);
