import { randomUUID } from "node:crypto";
import type Stripe from "stripe";
import { getConfig } from "~/config.server";
import { getDb, type DbOrTx } from "~/db/client.server";
import { parseIdOrNull } from "~/lib/ids";
import { CURRENCY } from "~/lib/money";
import { paymentReceived } from "~/lib/order-status";
import { PAYMENT_MESSAGES } from "~/lib/payment-messages";
import { SUBSCRIPTION_TRIAL_DAYS } from "~/lib/renewals";
import { ShopError } from "~/lib/shop-error";
import type { HostedCheckoutForm } from "~/schemas/payments";
import { findOrder } from "~/services/orders/find.server";
import { retrieveOrNull } from "~/services/stripe-errors.server";
import { getStripe } from "~/services/stripe.server";
import { assertOrderPromotion } from "~/services/promotions/rules.server";
import { subscriptionCoupon } from "~/services/promotions/stripe-coupon.server";
import { REUSABLE_PI_STATUSES } from "./one-off.server";
import { withOrderLock } from "./order-lock.server";
import {
  assertCustomerEmail,
  assertOwner,
  assertPackRules,
  assertPayable,
  clearSubscription,
  loadOrder,
  markOrderPaid,
  markOrderPaidIn,
  type OrderWithItems,
  type PaymentAccess,
} from "./payment-state.server";
import { refundTrialDuplicates } from "./refunds.server";
import { invoicePaysOrder, paymentIntentPaysOrder } from "./stripe-match.server";
import { ensureStripeCustomer, ensureStripeProduct, SUBSCRIPTION_INTERVAL } from "./subscription.server";

/**
 * Paying without JavaScript: a Stripe Checkout Session for the order (mode `payment`, or
 * `subscription` with the same terms as the card form: the order total today, then the same
 * amount every 4 weeks from day 30), and the shopper sent to its hosted page (Stripe's, or the
 * emulator's in demo mode). The order becomes paid as with the card form: only when Stripe says
 * so, by `checkout.session.completed` (or the PaymentIntent / first invoice it carries), or when
 * the confirmation page asks Stripe about the session it came back with.
 */

export type HostedCheckoutStart = { paid: true; orderId: number } | { paid: false; orderId: number; url: string };

const CHECKOUT_URL_MISSING = "La page de paiement n'a pas pu être préparée. Veuillez réessayer.";

/** Where Stripe sends the shopper back: the confirmation page (paid) or the payment step (« Annuler »). */
function returnUrls(orderId: number) {
  const base = getConfig().publicUrl;
  return {
    // Stripe replaces {CHECKOUT_SESSION_ID} itself: the braces stay as they are.
    success_url: `${base}/order-confirmation/${orderId}?session_id={CHECKOUT_SESSION_ID}`,
    cancel_url: `${base}/panier?etape=paiement`,
  };
}

/**
 * Before a new attempt: an earlier attempt that was paid makes the order paid; one that can still
 * be paid (a PaymentIntent of the card form, an incomplete subscription) is dropped, so that the
 * order is never paid twice.
 */
async function settleEarlierAttempts(stripe: Stripe, order: OrderWithItems): Promise<boolean> {
  if (order.stripeSubscriptionId) {
    const sub = await retrieveOrNull(() =>
      stripe.subscriptions.retrieve(order.stripeSubscriptionId!, { expand: ["latest_invoice"] }),
    );
    const invoice = sub?.latest_invoice;
    if (sub && invoice && typeof invoice === "object" && invoicePaysOrder(invoice, order, sub.id)) {
      await markOrderPaid(order.id, { subscriptionId: sub.id });
      return true;
    }
    if (sub?.status === "incomplete") await stripe.subscriptions.cancel(sub.id).catch(() => undefined);
    if (!sub || ["incomplete", "incomplete_expired", "canceled"].includes(sub.status)) await clearSubscription(order.id);
  }
  if (order.stripePaymentIntentId) {
    const pi = await retrieveOrNull(() => stripe.paymentIntents.retrieve(order.stripePaymentIntentId!));
    if (pi && paymentIntentPaysOrder(pi, order)) {
      await markOrderPaid(order.id, { paymentIntentId: pi.id });
      return true;
    }
    if (pi?.status === "processing") {
      throw new ShopError(
        409,
        "payment_processing",
        "Le paiement de cette commande est en cours de traitement. Veuillez patienter.",
      );
    }
    if (pi && REUSABLE_PI_STATUSES.includes(pi.status)) await stripe.paymentIntents.cancel(pi.id).catch(() => undefined);
  }
  return false;
}

function sessionParams(order: OrderWithItems): Stripe.Checkout.SessionCreateParams {
  return {
    ...returnUrls(order.id),
    client_reference_id: String(order.id),
    metadata: { orderId: String(order.id) },
    locale: "fr",
  };
}

/**
 * The Checkout Session of the order, for the visitor whose cart created it (or its token).
 * The subscription needs the shopper's consent, as on the card form.
 */
export async function startHostedCheckout(input: HostedCheckoutForm, access: PaymentAccess): Promise<HostedCheckoutStart> {
  const order = await loadOrder(input.orderId);
  assertOwner(order, access);
  if (paymentReceived(order.paymentStatus)) return { paid: true, orderId: order.id };
  await assertPayable(order);
  assertCustomerEmail(order);
  await assertPackRules(order, input.mode);
  await assertOrderPromotion(getDb(), order, input.mode);
  if (input.mode === "subscription" && !input.consent) {
    throw new ShopError(422, "consent_required", PAYMENT_MESSAGES.consentRequired, { field: "consent" });
  }

  return withOrderLock<HostedCheckoutStart>(order.id, async () => {
    const stripe = await getStripe();
    if (await settleEarlierAttempts(stripe, order)) return { paid: true, orderId: order.id };
    // A new session for each attempt, as Stripe recommends (a retried request gets the same one).
    const options = { idempotencyKey: `order-${order.id}-checkout-${randomUUID()}` };
    let session: Stripe.Checkout.Session;
    if (input.mode === "subscription") {
      const customer = await ensureStripeCustomer(stripe, order, {});
      const product = await ensureStripeProduct(stripe, order);
      // The price before the promotion; its discount is a coupon (services/promotions/stripe-coupon.server.ts).
      const fullCents = order.totalCents + order.discountCents;
      const coupon = await subscriptionCoupon(stripe, order);
      session = await stripe.checkout.sessions.create(
        {
          ...sessionParams(order),
          mode: "subscription",
          customer,
          line_items: [
            {
              price_data: { currency: CURRENCY, product, unit_amount: fullCents, recurring: { ...SUBSCRIPTION_INTERVAL } },
              quantity: 1,
            },
            // The first charge, today: the order total, on the first invoice.
            { price_data: { currency: CURRENCY, product, unit_amount: fullCents }, quantity: 1 },
          ],
          ...(coupon ? { discounts: [{ coupon }] } : {}),
          subscription_data: {
            // The recurring charges start on day 30.
            trial_period_days: SUBSCRIPTION_TRIAL_DAYS,
            metadata: { orderId: String(order.id) },
            description: `Abonnement, commande n°${order.id}`,
          },
        },
        options,
      );
    } else {
      session = await stripe.checkout.sessions.create(
        {
          ...sessionParams(order),
          mode: "payment",
          customer_email: order.customerEmail ?? undefined,
          line_items: [
            {
              price_data: { currency: CURRENCY, unit_amount: order.totalCents, product_data: { name: `Commande n°${order.id}` } },
              quantity: 1,
            },
          ],
          payment_intent_data: {
            metadata: { orderId: String(order.id) },
            description: `Commande n°${order.id}`,
            ...(order.customerEmail ? { receipt_email: order.customerEmail } : {}),
          },
        },
        options,
      );
    }
    if (!session.url) throw new ShopError(502, "checkout_url_missing", CHECKOUT_URL_MISSING);
    return { paid: false, orderId: order.id, url: session.url };
  });
}

// ---------------------------------------------------------------------------------------------
// A paid session makes its order paid

function idOf(value: string | { id: string } | null | undefined): string | null {
  return typeof value === "string" ? value : (value?.id ?? null);
}

/** The order a completed and paid session pays (amount, currency and order all agree), or null. */
export async function orderPaidBySession(tx: DbOrTx, session: Stripe.Checkout.Session) {
  if (session.status !== "complete" || session.payment_status !== "paid") return null;
  const orderId = parseIdOrNull(session.metadata?.orderId ?? session.client_reference_id);
  const order = orderId === null ? undefined : await findOrder(orderId, tx);
  if (!order || session.currency !== CURRENCY || session.amount_total !== order.totalCents) return null;
  if (session.client_reference_id && session.client_reference_id !== String(order.id)) return null;
  return order;
}

/**
 * `checkout.session.completed` (or the session retrieved from Stripe): the order paid through the
 * one path that marks orders paid (same invoice, same email, once). "order_paid" the first time.
 */
export async function applyCheckoutSessionIn(
  tx: DbOrTx,
  session: Stripe.Checkout.Session,
): Promise<"order_paid" | "already_paid" | "ignored"> {
  const order = await orderPaidBySession(tx, session);
  if (!order) return "ignored";
  const source =
    session.mode === "subscription"
      ? { subscriptionId: idOf(session.subscription) ?? undefined }
      : { paymentIntentId: idOf(session.payment_intent) ?? undefined };
  if (!source.subscriptionId && !source.paymentIntentId) return "ignored";
  return (await markOrderPaidIn(tx, order.id, source)) ? "order_paid" : "already_paid";
}

/** A Checkout Session id, as Stripe writes it in the success_url. */
const CHECKOUT_SESSION_ID = /^cs_(test|live)_[A-Za-z0-9_]{1,200}$/;

/**
 * Back from the hosted page (the success_url): the server asks Stripe about the session, and if
 * it paid this order, the order is marked paid now (the webhook may still be on its way).
 * Returns whether the session paid the order. Never trusts the URL: only Stripe's answer counts.
 */
export async function confirmCheckoutSession(orderId: number, sessionId: string): Promise<boolean> {
  if (!CHECKOUT_SESSION_ID.test(sessionId)) return false;
  const stripe = await getStripe();
  const session = await retrieveOrNull(() => stripe.checkout.sessions.retrieve(sessionId));
  if (!session || session.metadata?.orderId !== String(orderId)) return false;
  const outcome = await getDb().transaction(async (tx) => await applyCheckoutSessionIn(tx, session));
  if (outcome === "order_paid") await refundTrialDuplicates();
  return outcome !== "ignored";
}
