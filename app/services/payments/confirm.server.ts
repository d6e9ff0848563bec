import type { Order, PaymentStatus } from "~/db/schema";
import { paymentReceived } from "~/lib/order-status";
import { retrieveOrNull } from "~/services/stripe-errors.server";
import { getStripe } from "~/services/stripe.server";
import { markOrderPaid } from "./payment-state.server";
import { findOrder } from "~/services/orders/find.server";
import { invoicePaysOrder, paymentIntentPaysOrder } from "./stripe-match.server";
import { refundTrialDuplicates } from "./refunds.server";

type Confirmation = { paid: boolean; paymentStatus: PaymentStatus | null };

/**
 * Asks Stripe (emulator or real) whether the order's PaymentIntent or subscription invoice
 * was paid, and marks the order paid if so. Idempotent; never trusts the browser.
 */
export async function confirmOrderPayment(orderId: number): Promise<{ paid: boolean }> {
  const { paid } = await confirmOrderPaymentState(await findOrder(orderId));
  return { paid };
}

/**
 * confirmOrderPayment for an order the caller has just read (POST /api/payments/confirm): it
 * is not read again, and the answer has its payment status now (null: no such order).
 */
export async function confirmOrderPaymentState(order: Order | undefined): Promise<Confirmation> {
  const result = await confirmAtStripe(order);
  // A second trial pack of one email, paid just now: its automatic refund is asked for.
  if (result.paid) await refundTrialDuplicates();
  return result;
}

async function confirmAtStripe(order: Order | undefined): Promise<Confirmation> {
  if (!order) return { paid: false, paymentStatus: null };
  const orderId = order.id;
  if (paymentReceived(order.paymentStatus)) return { paid: true, paymentStatus: order.paymentStatus };
  if (!order.stripeSubscriptionId && !order.stripePaymentIntentId) return { paid: false, paymentStatus: order.paymentStatus };
  const stripe = await getStripe();

  if (order.stripeSubscriptionId) {
    const sub = await retrieveOrNull(() =>
      stripe.subscriptions.retrieve(order.stripeSubscriptionId!, { expand: ["latest_invoice"] }),
    );
    const invoice = sub?.latest_invoice;
    if (sub && invoice && typeof invoice === "object" && invoicePaysOrder(invoice, order, sub.id)) {
      if (await markOrderPaid(orderId, { subscriptionId: sub.id })) return { paid: true, paymentStatus: "paid" };
      return await stateNow(orderId);
    }
  }
  if (order.stripePaymentIntentId) {
    const pi = await retrieveOrNull(() => stripe.paymentIntents.retrieve(order.stripePaymentIntentId!));
    if (pi && paymentIntentPaysOrder(pi, order)) {
      if (await markOrderPaid(orderId, { paymentIntentId: pi.id })) return { paid: true, paymentStatus: "paid" };
      return await stateNow(orderId);
    }
  }
  // The webhook may have been faster.
  return await stateNow(orderId);
}

/** The order's payment as the database has it now (the webhook may have been faster). */
async function stateNow(orderId: number): Promise<Confirmation> {
  const after = await findOrder(orderId);
  return after
    ? { paid: paymentReceived(after.paymentStatus), paymentStatus: after.paymentStatus }
    : { paid: false, paymentStatus: null };
}
