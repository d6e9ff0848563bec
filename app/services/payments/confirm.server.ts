import { paymentReceived } from "~/lib/order-status";
import { retrieveOrNull } from "~/services/stripe-errors.server";
import { getStripe } from "~/services/stripe.server";
import { markOrderPaid } from "./payment-state.server";
import { findOrder } from "~/services/orders/find.server";
import { invoicePaysOrder, paymentIntentPaysOrder } from "./stripe-match.server";
import { refundTrialDuplicates } from "./refunds.server";

/**
 * Asks Stripe (emulator or real) whether the order's PaymentIntent or subscription invoice
 * was paid, and marks the order paid if so. Idempotent; never trusts the browser.
 */
export async function confirmOrderPayment(orderId: number): Promise<{ paid: boolean }> {
  const result = await confirmAtStripe(orderId);
  // A second trial pack of one email, paid just now: its automatic refund is asked for.
  if (result.paid) await refundTrialDuplicates();
  return result;
}

async function confirmAtStripe(orderId: number): Promise<{ paid: boolean }> {
  const order = await findOrder(orderId);
  if (!order) return { paid: false };
  if (paymentReceived(order.paymentStatus)) return { paid: true };
  if (!order.stripeSubscriptionId && !order.stripePaymentIntentId) return { paid: false };
  const stripe = await getStripe();

  if (order.stripeSubscriptionId) {
    const sub = await retrieveOrNull(() =>
      stripe.subscriptions.retrieve(order.stripeSubscriptionId!, { expand: ["latest_invoice"] }),
    );
    const invoice = sub?.latest_invoice;
    if (sub && invoice && typeof invoice === "object" && invoicePaysOrder(invoice, order, sub.id)) {
      await markOrderPaid(orderId, { subscriptionId: sub.id });
      return { paid: true };
    }
  }
  if (order.stripePaymentIntentId) {
    const pi = await retrieveOrNull(() => stripe.paymentIntents.retrieve(order.stripePaymentIntentId!));
    if (pi && paymentIntentPaysOrder(pi, order)) {
      await markOrderPaid(orderId, { paymentIntentId: pi.id });
      return { paid: true };
    }
  }
  // The webhook may have been faster.
  const after = await findOrder(orderId);
  return { paid: after ? paymentReceived(after.paymentStatus) : false };
}
