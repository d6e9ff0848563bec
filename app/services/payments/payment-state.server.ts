import { paymentReceived } from "~/lib/order-status";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { getDb, type DbOrTx } from "~/db/client.server";
import { lockRows } from "~/db/locks.server";
import { param, prepared } from "~/db/prepared.server";
import {
  orderItems,
  orders,
  products,
  refunds,
  type Order,
  type PaymentStatus,
  type Refund,
  type Subscription,
} from "~/db/schema";
import { splitFullName } from "~/lib/names";
import { ShopError } from "~/lib/shop-error";
import { queueOrderPaidEmails, queueOrderRefundedEmail } from "~/services/email/notifications.server";
import { issueInvoiceIn, issueRefundCreditNoteIn } from "~/services/invoices.server";
import { holdsOrder } from "~/services/orders/access.server";
import { findOrder, findOrderItems } from "~/services/orders/find.server";
import { newOrderId } from "~/services/orders/ids.server";
import { bumpPageCacheVersion } from "~/services/page-cache-version.server";
import { activateSubscription } from "~/services/subscriptions/record.server";
import { PACK_MESSAGES, subscriptionRefusal, trialEndedRefusal, trialRefusal } from "~/services/packs.server";
import { countOrderPaid } from "~/services/observability/metrics.server";
import {
  PROMOTION_REFUSED_REFUND_REASON,
  PROMOTION_REFUSED_SUBSCRIPTION_NOTE,
  promotionRefundKey,
  redeemPromotionIn,
} from "~/services/promotions/redeem.server";

/**
 * The payment state of an order, and the only module that writes it: `paymentStatus`,
 * `paidAt`, the invoice issued with the payment and the credit note issued with each refund
 * (services/invoices.server.ts, in the same transaction), the stock decrement on payment, the Stripe ids (`stripePaymentIntentId`,
 * `stripeSubscriptionId`, `stripeCustomerId`) and `isSubscription`. (The end of a paid
 * subscription, `subscriptionCanceledAt`, is written by services/subscriptions/end.server.ts.)
 * It also holds the checks that say whether an order may be paid, and by whom.
 *
 * An order becomes paid only when the server has seen it paid at Stripe (the confirmation
 * asks Stripe, or Stripe's signed webhook says so). Both end in `markOrderPaid`, which flips
 * the order once and decrements the stock once, whichever arrives first. A subscription's
 * paid renewal is an order of its own, made paid by `createRenewalOrderIn`.
 */

export type OrderWithItems = Order & { items: Array<typeof orderItems.$inferSelect> };

const ORDER_NOT_FOUND_MESSAGE = "Commande introuvable";
const ALREADY_PAID_MESSAGE = "Cette commande est déjà payée.";
const OUT_OF_STOCK_MESSAGE = "Stock insuffisant : cet article n'est plus disponible dans la quantité commandée.";
const EMPTY_ORDER_MESSAGE = "Cette commande ne contient aucun article.";
const EMAIL_REQUIRED_MESSAGE =
  "Cette commande n'a pas d'adresse email : indiquez-la avant le paiement (PUT /api/orders/{id} avec customerEmail).";

export const alreadyPaidError = () => new ShopError(409, "order_already_paid", ALREADY_PAID_MESSAGE);
const orderNotFoundError = () => new ShopError(404, "order_not_found", ORDER_NOT_FOUND_MESSAGE);

// ---------------------------------------------------------------------------------------------
// Reading

/** The order and its lines, or a thrown 404 `order_not_found`. */
export async function loadOrder(orderId: number): Promise<OrderWithItems> {
  const db = getDb();
  const order = await findOrder(orderId, db);
  if (!order) throw orderNotFoundError();
  const items = await findOrderItems(orderId, db);
  return { ...order, items };
}

// ---------------------------------------------------------------------------------------------
// Who may pay, and what can be paid

/** What a payment request may prove ownership with: the shop's pages send the cart cookie, API clients the order token. */
export type PaymentAccess = { cartId?: string | null; token?: string | null };

/**
 * Who may start a payment for an order: the visitor whose cart created it, or the holder of
 * the order's token (API clients). Anyone else gets the same answer as for a missing order.
 */
export function assertOwner(order: Order, access: PaymentAccess) {
  if (!holdsOrder(order, { cartId: access.cartId, token: access.token })) throw orderNotFoundError();
}

/** A payment needs the order's email (the receipt, the Stripe customer, the trial pack rule). */
export function assertCustomerEmail(order: Order) {
  if (!order.customerEmail?.trim())
    throw new ShopError(409, "order_email_missing", EMAIL_REQUIRED_MESSAGE, { field: "customerEmail" });
}

/**
 * The pack rules at payment time: the trial pack only as a one-off purchase, and only when
 * that email has not bought it yet (another order of it may have been paid meanwhile), and
 * only until the trial offer's end (an order made before it is not paid after it).
 */
export async function assertPackRules(order: OrderWithItems, mode: "one_off" | "subscription") {
  const ended = await trialEndedRefusal(order.items);
  if (ended) throw new ShopError(422, "trial_ended", ended);
  if (mode === "subscription" && (await subscriptionRefusal(order.items))) {
    throw new ShopError(409, "trial_one_off_only", await PACK_MESSAGES.trialOneOffOnly());
  }
  const refusal = await trialRefusal(getDb(), { email: order.customerEmail, lines: order.items, orderId: order.id });
  if (refusal) throw new ShopError(409, "trial_used", refusal, { field: "customerEmail" });
}

/** Not paid (nor refunded), not empty, and its products in stock. */
export async function assertPayable(order: OrderWithItems) {
  if (paymentReceived(order.paymentStatus)) throw alreadyPaidError();
  if (order.items.length === 0 || order.totalCents <= 0) throw new ShopError(409, "order_empty", EMPTY_ORDER_MESSAGE);
  await assertInStock(order);
}

/** A free order (a 100 % code on a one-off purchase): not paid yet, with items in stock, nothing to charge. */
export async function assertFreeOrder(order: OrderWithItems) {
  if (paymentReceived(order.paymentStatus)) throw alreadyPaidError();
  if (order.items.length === 0) throw new ShopError(409, "order_empty", EMPTY_ORDER_MESSAGE);
  if (order.totalCents !== 0 || order.discountCents <= 0)
    throw new ShopError(409, "order_not_free", "Cette commande n'est pas offerte : elle se règle par carte.");
  await assertInStock(order);
}

/** An order whose products are out of stock cannot be paid. */
async function assertInStock(order: OrderWithItems) {
  const needed = new Map<number, number>();
  for (const item of order.items) {
    if (item.productId !== null) needed.set(item.productId, (needed.get(item.productId) ?? 0) + item.quantity);
  }
  if (needed.size === 0) return;
  const rows = await getDb()
    .select({ id: products.id, stock: products.stock })
    .from(products)
    .where(inArray(products.id, [...needed.keys()]));
  for (const [productId, quantity] of needed) {
    const row = rows.find((r) => r.id === productId);
    if (!row || row.stock < quantity) throw new ShopError(409, "out_of_stock", OUT_OF_STOCK_MESSAGE);
  }
}

// ---------------------------------------------------------------------------------------------
// Marking an order paid (the only place that does)

type PaymentSource = {
  paymentIntentId?: string;
  subscriptionId?: string;
  /** When the subscription's first period ends at Stripe (ISO), when the caller knows it. */
  currentPeriodEnd?: string | null;
};

const unpaidStatuses: PaymentStatus[] = ["unpaid", "failed"];

/**
 * The writes of every card payment, prepared once per database handle (db/prepared.server.ts):
 * drizzle would build their SQL again at each purchase, inside the transaction that holds the
 * write lock. Each gives its own `updated_at`.
 */
const paymentWrites = (db: DbOrTx) =>
  prepared(db, "paymentWrites", () => ({
    paidByIntent: db
      .update(orders)
      .set({
        paymentStatus: "paid",
        paidAt: param<string>("now"),
        stripePaymentIntentId: param<string>("paymentIntentId"),
        isSubscription: false,
        updatedAt: param<string>("now"),
      })
      .where(and(eq(orders.id, sql.placeholder("orderId")), inArray(orders.paymentStatus, unpaidStatuses)))
      .returning()
      .prepare(),
    stampStock: db
      .update(orders)
      .set({ stockDecrementedAt: param<string>("now"), updatedAt: param<string>("now") })
      .where(and(eq(orders.id, sql.placeholder("orderId")), isNull(orders.stockDecrementedAt)))
      .returning({ id: orders.id })
      .prepare(),
    takeStock: db
      .update(products)
      .set({
        stock: sql`case when ${products.stock} > ${sql.placeholder("quantity")} then ${products.stock} - ${sql.placeholder("quantity")} else 0 end`,
        updatedAt: param<string>("now"),
      })
      .where(eq(products.id, sql.placeholder("productId")))
      .returning({ stock: products.stock })
      .prepare(),
    recordIntent: db
      .update(orders)
      .set({ stripePaymentIntentId: param<string>("paymentIntentId"), updatedAt: param<string>("now") })
      .where(eq(orders.id, sql.placeholder("orderId")))
      .prepare(),
  }));

/**
 * Marks the order paid, once: unpaid (or failed) -> paid, and the stock of its products
 * decremented once. Returns true only the first time.
 */
export async function markOrderPaid(orderId: number, source: PaymentSource): Promise<boolean> {
  const paid = await getDb().transaction(async (tx) => await markOrderPaidIn(tx, orderId, source));
  if (paid) countOrderPaid();
  return paid;
}

/** `markOrderPaid` inside the caller's transaction (the webhook records the event in the same one). */
export async function markOrderPaidIn(tx: DbOrTx, orderId: number, source: PaymentSource): Promise<boolean> {
  const now = new Date().toISOString();
  const writes = paymentWrites(tx);
  let updated: Order[];
  if (!source.subscriptionId && source.paymentIntentId) {
    // A card payment, the hot case: the prepared write.
    updated = await writes.paidByIntent.execute({ orderId, now, paymentIntentId: source.paymentIntentId });
  } else {
    const changes: Partial<typeof orders.$inferInsert> = { paymentStatus: "paid", paidAt: now };
    if (source.subscriptionId) {
      changes.stripeSubscriptionId = source.subscriptionId;
      changes.isSubscription = true;
    }
    updated = await tx
      .update(orders)
      .set(changes)
      .where(and(eq(orders.id, orderId), inArray(orders.paymentStatus, unpaidStatuses)))
      .returning();
  }
  if (updated.length !== 1) return false;
  // The order's row is now locked until the commit: its other payment (the webhook, the
  // confirmation) waits here, then finds it paid. The promotion code is counted once, under its
  // own row lock (promotions/redeem.server.ts); past its limit the order is refunded.
  const [paidOrder] = updated;
  await redeemPromotionIn(tx, paidOrder);
  // Two payments of the trial pack started with one email before either was paid: the second is
  // refunded (a lock per email, packs.server.ts).
  await reserveTrialDuplicateRefundIn(tx, paidOrder);
  if (source.subscriptionId) {
    // The subscription's record, active from its first payment (same transaction).
    const order = await findOrder(orderId, tx);
    if (order?.stripeSubscriptionId) {
      await activateSubscription(
        tx,
        { ...order, stripeSubscriptionId: order.stripeSubscriptionId },
        { paidAt: now, currentPeriodEnd: source.currentPeriodEnd },
      );
    }
  }
  // The confirmation to the customer and the notice to the shop, with the payment (once).
  await queueOrderPaidEmails(tx, orderId);
  // Last, the rows every payment changes (the product's stock, then the invoice counter): each
  // is locked by its update until the commit, so they are taken as late as possible and always in
  // this order (createRenewalOrderIn too).
  const stamped = await writes.stampStock.execute({ orderId, now });
  if (stamped.length === 1) await decrementStock(tx, orderId, now);
  // The invoice, with its number, in the transaction that makes the order paid (once).
  await issueInvoiceIn(tx, orderId);
  return true;
}

// ---------------------------------------------------------------------------------------------
// The trial pack paid twice with one email

/** The reason of the automatic refund, shown in the back office, on the confirmation page and in the email. */
export const TRIAL_DUPLICATE_REFUND_REASON =
  "Remboursement automatique : le pack d'essai avait déjà été acheté avec cette adresse email.";
/** Who made it, in the back office. */
export const SHOP_ACTOR = "Boutique (automatique)";

export const trialDuplicateRefundKey = (orderId: number) => `trial-duplicate:${orderId}`;

/** Why the shop refunded an order on its own, for the refund email: the trial pack bought twice, a promotion code past its limit. */
function automaticRefundNote(order: Order, idempotencyKey: string | null): string | null {
  if (idempotencyKey === trialDuplicateRefundKey(order.id)) return TRIAL_DUPLICATE_REFUND_REASON;
  if (idempotencyKey !== promotionRefundKey(order.id)) return null;
  return order.isSubscription
    ? `${PROMOTION_REFUSED_REFUND_REASON} ${PROMOTION_REFUSED_SUBSCRIPTION_NOTE}`
    : PROMOTION_REFUSED_REFUND_REASON;
}

/**
 * The trial pack's rule checked again in the transaction that makes the order paid: when another
 * order of this email has bought it meanwhile (both payments were started before either was
 * paid), the whole order is reserved for a refund (a pending refund row, once per order), which
 * refunds.server.ts `refundTrialDuplicates` then asks Stripe for, after the transaction.
 */
async function reserveTrialDuplicateRefundIn(tx: DbOrTx, order: Order) {
  const orderId = order.id;
  if (!order.stripePaymentIntentId) return;
  const lines = await findOrderItems(orderId, tx);
  if (!(await trialRefusal(tx, { email: order.customerEmail, lines, orderId }))) return;
  await tx
    .insert(refunds)
    .values({
      orderId,
      amountCents: order.totalCents,
      reason: TRIAL_DUPLICATE_REFUND_REASON,
      status: "pending",
      actorUserId: null,
      actorName: SHOP_ACTOR,
      idempotencyKey: trialDuplicateRefundKey(orderId),
    })
    .onConflictDoNothing();
}

async function decrementStock(tx: DbOrTx, orderId: number, now = new Date().toISOString()) {
  const items = await findOrderItems(orderId, tx);
  for (const item of items) {
    if (item.productId === null) continue;
    const [left] = await paymentWrites(tx).takeStock.execute({ productId: item.productId, quantity: item.quantity, now });
    // Sold out: the public pages say so from now on.
    if (left?.stock === 0) await bumpPageCacheVersion(tx);
  }
}

/** A paid renewal of a subscription: the Stripe invoice that paid it, and when. */
export type PaidRenewal = {
  stripeInvoiceId: string;
  amountCents: number;
  paidAt: string;
  renewalNumber: number;
  /** What the subscription's promotion took off this invoice (0 without one). */
  discountCents?: number;
};

/**
 * A subscription's paid renewal becomes an order of its own, paid, to ship to the
 * subscription's current address, with the pack and amount of the subscription; the stock
 * is decremented once. One order per Stripe invoice: when the invoice already has its order
 * (a replayed or reordered webhook), nothing is written and null is returned.
 */
export async function createRenewalOrderIn(tx: DbOrTx, record: Subscription, renewal: PaidRenewal): Promise<number | null> {
  const [existing] = await tx
    .select({ id: orders.id })
    .from(orders)
    .where(eq(orders.stripeInvoiceId, renewal.stripeInvoiceId))
    .limit(1);
  if (existing) return null;
  const id = await newOrderId(tx);
  // The renewals are made under the terms the subscription was taken out with.
  const first = record.firstOrderId === null ? undefined : await findOrder(record.firstOrderId, tx);
  const name = splitFullName(record.shippingName ?? record.customerName);
  const discountCents = renewal.discountCents ?? 0;
  const inserted = await tx
    .insert(orders)
    .values({
      id,
      status: "pending",
      paymentStatus: "paid",
      paidAt: renewal.paidAt,
      stockDecrementedAt: renewal.paidAt,
      subtotalCents: renewal.amountCents + discountCents,
      shippingCents: 0,
      totalCents: renewal.amountCents,
      // The first order's code, while Stripe's coupon still discounts the renewals.
      promotionId: discountCents > 0 ? (first?.promotionId ?? null) : null,
      promotionCode: discountCents > 0 ? (first?.promotionCode ?? null) : null,
      discountCents,
      userId: record.userId,
      customerEmail: record.customerEmail,
      customerName: record.shippingName ?? record.customerName,
      customerFirstName: name.firstName || null,
      customerLastName: name.lastName || null,
      shippingAddress: record.shippingAddress,
      shippingAddress2: record.shippingAddress2,
      shippingPostalCode: record.shippingPostalCode,
      shippingCity: record.shippingCity,
      shippingCountry: record.shippingCountry,
      shippingPhone: record.shippingPhone,
      isSubscription: true,
      stripeCustomerId: record.stripeCustomerId,
      subscriptionId: record.id,
      stripeInvoiceId: renewal.stripeInvoiceId,
      renewalNumber: renewal.renewalNumber,
      termsVersion: first?.termsVersion ?? null,
    })
    .onConflictDoNothing()
    .returning({ id: orders.id });
  if (inserted.length !== 1) return null;
  const quantity = Math.max(record.quantity, 1);
  await tx.insert(orderItems).values({
    orderId: id,
    productId: record.productId,
    packId: record.packId,
    quantity,
    // The amount of the pack, per pack (the subscription's pack price, unless Stripe charged another amount), before the discount.
    unitPriceCents: Math.round((renewal.amountCents + discountCents) / quantity),
    productName: record.productName,
    variantName: record.variantName,
  });
  await decrementStock(tx, id);
  await issueInvoiceIn(tx, id);
  return id;
}

// ---------------------------------------------------------------------------------------------
// Refunds

export async function findOrderByPaymentIntent(paymentIntentId: string, db: DbOrTx = getDb()): Promise<Order | undefined> {
  return (await db.select().from(orders).where(eq(orders.stripePaymentIntentId, paymentIntentId)).limit(1))[0];
}

/** The refunds of the order that succeeded, in cents. */
export async function succeededRefundCents(tx: DbOrTx, orderId: number): Promise<number> {
  const [row] = await tx
    .select({ total: sql<number>`coalesce(sum(${refunds.amountCents}), 0)`.mapWith(Number) })
    .from(refunds)
    .where(and(eq(refunds.orderId, orderId), eq(refunds.status, "succeeded")))
    .limit(1);
  return row?.total ?? 0;
}

/** What the refunds that succeeded make of a paid order: refunded in full, in part, or not at all. */
export function refundedPaymentStatus(totalCents: number, refundedCents: number): PaymentStatus {
  if (refundedCents <= 0) return "paid";
  return refundedCents >= totalCents ? "refunded" : "partially_refunded";
}

/**
 * Brings the order's payment state in line with its refunds, once a refund's status is recorded
 * (services/payments/refunds.server.ts, in the same transaction): the credit note of a refund that
 * succeeded is issued and its customer told (once per refund, whatever the number of calls), then
 * the order is paid, partially refunded or refunded as the sum of its succeeded refunds says (a
 * refund that failed gives its amount back). Returns the order's payment status.
 */
export async function settleRefundIn(tx: DbOrTx, refund: Refund): Promise<PaymentStatus | null> {
  // The sum of the order's refunds is read then written: its other refunds wait (the one that
  // waited reads every refund committed before it).
  await lockRows(tx, orders, eq(orders.id, refund.orderId));
  const order = await findOrder(refund.orderId, tx);
  if (!order) return null;
  if (!paymentReceived(order.paymentStatus)) return order.paymentStatus;
  const refundedCents = await succeededRefundCents(tx, order.id);
  const next = refundedPaymentStatus(order.totalCents, refundedCents);
  if (next !== order.paymentStatus) {
    await tx.update(orders).set({ paymentStatus: next, updatedAt: new Date().toISOString() }).where(eq(orders.id, order.id));
  }
  if (refund.status === "succeeded") {
    const creditNote = await issueRefundCreditNoteIn(tx, refund);
    await queueOrderRefundedEmail(tx, order.id, {
      refundId: refund.id,
      amountCents: refund.amountCents,
      remainingPaidCents: Math.max(order.totalCents - refundedCents, 0),
      creditNoteNumber: creditNote?.number ?? null,
      note: automaticRefundNote(order, refund.idempotencyKey),
    });
  }
  return next;
}

// ---------------------------------------------------------------------------------------------
// Payment attempts: the Stripe objects an unpaid order is being paid with

/** The one-off attempt: the order's current PaymentIntent. */
export async function recordPaymentIntent(orderId: number, paymentIntentId: string) {
  await paymentWrites(getDb()).recordIntent.execute({ orderId, paymentIntentId, now: new Date().toISOString() });
}

/** The Stripe customer that the order's subscription bills. */
export async function recordStripeCustomer(orderId: number, customerId: string) {
  await getDb().update(orders).set({ stripeCustomerId: customerId }).where(eq(orders.id, orderId));
}

/** The subscription attempt: the order is now paid through this subscription. */
export async function recordSubscription(orderId: number, subscriptionId: string) {
  await getDb().update(orders).set({ stripeSubscriptionId: subscriptionId, isSubscription: true }).where(eq(orders.id, orderId));
}

/** An unpaid subscription that ended or was dropped: the order can start a new payment. */
export async function clearSubscription(orderId: number, db: DbOrTx = getDb()) {
  await db.update(orders).set({ stripeSubscriptionId: null, isSubscription: false }).where(eq(orders.id, orderId));
}
