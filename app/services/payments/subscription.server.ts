import { paymentReceived } from "~/lib/order-status";
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type Stripe from "stripe";
import { getConfig } from "~/config.server";
import { getDb } from "~/db/client.server";
import { products, type Order } from "~/db/schema";
import { centsToDecimal } from "~/lib/money";
import { PAYMENT_MESSAGES } from "~/lib/payment-messages";
import { ShopError } from "~/lib/shop-error";
import type { AttachPaymentMethodBody } from "~/schemas/payments";
import { isStripeError, retrieveOrNull } from "~/services/stripe-errors.server";
import { getStripe } from "~/services/stripe.server";
import { assertOrderPromotion } from "~/services/promotions/rules.server";
import { subscriptionCoupon } from "~/services/promotions/stripe-coupon.server";
import { REUSABLE_PI_STATUSES } from "./one-off.server";
import { holdsOrder } from "~/services/orders/access.server";
import { withOrderLock } from "./order-lock.server";
import {
  alreadyPaidError,
  assertCustomerEmail,
  assertOwner,
  assertPackRules,
  assertPayable,
  loadOrder,
  markOrderPaid,
  recordStripeCustomer,
  recordSubscription,
  type OrderWithItems,
  type PaymentAccess,
} from "./payment-state.server";
import { findOrderBySubscription } from "~/services/orders/find.server";
import { invoicePaysOrder, paymentIntentPaysOrder } from "./stripe-match.server";
import { CURRENCY } from "~/lib/money";
import { SUBSCRIPTION_TRIAL_DAYS } from "~/lib/renewals";

/**
 * The subscription: the order total now (on the first invoice), then the same amount every
 * 4 weeks from day 30. Provisions the Stripe customer and product it needs, and makes the
 * card of the first charge the default one for the renewals.
 */

export const SUBSCRIPTION_INTERVAL = { interval: "week", interval_count: 4 } as const;

export type SubscriptionStart = {
  orderId: number;
  clientSecret: string;
  subscriptionId: string;
  /** The first charge (the order total), as a decimal string. */
  setupFee: string;
  /** The recurring amount every 4 weeks, as a decimal string. */
  recurringAmount: string;
  status: Stripe.Subscription.Status;
  paymentIntentStatus: Stripe.PaymentIntent.Status | null;
  message: string | null;
};

const ACTIVE_SUBSCRIPTION: Stripe.Subscription.Status[] = ["active", "trialing", "past_due", "unpaid", "paused"];

const SUBSCRIPTION_NOT_FOUND_MESSAGE = "Abonnement introuvable";
const EMAIL_MISMATCH_MESSAGE = "L'adresse email ne correspond pas à celle de la commande.";
const PAYMENT_METHOD_TAKEN_MESSAGE = "Ce moyen de paiement appartient à un autre client.";

const subscriptionExistsError = () => new ShopError(409, "subscription_exists", PAYMENT_MESSAGES.subscriptionExists.description);
const subscriptionNotFoundError = () => new ShopError(404, "subscription_not_found", SUBSCRIPTION_NOT_FOUND_MESSAGE);

// ---------------------------------------------------------------------------------------------
// Provisioning at Stripe

/** Stripe product that the order's lines refer to; created once with a stable id. */
export async function ensureStripeProduct(stripe: Stripe, order: OrderWithItems): Promise<string> {
  const item = order.items[0];
  const db = getDb();
  const product =
    item.productId !== null ? (await db.select().from(products).where(eq(products.id, item.productId)).limit(1))[0] : undefined;
  const id = `shop-product-${item.productId ?? "commande"}`;
  const existing = await retrieveOrNull(() => stripe.products.retrieve(id));
  if (existing) return existing.id;
  try {
    const created = await stripe.products.create({
      id,
      name: product?.name ?? item.productName ?? "Commande",
      metadata: { productId: String(item.productId ?? "") },
    });
    return created.id;
  } catch (error) {
    if (isStripeError(error) && error.code === "resource_already_exists") return id;
    throw error;
  }
}

/** The order's Stripe customer: the one it has if Stripe still knows it, else a new one. */
export async function ensureStripeCustomer(
  stripe: Stripe,
  order: Order,
  input: { customerEmail?: string; customerName?: string },
): Promise<string> {
  let customerId = order.stripeCustomerId;
  if (customerId) {
    const customer = await retrieveOrNull(() => stripe.customers.retrieve(customerId!));
    if (!customer || ("deleted" in customer && customer.deleted)) customerId = null;
  }
  if (customerId) return customerId;
  const email = order.customerEmail ?? input.customerEmail ?? undefined;
  const name = order.customerName ?? input.customerName ?? undefined;
  const attempt = `${order.id}-customer-${order.stripeCustomerId ?? "first"}`;
  // Test clocks (demo mode, or STRIPE_TEST_CLOCKS=1 with test keys): the customer lives on its own
  // clock, which the admin advances to simulate the next renewal (subscriptions/test-clock.server.ts).
  const testClock = getConfig().stripe.testClocks
    ? (
        await stripe.testHelpers.testClocks.create(
          { frozen_time: Math.floor(Date.now() / 1000), name: `Abonnement commande ${order.id}` },
          { idempotencyKey: `order-${attempt}-clock` },
        )
      ).id
    : undefined;
  const customer = await stripe.customers.create(
    { email, name, metadata: { orderId: String(order.id) }, ...(testClock ? { test_clock: testClock } : {}) },
    { idempotencyKey: `order-${attempt}` },
  );
  await recordStripeCustomer(order.id, customer.id);
  return customer.id;
}

// ---------------------------------------------------------------------------------------------
// The answer to the browser

function confirmationSecret(invoice: Stripe.Invoice | string | null): string | null {
  if (!invoice || typeof invoice === "string") return null;
  return invoice.confirmation_secret?.client_secret ?? null;
}

function paymentIntentIdFromSecret(secret: string | null): string | null {
  const match = secret ? /^(pi_[A-Za-z0-9]+)_secret_/.exec(secret) : null;
  return match ? match[1] : null;
}

async function subscriptionAnswer(
  stripe: Stripe,
  order: Order,
  sub: Stripe.Subscription,
  message: string | null,
): Promise<SubscriptionStart> {
  const clientSecret = confirmationSecret(sub.latest_invoice);
  if (!clientSecret) {
    throw new ShopError(502, "missing_client_secret", PAYMENT_MESSAGES.clientSecretNotReceived);
  }
  const piId = paymentIntentIdFromSecret(clientSecret);
  const pi = piId ? await retrieveOrNull(() => stripe.paymentIntents.retrieve(piId)) : null;
  return {
    orderId: order.id,
    clientSecret,
    subscriptionId: sub.id,
    setupFee: centsToDecimal(order.totalCents),
    recurringAmount: centsToDecimal(order.totalCents),
    status: sub.status,
    paymentIntentStatus: pi?.status ?? null,
    message,
  };
}

// ---------------------------------------------------------------------------------------------
// Starting the subscription

/**
 * Subscription for the order: charged now (the order total, on the first invoice), then the
 * same amount every 4 weeks from day 30. Resumes the order's unpaid subscription if any.
 */
export async function createOrderSubscription(
  orderId: number,
  input: { customerEmail?: string; customerName?: string },
  access: PaymentAccess,
): Promise<SubscriptionStart> {
  const checked = await loadOrder(orderId);
  assertOwner(checked, access);
  if (paymentReceived(checked.paymentStatus)) {
    throw checked.isSubscription ? subscriptionExistsError() : alreadyPaidError();
  }
  await assertPayable(checked);
  assertCustomerEmail(checked);
  await assertPackRules(checked, "subscription");
  await assertOrderPromotion(getDb(), checked, "subscription");

  return withOrderLock<SubscriptionStart>(orderId, async () => {
    // Read again under the lock: a start that held it just before may have recorded its subscription.
    const order = await loadOrder(orderId);
    const stripe = await getStripe();

    if (order.stripeSubscriptionId) {
      const existing = await retrieveOrNull(() =>
        stripe.subscriptions.retrieve(order.stripeSubscriptionId!, { expand: ["latest_invoice.confirmation_secret"] }),
      );
      if (existing) {
        if (ACTIVE_SUBSCRIPTION.includes(existing.status)) {
          const invoice = existing.latest_invoice;
          if (invoice && typeof invoice === "object" && invoicePaysOrder(invoice, order, existing.id)) {
            await markOrderPaid(orderId, { subscriptionId: existing.id });
          }
          throw subscriptionExistsError();
        }
        const invoice = existing.latest_invoice;
        if (
          existing.status === "incomplete" &&
          invoice &&
          typeof invoice === "object" &&
          invoice.status === "open" &&
          invoice.amount_due === order.totalCents &&
          confirmationSecret(invoice)
        ) {
          return subscriptionAnswer(stripe, order, existing, PAYMENT_MESSAGES.resuming);
        }
        if (existing.status === "incomplete") await stripe.subscriptions.cancel(existing.id).catch(() => undefined);
      }
    }

    // Switching from a one-off purchase: make sure the old PaymentIntent can no longer be paid.
    if (order.stripePaymentIntentId) {
      const pi = await retrieveOrNull(() => stripe.paymentIntents.retrieve(order.stripePaymentIntentId!));
      if (pi?.status === "succeeded" && paymentIntentPaysOrder(pi, order)) {
        await markOrderPaid(orderId, { paymentIntentId: pi.id });
        throw alreadyPaidError();
      }
      if (pi && REUSABLE_PI_STATUSES.includes(pi.status)) {
        await stripe.paymentIntents.cancel(pi.id).catch(() => undefined);
      }
    }

    const customerId = await ensureStripeCustomer(stripe, order, input);
    const product = await ensureStripeProduct(stripe, order);
    // The price before the promotion: the code's discount is a Stripe coupon on the subscription.
    const fullCents = order.totalCents + order.discountCents;
    const coupon = await subscriptionCoupon(stripe, order);
    const sub = await stripe.subscriptions.create(
      {
        customer: customerId,
        items: [
          {
            price_data: {
              currency: CURRENCY,
              product,
              unit_amount: fullCents,
              recurring: { ...SUBSCRIPTION_INTERVAL },
            },
          },
        ],
        // The first charge, today: the order total, on the first invoice.
        add_invoice_items: [{ price_data: { currency: CURRENCY, product, unit_amount: fullCents } }],
        ...(coupon ? { discounts: [{ coupon }] } : {}),
        // The recurring charges start on day 30.
        trial_period_days: SUBSCRIPTION_TRIAL_DAYS,
        payment_behavior: "default_incomplete",
        payment_settings: { save_default_payment_method: "on_subscription", payment_method_types: ["card"] },
        metadata: { orderId: String(order.id) },
        description: `Abonnement, commande n°${order.id}`,
        expand: ["latest_invoice.confirmation_secret"],
      },
      // One key per order and attempt (a network retry of this call never creates a second subscription).
      { idempotencyKey: `order-${order.id}-subscription-${randomUUID()}` },
    );
    await recordSubscription(orderId, sub.id);
    return subscriptionAnswer(stripe, order, sub, null);
  });
}

// ---------------------------------------------------------------------------------------------
// The card for the renewals

/**
 * After the first charge: the card becomes the default for the next invoices of the
 * customer and of the subscription. Only for the order's own subscription.
 */
export async function attachSubscriptionPaymentMethod(
  input: AttachPaymentMethodBody,
  access: PaymentAccess,
): Promise<{ attached: true; subscriptionId: string; paymentMethodId: string }> {
  const order = await findOrderBySubscription(input.subscriptionId);
  if (!order || (input.orderId !== undefined && input.orderId !== order.id)) throw subscriptionNotFoundError();
  if (!holdsOrder(order, access)) throw subscriptionNotFoundError();
  if (!order.customerEmail || order.customerEmail.trim().toLowerCase() !== input.customerEmail.trim().toLowerCase()) {
    throw new ShopError(403, "email_mismatch", EMAIL_MISMATCH_MESSAGE);
  }
  const stripe = await getStripe();
  const sub = await retrieveOrNull(() => stripe.subscriptions.retrieve(input.subscriptionId));
  if (!sub) throw subscriptionNotFoundError();
  const customerId = typeof sub.customer === "string" ? sub.customer : sub.customer.id;
  const pm = await retrieveOrNull(() => stripe.paymentMethods.retrieve(input.paymentMethodId));
  if (!pm) throw new ShopError(404, "payment_method_not_found", "Moyen de paiement introuvable");
  const owner = typeof pm.customer === "string" ? pm.customer : (pm.customer?.id ?? null);
  if (owner && owner !== customerId) throw new ShopError(409, "payment_method_taken", PAYMENT_METHOD_TAKEN_MESSAGE);
  if (!owner) await stripe.paymentMethods.attach(pm.id, { customer: customerId });
  await stripe.customers.update(customerId, { invoice_settings: { default_payment_method: pm.id } });
  if (sub.default_payment_method !== pm.id && sub.status !== "canceled" && sub.status !== "incomplete_expired") {
    await stripe.subscriptions.update(sub.id, { default_payment_method: pm.id });
  }
  return { attached: true, subscriptionId: sub.id, paymentMethodId: pm.id };
}
