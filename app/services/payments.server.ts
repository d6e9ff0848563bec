import { randomUUID } from "node:crypto";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type Stripe from "stripe";
import { z } from "zod";
import { getDb, type Db } from "~/db/client.server";
import { orderItems, orders, products, stripeEvents, type Order } from "~/db/schema";
import { centsToDecimal } from "~/lib/money";
import { PAYMENT_MESSAGES } from "~/lib/payment-messages";
import { getStripe } from "~/services/stripe.server";

/**
 * Card payment rules: one-off payments (a PaymentIntent for the order total) and the
 * subscription (the order total now, then the same amount every 4 weeks from day 30).
 *
 * Amounts always come from the order in the database. An order becomes paid only when the
 * server has seen it paid at Stripe: through `confirmOrderPayment` (the server asks Stripe)
 * or through Stripe's signed webhook. Both end in `markOrderPaid`, which flips the order
 * once and decrements the stock once, whichever arrives first.
 */

export const CURRENCY = "eur";
export const SUBSCRIPTION_INTERVAL = { interval: "week", interval_count: 4 } as const;
export const SUBSCRIPTION_TRIAL_DAYS = 30;

// ---------------------------------------------------------------------------------------------
// API bodies (shared by the resource routes)

const orderIdField = z.coerce
  .number({ error: "Numéro de commande invalide" })
  .int("Numéro de commande invalide")
  .positive("Numéro de commande invalide")
  .max(Number.MAX_SAFE_INTEGER, "Numéro de commande invalide");

const optionalText = (max: number) => z.string().trim().max(max).optional();

export const startPaymentBodySchema = z.object({
  orderId: orderIdField,
  mode: z.enum(["one_off", "subscription"], { error: "Mode de paiement invalide" }).default("one_off"),
});

/** POST /api/create-subscription. The spec's productId, quantity and userId are accepted and ignored: the order decides. */
export const createSubscriptionBodySchema = z.object({
  orderId: orderIdField,
  customerEmail: z.string().trim().max(254).optional(),
  customerName: optionalText(200),
  productId: z.unknown().optional(),
  quantity: z.unknown().optional(),
  userId: z.unknown().optional(),
});

export const attachPaymentMethodBodySchema = z.object({
  subscriptionId: z.string({ error: "Abonnement requis" }).trim().regex(/^sub_[A-Za-z0-9]+$/, "Abonnement invalide"),
  paymentMethodId: z.string({ error: "Moyen de paiement requis" }).trim().regex(/^pm_[A-Za-z0-9]+$/, "Moyen de paiement invalide"),
  customerEmail: z.string({ error: "Adresse email requise" }).trim().min(1, "Adresse email requise").max(254),
  orderId: orderIdField.optional(),
});

export const confirmPaymentBodySchema = z.object({ orderId: orderIdField });

// ---------------------------------------------------------------------------------------------
// Errors

/** A refusal with a French message for people and a machine code for the browser. */
export class PaymentError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = "PaymentError";
  }
}

const MESSAGES = {
  orderNotFound: "Commande introuvable",
  alreadyPaid: "Cette commande est déjà payée.",
  outOfStock: "Stock insuffisant : cet article n'est plus disponible dans la quantité commandée.",
  emptyOrder: "Cette commande ne contient aucun article.",
  providerDown: "Le service de paiement est momentanément indisponible. Veuillez réessayer dans un instant.",
  subscriptionNotFound: "Abonnement introuvable",
  emailMismatch: "L'adresse email ne correspond pas à celle de la commande.",
  paymentMethodTaken: "Ce moyen de paiement appartient à un autre client.",
  processing: "Le paiement de cette commande est en cours de traitement. Veuillez patienter.",
};

/** The JSON error body of a payment failure ({ error, issues, code }), or null for an unexpected error. */
export function paymentErrorBody(error: unknown): { status: number; body: { error: string; issues: []; code?: string } } | null {
  if (error instanceof PaymentError) {
    return { status: error.status, body: { error: error.message, issues: [], ...(error.code ? { code: error.code } : {}) } };
  }
  if (isStripeError(error)) {
    if (error.type === "StripeIdempotencyError") {
      return { status: 409, body: { error: PAYMENT_MESSAGES.concurrentAttempt.description, issues: [], code: "resource_already_exists" } };
    }
    if (error.type === "StripeConnectionError" || error.type === "StripeAPIError" || error.type === "StripeRateLimitError") {
      return { status: 503, body: { error: MESSAGES.providerDown, issues: [], code: "provider_unavailable" } };
    }
  }
  return null;
}

type StripeLikeError = { type: string; code?: string; statusCode?: number; message: string };
function isStripeError(error: unknown): error is StripeLikeError {
  return (
    typeof error === "object" &&
    error !== null &&
    typeof (error as { type?: unknown }).type === "string" &&
    String((error as { type: string }).type).startsWith("Stripe")
  );
}

/** A retrieve that answers null when Stripe says the object does not exist (e.g. emulator restarted). */
async function retrieveOrNull<T>(run: () => Promise<T>): Promise<T | null> {
  try {
    return await run();
  } catch (error) {
    if (isStripeError(error) && (error.code === "resource_missing" || error.statusCode === 404)) return null;
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// Orders

type OrderWithItems = Order & { items: Array<typeof orderItems.$inferSelect> };

function findOrder(orderId: number, db: Db = getDb()): Order | undefined {
  return db.select().from(orders).where(eq(orders.id, orderId)).get();
}

function loadOrder(orderId: number): OrderWithItems {
  const db = getDb();
  const order = findOrder(orderId, db);
  if (!order) throw new PaymentError(404, MESSAGES.orderNotFound, "order_not_found");
  const items = db.select().from(orderItems).where(eq(orderItems.orderId, orderId)).all();
  return { ...order, items };
}

/** The order's payment state, or null when there is no such order. */
export function getOrderPaymentState(orderId: number) {
  const order = findOrder(orderId);
  if (!order) return null;
  return {
    orderId: order.id,
    paymentStatus: order.paymentStatus,
    paid: order.paymentStatus === "paid",
    isSubscription: order.isSubscription,
    totalCents: order.totalCents,
  };
}

/**
 * Who may start a payment for an order: the visitor whose cart created it, when the order
 * remembers its cart. Anyone else gets the same answer as for a missing order.
 */
function assertOwner(order: Order, cartId: string | null | undefined) {
  if (order.cartId && order.cartId !== cartId) {
    throw new PaymentError(404, MESSAGES.orderNotFound, "order_not_found");
  }
}

function assertPayable(order: OrderWithItems) {
  if (order.paymentStatus === "paid") throw new PaymentError(409, MESSAGES.alreadyPaid, "order_already_paid");
  if (order.paymentStatus === "refunded") throw new PaymentError(409, MESSAGES.alreadyPaid, "order_already_paid");
  if (order.items.length === 0 || order.totalCents <= 0) throw new PaymentError(409, MESSAGES.emptyOrder, "order_empty");
  assertInStock(order);
}

/** An order whose products are out of stock cannot be paid. */
function assertInStock(order: OrderWithItems) {
  const db = getDb();
  const needed = new Map<number, number>();
  for (const item of order.items) {
    if (item.productId !== null) needed.set(item.productId, (needed.get(item.productId) ?? 0) + item.quantity);
  }
  if (needed.size === 0) return;
  const rows = db
    .select({ id: products.id, stock: products.stock })
    .from(products)
    .where(inArray(products.id, [...needed.keys()]))
    .all();
  for (const [productId, quantity] of needed) {
    const row = rows.find((r) => r.id === productId);
    if (!row || row.stock < quantity) throw new PaymentError(409, MESSAGES.outOfStock, "out_of_stock");
  }
}

/** One payment start per order at a time in this process. */
const busyOrders = new Set<number>();
async function withOrderLock<T>(orderId: number, run: () => Promise<T>): Promise<T> {
  if (busyOrders.has(orderId)) {
    throw new PaymentError(409, PAYMENT_MESSAGES.concurrentAttempt.description, "resource_already_exists");
  }
  busyOrders.add(orderId);
  try {
    return await run();
  } finally {
    busyOrders.delete(orderId);
  }
}

// ---------------------------------------------------------------------------------------------
// Marking an order paid (the only place that does)

type DbTx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/**
 * Marks the order paid, once: unpaid (or failed) -> paid, and the stock of its products
 * decremented once. Returns true only the first time.
 */
export function markOrderPaid(orderId: number, source: { paymentIntentId?: string; subscriptionId?: string }): boolean {
  return getDb().transaction((tx) => markOrderPaidIn(tx, orderId, source));
}

function markOrderPaidIn(tx: DbTx, orderId: number, source: { paymentIntentId?: string; subscriptionId?: string }): boolean {
  const now = new Date().toISOString();
  const changes: Partial<typeof orders.$inferInsert> = { paymentStatus: "paid", paidAt: now };
  if (source.subscriptionId) {
    changes.stripeSubscriptionId = source.subscriptionId;
    changes.isSubscription = true;
  } else if (source.paymentIntentId) {
    changes.stripePaymentIntentId = source.paymentIntentId;
    changes.isSubscription = false;
  }
  const updated = tx
    .update(orders)
    .set(changes)
    .where(and(eq(orders.id, orderId), inArray(orders.paymentStatus, ["unpaid", "failed"])))
    .run();
  if (updated.changes !== 1) return false;

  const stamped = tx
    .update(orders)
    .set({ stockDecrementedAt: now })
    .where(and(eq(orders.id, orderId), isNull(orders.stockDecrementedAt)))
    .run();
  if (stamped.changes === 1) {
    const items = tx.select().from(orderItems).where(eq(orderItems.orderId, orderId)).all();
    for (const item of items) {
      if (item.productId === null) continue;
      tx.update(products)
        .set({ stock: sql`max(${products.stock} - ${item.quantity}, 0)` })
        .where(eq(products.id, item.productId))
        .run();
    }
  }
  return true;
}

/** Does this PaymentIntent pay exactly this order? */
function paymentIntentPaysOrder(pi: Stripe.PaymentIntent, order: Order): boolean {
  return (
    pi.status === "succeeded" &&
    pi.amount_received === order.totalCents &&
    pi.amount === order.totalCents &&
    pi.currency === CURRENCY &&
    pi.metadata?.orderId === String(order.id)
  );
}

function invoiceSubscriptionId(invoice: Stripe.Invoice): string | null {
  const sub = invoice.parent?.subscription_details?.subscription;
  if (!sub) return null;
  return typeof sub === "string" ? sub : sub.id;
}

/** Does this paid invoice pay this order (its subscription's first charge)? */
function invoicePaysOrder(invoice: Stripe.Invoice, order: Order, subscriptionId: string): boolean {
  const metadataOrderId = invoice.parent?.subscription_details?.metadata?.orderId;
  return (
    invoice.status === "paid" &&
    invoice.amount_paid === order.totalCents &&
    invoice.currency === CURRENCY &&
    invoiceSubscriptionId(invoice) === subscriptionId &&
    (metadataOrderId === undefined || metadataOrderId === String(order.id))
  );
}

// ---------------------------------------------------------------------------------------------
// One-off payment

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

const REUSABLE_PI_STATUSES: Stripe.PaymentIntent.Status[] = ["requires_payment_method", "requires_confirmation", "requires_action"];

/** A PaymentIntent for the order total (EUR), reused while it can still be paid. */
export async function startOneOffPayment(orderId: number, access: { cartId?: string | null } = {}): Promise<PaymentStart> {
  const order = loadOrder(orderId);
  assertOwner(order, access.cartId);
  if (order.paymentStatus === "paid") return { paid: true, orderId };
  assertPayable(order);

  return withOrderLock<PaymentStart>(orderId, async () => {
    const stripe = await getStripe();

    // Switching from the subscription to a one-off purchase: drop the unpaid subscription.
    if (order.stripeSubscriptionId) {
      const sub = await retrieveOrNull(() => stripe.subscriptions.retrieve(order.stripeSubscriptionId!, { expand: ["latest_invoice"] }));
      if (sub && typeof sub.latest_invoice === "object" && sub.latest_invoice && invoicePaysOrder(sub.latest_invoice, order, sub.id)) {
        markOrderPaid(orderId, { subscriptionId: sub.id });
        return { paid: true as const, orderId };
      }
      if (sub?.status === "incomplete") await stripe.subscriptions.cancel(sub.id).catch(() => undefined);
      if (!sub || ["incomplete", "incomplete_expired", "canceled"].includes(sub.status)) {
        getDb().update(orders).set({ stripeSubscriptionId: null, isSubscription: false }).where(eq(orders.id, orderId)).run();
      }
    }

    let previous: Stripe.PaymentIntent | null = null;
    if (order.stripePaymentIntentId) {
      previous = await retrieveOrNull(() => stripe.paymentIntents.retrieve(order.stripePaymentIntentId!));
      if (previous) {
        if (previous.status === "succeeded") {
          if (paymentIntentPaysOrder(previous, order)) {
            markOrderPaid(orderId, { paymentIntentId: previous.id });
            return { paid: true as const, orderId };
          }
        } else if (previous.status === "processing") {
          throw new PaymentError(409, MESSAGES.processing, "payment_processing");
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
    if (!pi.client_secret) throw new PaymentError(502, PAYMENT_MESSAGES.clientSecretNotReceived, "missing_client_secret");
    getDb().update(orders).set({ stripePaymentIntentId: pi.id }).where(eq(orders.id, orderId)).run();
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

// ---------------------------------------------------------------------------------------------
// Subscription

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

/** Stripe product that the order's lines refer to; created once with a stable id. */
async function ensureStripeProduct(stripe: Stripe, order: OrderWithItems): Promise<string> {
  const item = order.items[0];
  const db = getDb();
  const product = item.productId !== null ? db.select().from(products).where(eq(products.id, item.productId)).get() : undefined;
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
    throw new PaymentError(502, PAYMENT_MESSAGES.clientSecretNotReceived, "missing_client_secret");
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

/**
 * Subscription for the order: charged now (the order total, on the first invoice), then the
 * same amount every 4 weeks from day 30. Resumes the order's unpaid subscription if any.
 */
export async function createOrderSubscription(
  orderId: number,
  input: { customerEmail?: string; customerName?: string } = {},
  access: { cartId?: string | null } = {},
): Promise<SubscriptionStart> {
  const order = loadOrder(orderId);
  assertOwner(order, access.cartId);
  if (order.paymentStatus === "paid") {
    if (order.isSubscription) {
      throw new PaymentError(409, PAYMENT_MESSAGES.subscriptionExists.description, "subscription_exists");
    }
    throw new PaymentError(409, MESSAGES.alreadyPaid, "order_already_paid");
  }
  assertPayable(order);

  return withOrderLock<SubscriptionStart>(orderId, async () => {
    const stripe = await getStripe();
    const db = getDb();

    if (order.stripeSubscriptionId) {
      const existing = await retrieveOrNull(() =>
        stripe.subscriptions.retrieve(order.stripeSubscriptionId!, { expand: ["latest_invoice.confirmation_secret"] }),
      );
      if (existing) {
        if (ACTIVE_SUBSCRIPTION.includes(existing.status)) {
          const invoice = existing.latest_invoice;
          if (invoice && typeof invoice === "object" && invoicePaysOrder(invoice, order, existing.id)) {
            markOrderPaid(orderId, { subscriptionId: existing.id });
          }
          throw new PaymentError(409, PAYMENT_MESSAGES.subscriptionExists.description, "subscription_exists");
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
        markOrderPaid(orderId, { paymentIntentId: pi.id });
        throw new PaymentError(409, MESSAGES.alreadyPaid, "order_already_paid");
      }
      if (pi && REUSABLE_PI_STATUSES.includes(pi.status)) {
        await stripe.paymentIntents.cancel(pi.id).catch(() => undefined);
      }
    }

    const email = order.customerEmail ?? input.customerEmail ?? undefined;
    const name = order.customerName ?? input.customerName ?? undefined;
    let customerId = order.stripeCustomerId;
    if (customerId) {
      const customer = await retrieveOrNull(() => stripe.customers.retrieve(customerId!));
      if (!customer || ("deleted" in customer && customer.deleted)) customerId = null;
    }
    if (!customerId) {
      const customer = await stripe.customers.create(
        { email, name, metadata: { orderId: String(order.id) } },
        { idempotencyKey: `order-${order.id}-customer-${order.stripeCustomerId ?? "first"}` },
      );
      customerId = customer.id;
      db.update(orders).set({ stripeCustomerId: customerId }).where(eq(orders.id, orderId)).run();
    }

    const product = await ensureStripeProduct(stripe, order);
    const sub = await stripe.subscriptions.create(
      {
        customer: customerId,
        items: [
          {
            price_data: {
              currency: CURRENCY,
              product,
              unit_amount: order.totalCents,
              recurring: { ...SUBSCRIPTION_INTERVAL },
            },
          },
        ],
        // The first charge, today: the order total, on the first invoice.
        add_invoice_items: [{ price_data: { currency: CURRENCY, product, unit_amount: order.totalCents } }],
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
    db.update(orders).set({ stripeSubscriptionId: sub.id, isSubscription: true }).where(eq(orders.id, orderId)).run();
    return subscriptionAnswer(stripe, order, sub, null);
  });
}

/**
 * After the first charge: the card becomes the default for the next invoices of the
 * customer and of the subscription. Only for the order's own subscription.
 */
export async function attachSubscriptionPaymentMethod(
  input: z.infer<typeof attachPaymentMethodBodySchema>,
  access: { cartId?: string | null } = {},
): Promise<{ attached: true; subscriptionId: string; paymentMethodId: string }> {
  const db = getDb();
  const order = db.select().from(orders).where(eq(orders.stripeSubscriptionId, input.subscriptionId)).get();
  if (!order || (input.orderId !== undefined && input.orderId !== order.id)) {
    throw new PaymentError(404, MESSAGES.subscriptionNotFound, "subscription_not_found");
  }
  assertOwner(order, access.cartId);
  if (!order.customerEmail || order.customerEmail.trim().toLowerCase() !== input.customerEmail.trim().toLowerCase()) {
    throw new PaymentError(403, MESSAGES.emailMismatch, "email_mismatch");
  }
  const stripe = await getStripe();
  const sub = await retrieveOrNull(() => stripe.subscriptions.retrieve(input.subscriptionId));
  if (!sub) throw new PaymentError(404, MESSAGES.subscriptionNotFound, "subscription_not_found");
  const customerId = typeof sub.customer === "string" ? sub.customer : sub.customer.id;
  const pm = await retrieveOrNull(() => stripe.paymentMethods.retrieve(input.paymentMethodId));
  if (!pm) throw new PaymentError(404, "Moyen de paiement introuvable", "payment_method_not_found");
  const owner = typeof pm.customer === "string" ? pm.customer : (pm.customer?.id ?? null);
  if (owner && owner !== customerId) throw new PaymentError(409, MESSAGES.paymentMethodTaken, "payment_method_taken");
  if (!owner) await stripe.paymentMethods.attach(pm.id, { customer: customerId });
  await stripe.customers.update(customerId, { invoice_settings: { default_payment_method: pm.id } });
  if (sub.default_payment_method !== pm.id && sub.status !== "canceled" && sub.status !== "incomplete_expired") {
    await stripe.subscriptions.update(sub.id, { default_payment_method: pm.id });
  }
  return { attached: true, subscriptionId: sub.id, paymentMethodId: pm.id };
}

// ---------------------------------------------------------------------------------------------
// Confirmation: the server asks Stripe

/**
 * Asks Stripe (emulator or real) whether the order's PaymentIntent or subscription invoice
 * was paid, and marks the order paid if so. Idempotent; never trusts the browser.
 */
export async function confirmOrderPayment(orderId: number): Promise<{ paid: boolean }> {
  const order = findOrder(orderId);
  if (!order) return { paid: false };
  if (order.paymentStatus === "paid") return { paid: true };
  if (!order.stripeSubscriptionId && !order.stripePaymentIntentId) return { paid: false };
  const stripe = await getStripe();

  if (order.stripeSubscriptionId) {
    const sub = await retrieveOrNull(() => stripe.subscriptions.retrieve(order.stripeSubscriptionId!, { expand: ["latest_invoice"] }));
    const invoice = sub?.latest_invoice;
    if (sub && invoice && typeof invoice === "object" && invoicePaysOrder(invoice, order, sub.id)) {
      markOrderPaid(orderId, { subscriptionId: sub.id });
      return { paid: true };
    }
  }
  if (order.stripePaymentIntentId) {
    const pi = await retrieveOrNull(() => stripe.paymentIntents.retrieve(order.stripePaymentIntentId!));
    if (pi && paymentIntentPaysOrder(pi, order)) {
      markOrderPaid(orderId, { paymentIntentId: pi.id });
      return { paid: true };
    }
  }
  // The webhook may have been faster.
  return { paid: findOrder(orderId)?.paymentStatus === "paid" };
}

// ---------------------------------------------------------------------------------------------
// Webhook events (already verified by the route)

export type WebhookOutcome =
  | "duplicate"
  | "order_paid"
  | "already_paid"
  | "payment_failed"
  | "subscription_ended"
  | "renewal_paid"
  | "ignored";

/**
 * Handles one verified Stripe event, exactly once: its id is recorded in the same
 * transaction as its effect, so a replay changes nothing.
 */
export function handleStripeEvent(event: Stripe.Event): { outcome: WebhookOutcome } {
  return getDb().transaction((tx) => {
    const recorded = tx.insert(stripeEvents).values({ id: event.id, type: event.type }).onConflictDoNothing().run();
    if (recorded.changes === 0) return { outcome: "duplicate" as const };
    return { outcome: applyEvent(tx, event) };
  });
}

function orderFromMetadata(tx: DbTx, metadata: Stripe.Metadata | null | undefined): Order | undefined {
  const raw = metadata?.orderId;
  if (!raw || !/^\d{1,15}$/.test(raw)) return undefined;
  return tx.select().from(orders).where(eq(orders.id, Number(raw))).get();
}

function applyEvent(tx: DbTx, event: Stripe.Event): WebhookOutcome {
  switch (event.type) {
    case "payment_intent.succeeded": {
      const pi = event.data.object;
      const order = orderFromMetadata(tx, pi.metadata);
      if (!order || !paymentIntentPaysOrder(pi, order)) return "ignored";
      return markOrderPaidIn(tx, order.id, { paymentIntentId: pi.id }) ? "order_paid" : "already_paid";
    }
    case "payment_intent.payment_failed": {
      // The order stays unpaid and can be paid again with another card.
      const order = orderFromMetadata(tx, event.data.object.metadata);
      return order ? "payment_failed" : "ignored";
    }
    case "invoice.paid": {
      const invoice = event.data.object;
      const subscriptionId = invoiceSubscriptionId(invoice);
      if (!subscriptionId) return "ignored";
      const order =
        orderFromMetadata(tx, invoice.parent?.subscription_details?.metadata) ??
        tx.select().from(orders).where(eq(orders.stripeSubscriptionId, subscriptionId)).get();
      if (!order) return "ignored";
      if (invoice.billing_reason !== "subscription_create") {
        return order.paymentStatus === "paid" ? "renewal_paid" : "ignored";
      }
      if (!invoicePaysOrder(invoice, order, subscriptionId)) return "ignored";
      return markOrderPaidIn(tx, order.id, { subscriptionId }) ? "order_paid" : "already_paid";
    }
    case "invoice.payment_failed": {
      const subscriptionId = invoiceSubscriptionId(event.data.object);
      return subscriptionId ? "payment_failed" : "ignored";
    }
    case "customer.subscription.deleted": {
      const sub = event.data.object;
      const order = tx.select().from(orders).where(eq(orders.stripeSubscriptionId, sub.id)).get();
      if (!order) return "ignored";
      if (order.paymentStatus !== "paid") {
        // An unpaid subscription that ended: the order can start a new payment.
        tx.update(orders).set({ stripeSubscriptionId: null, isSubscription: false }).where(eq(orders.id, order.id)).run();
      } else if (!order.subscriptionCanceledAt) {
        // A paid subscription ended (cancelled online, by us at Stripe, or after failed renewals).
        const endedAt = sub.canceled_at ?? sub.ended_at;
        tx.update(orders)
          .set({ subscriptionCanceledAt: endedAt ? new Date(endedAt * 1000).toISOString() : new Date().toISOString() })
          .where(and(eq(orders.id, order.id), isNull(orders.subscriptionCanceledAt)))
          .run();
      }
      return "subscription_ended";
    }
    default:
      return "ignored";
  }
}
