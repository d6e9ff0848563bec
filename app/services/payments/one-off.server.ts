import { paymentReceived } from "~/lib/order-status";
import type Stripe from "stripe";
import { centsToDecimal } from "~/lib/money";
import { PAYMENT_MESSAGES } from "~/lib/payment-messages";
import { ShopError } from "~/lib/shop-error";
import { retrieveOrNull } from "~/services/stripe-errors.server";
import { getDb } from "~/db/client.server";
import { getStripe } from "~/services/stripe.server";
import { assertOrderPromotion } from "~/services/promotions/rules.server";
import { withOrderLock } from "./order-lock.server";
import {
  assertCustomerEmail,
  assertOwner,
  assertPackRules,
  assertPayable,
  clearSubscription,
  loadOrder,
  markOrderPaid,
  recordPaymentIntent,
  type PaymentAccess,
} from "./payment-state.server";
import { invoicePaysOrder, paymentIntentPaysOrder } from "./stripe-match.server";
import { CURRENCY } from "~/lib/money";

/**
 * One-off card payment: a PaymentIntent for the order total (EUR). The amount always comes
 * from the order in the database; the order becomes paid only through the confirmation
 * (the server asks Stripe) or Stripe's webhook.
 */

export type PaymentStart =
  | { paid: true; orderId: number }
  | {
      paid: false;
      orderId: number;
      clientSecret: string;
      paymentIntentId: string;
      amountCents: number;
      amount: string;
      status: Stripe.PaymentIntent.Status;
    };

/** PaymentIntent statuses in which the shopper can still pay it. */
export const REUSABLE_PI_STATUSES: Stripe.PaymentIntent.Status[] = [
  "requires_payment_method",
  "requires_confirmation",
  "requires_action",
];

const PROCESSING_MESSAGE = "Le paiement de cette commande est en cours de traitement. Veuillez patienter.";

/** A PaymentIntent for the order total (EUR), reused while it can still be paid. */
export async function startOneOffPayment(orderId: number, access: PaymentAccess): Promise<PaymentStart> {
  const order = await loadOrder(orderId);
  assertOwner(order, access);
  if (paymentReceived(order.paymentStatus)) return { paid: true, orderId };
  await assertPayable(order);
  assertCustomerEmail(order);
  await assertPackRules(order, "one_off");
  await assertOrderPromotion(getDb(), order, "one_off");

  return withOrderLock<PaymentStart>(orderId, async () => {
    const stripe = await getStripe();

    // Switching from the subscription to a one-off purchase: drop the unpaid subscription.
    if (order.stripeSubscriptionId) {
      const sub = await retrieveOrNull(() =>
        stripe.subscriptions.retrieve(order.stripeSubscriptionId!, { expand: ["latest_invoice"] }),
      );
      if (
        sub &&
        typeof sub.latest_invoice === "object" &&
        sub.latest_invoice &&
        invoicePaysOrder(sub.latest_invoice, order, sub.id)
      ) {
        await markOrderPaid(orderId, { subscriptionId: sub.id });
        return { paid: true as const, orderId };
      }
      if (sub?.status === "incomplete") await stripe.subscriptions.cancel(sub.id).catch(() => undefined);
      if (!sub || ["incomplete", "incomplete_expired", "canceled"].includes(sub.status)) {
        await clearSubscription(orderId);
      }
    }

    let previous: Stripe.PaymentIntent | null = null;
    if (order.stripePaymentIntentId) {
      previous = await retrieveOrNull(() => stripe.paymentIntents.retrieve(order.stripePaymentIntentId!));
      if (previous) {
        if (previous.status === "succeeded") {
          if (paymentIntentPaysOrder(previous, order)) {
            await markOrderPaid(orderId, { paymentIntentId: previous.id });
            return { paid: true as const, orderId };
          }
        } else if (previous.status === "processing") {
          throw new ShopError(409, "payment_processing", PROCESSING_MESSAGE);
        } else if (
          REUSABLE_PI_STATUSES.includes(previous.status) &&
          previous.amount === order.totalCents &&
          previous.currency === CURRENCY &&
          previous.client_secret
        ) {
          return {
            paid: false as const,
            orderId,
            clientSecret: previous.client_secret,
            paymentIntentId: previous.id,
            amountCents: order.totalCents,
            amount: centsToDecimal(order.totalCents),
            status: previous.status,
          };
        } else if (previous.status !== "canceled") {
          await stripe.paymentIntents.cancel(previous.id).catch(() => undefined);
        }
      }
    }

    const pi = await stripe.paymentIntents.create(
      {
        amount: order.totalCents,
        currency: CURRENCY,
        allowed_payment_method_types: ["card"],
        description: `Commande n°${order.id}`,
        ...(order.customerEmail ? { receipt_email: order.customerEmail } : {}),
        metadata: { orderId: String(order.id) },
      },
      // One key per order and attempt: a retried request never creates a second charge.
      { idempotencyKey: `order-${order.id}-payment-${previous?.id ?? "first"}` },
    );
    if (!pi.client_secret) throw new ShopError(502, "missing_client_secret", PAYMENT_MESSAGES.clientSecretNotReceived);
    await recordPaymentIntent(orderId, pi.id);
    return {
      paid: false as const,
      orderId,
      clientSecret: pi.client_secret,
      paymentIntentId: pi.id,
      amountCents: order.totalCents,
      amount: centsToDecimal(order.totalCents),
      status: pi.status,
    };
  });
}
