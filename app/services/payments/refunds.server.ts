import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type Stripe from "stripe";
import { getDb, type DbOrTx } from "~/db/client.server";
import { lockRows } from "~/db/locks.server";
import { prepared } from "~/db/prepared.server";
import { invoices, orders, refunds, type Order, type Refund, type RefundStatus } from "~/db/schema";
import { parseIdOrNull } from "~/lib/ids";
import { centsToDecimal, formatPrice } from "~/lib/money";
import { displayName } from "~/lib/names";
import { ShopError } from "~/lib/shop-error";
import { REFUND_REASON_MAX } from "~/schemas/refund";
import { isStripeError, toShopError } from "~/services/stripe-errors.server";
import { getStripe } from "~/services/stripe.server";
import {
  findOrderByPaymentIntent,
  settleRefundIn,
  succeededRefundCents,
  TRIAL_DUPLICATE_REFUND_REASON,
  trialDuplicateRefundKey,
} from "./payment-state.server";
import { findOrder } from "~/services/orders/find.server";
import { notifyOwnerOfStripeRefund } from "~/services/email/owner-notifications.server";
import { log } from "~/log.server";
import { isDuplicatePaymentRefund } from "./duplicate-payment.server";
import { PROMOTION_REFUSED_REFUND_REASON, promotionRefundKey } from "~/services/promotions/redeem.server";

/**
 * Refunds of paid orders, through Stripe's Refunds API, and the reconciliation of the refunds
 * Stripe tells us about (webhooks), whoever made them.
 *
 * A refund from the back office never happens twice: its amount is first reserved here (a
 * pending row, with the request's idempotency key, in a transaction that checks what remains
 * to refund), then Stripe is asked with that key, then its answer is recorded. A second request
 * with the same key gets the first one's refund, never a second one at Stripe; a Stripe refusal
 * releases the reservation (the row is failed). A refund made at Stripe (its dashboard) reaches
 * the order through its webhook, once: the unique Stripe id and the recorded events say so.
 * The order's payment state follows the sum of the refunds that succeeded
 * (payments/payment-state.server.ts, the only writer of that state).
 */

export const STRIPE_ACTOR = "Stripe";
export const STRIPE_REFUND_REASON = "Remboursement effectué depuis Stripe";

export const REFUND_STATUS_LABELS: Record<RefundStatus, string> = {
  pending: "En cours",
  succeeded: "Effectué",
  failed: "Échoué",
};

const NOT_PAID_MESSAGE = "Cette commande n'a pas été payée : il n'y a rien à rembourser.";
const ALREADY_REFUNDED_MESSAGE = "Cette commande est déjà entièrement remboursée : il n'y a plus rien à rembourser.";
const NOTHING_LEFT_MESSAGE = "Il ne reste rien à rembourser sur cette commande (un remboursement est peut-être en cours).";
const NO_PAYMENT_INTENT_MESSAGE =
  "Cette commande a été payée par abonnement : son remboursement se fait depuis le tableau de bord Stripe, il apparaîtra ici automatiquement.";
const REASON_MESSAGE = "Indiquez le motif du remboursement.";
const REASON_TOO_LONG_MESSAGE = `Le motif ne doit pas dépasser ${REFUND_REASON_MAX} caractères.`;
const AMOUNT_POSITIVE_MESSAGE = "Le montant à rembourser doit être supérieur à 0,00€.";
const KEY_OTHER_ORDER_MESSAGE = "Cette demande de remboursement a déjà servi pour une autre commande : rechargez la page.";
const STRIPE_REFUSED_MESSAGE =
  "Stripe a refusé ce remboursement : aucun montant n'a été remboursé. Vérifiez le paiement dans le tableau de bord Stripe.";
const STRIPE_TOO_LARGE_MESSAGE =
  "Stripe indique que ce montant dépasse ce qu'il reste à rembourser sur ce paiement : aucun montant n'a été remboursé.";

export const amountTooLargeMessage = (remainingCents: number) =>
  `Le montant dépasse ce qu'il reste à rembourser (${formatPrice(remainingCents)}).`;

/** Who makes a refund from the back office: the administrator, by id and as named then. */
export type RefundActor = { userId: number | null; name: string };

export function refundActorOf(admin: {
  id: number;
  username: string;
  firstName?: string | null;
  lastName?: string | null;
}): RefundActor {
  return { userId: admin.id, name: displayName(admin) ?? admin.username };
}

export type RefundRequest = {
  orderId: number;
  /** In cents; absent or null: all that remains to refund. */
  amountCents?: number | null;
  reason: string;
  actor: RefundActor;
  /** One per refund form shown (or API request): a double submit or a replay reuses it. */
  idempotencyKey: string;
};

export type RefundResult = { refund: Refund; order: Order; replayed: boolean };

// ---------------------------------------------------------------------------------------------
// Reading

export async function listOrderRefunds(orderId: number, db: DbOrTx = getDb()): Promise<Refund[]> {
  return await db.select().from(refunds).where(eq(refunds.orderId, orderId)).orderBy(asc(refunds.createdAt), asc(refunds.id));
}

/** Refunds that succeeded, and those still pending (reserved). */
async function reservedCents(tx: DbOrTx, orderId: number): Promise<number> {
  const [row] = await tx
    .select({ total: sql<number>`coalesce(sum(${refunds.amountCents}), 0)`.mapWith(Number) })
    .from(refunds)
    .where(and(eq(refunds.orderId, orderId), inArray(refunds.status, ["pending", "succeeded"])))
    .limit(1);
  return row?.total ?? 0;
}

/** What can still be refunded: the total less the refunds that succeeded or are under way. */
export async function remainingRefundableCents(order: Pick<Order, "id" | "totalCents">, db: DbOrTx = getDb()): Promise<number> {
  return Math.max(order.totalCents - (await reservedCents(db, order.id)), 0);
}

/** The order's refunds as the pages show them, with the number of each one's credit note. */
export async function getOrderRefunds(order: Pick<Order, "id" | "totalCents" | "paymentStatus">) {
  const db = getDb();
  const rows = await listOrderRefunds(order.id, db);
  const notes = await db
    .select({ refundId: invoices.refundId, number: invoices.number })
    .from(invoices)
    .where(eq(invoices.orderId, order.id));
  const refundedCents = await succeededRefundCents(db, order.id);
  return {
    refunds: rows.map((r) => ({
      id: r.id,
      createdAt: r.createdAt,
      amountCents: r.amountCents,
      reason: r.reason,
      status: r.status,
      actorName: r.actorName,
      stripeRefundId: r.stripeRefundId,
      failureMessage: r.failureMessage,
      creditNoteNumber: notes.find((n) => n.refundId === r.id)?.number ?? null,
    })),
    refundedCents,
    remainingCents: await remainingRefundableCents(order, db),
    refundable: order.paymentStatus === "paid" || order.paymentStatus === "partially_refunded",
  };
}

export type OrderRefunds = Awaited<ReturnType<typeof getOrderRefunds>>;
export type OrderRefundView = OrderRefunds["refunds"][number];

/** A refund in the JSON API (amounts as decimal strings). */
export function refundToApi(refund: OrderRefundView) {
  return {
    id: refund.id,
    createdAt: refund.createdAt,
    amount: centsToDecimal(refund.amountCents),
    reason: refund.reason,
    status: refund.status,
    by: refund.actorName,
    stripeRefundId: refund.stripeRefundId,
    creditNoteNumber: refund.creditNoteNumber,
    failureMessage: refund.failureMessage,
  };
}

// ---------------------------------------------------------------------------------------------
// Refunding from the back office

function assertRefundable(order: Order) {
  if (order.paymentStatus === "refunded") throw new ShopError(409, "order_refunded", ALREADY_REFUNDED_MESSAGE);
  if (order.paymentStatus !== "paid" && order.paymentStatus !== "partially_refunded")
    throw new ShopError(409, "order_not_paid", NOT_PAID_MESSAGE);
  if (!order.stripePaymentIntentId) throw new ShopError(409, "refund_unavailable", NO_PAYMENT_INTENT_MESSAGE);
}

/** The reservation: the same key's refund (a replay), or a new pending row for the amount asked. */
async function reserve(
  request: RefundRequest,
  reason: string,
): Promise<{ refund: Refund; replayed: boolean; paymentIntentId: string }> {
  return await getDb().transaction(async (tx) => {
    // What remains to refund is read then reserved: the order's other refunds wait meanwhile.
    await lockRows(tx, orders, eq(orders.id, request.orderId));
    const order = await findOrder(request.orderId, tx);
    if (!order) throw new ShopError(404, "order_not_found", "Commande introuvable");
    const [previous] = await tx.select().from(refunds).where(eq(refunds.idempotencyKey, request.idempotencyKey)).limit(1);
    if (previous) {
      if (previous.orderId !== order.id) throw new ShopError(409, "idempotency_key_reused", KEY_OTHER_ORDER_MESSAGE);
      if (previous.status === "failed") {
        throw new ShopError(
          409,
          "refund_failed",
          `Ce remboursement a déjà échoué : ${previous.failureMessage ?? STRIPE_REFUSED_MESSAGE} Rechargez la page pour en faire un nouveau.`,
        );
      }
      return { refund: previous, replayed: true, paymentIntentId: order.stripePaymentIntentId ?? "" };
    }
    assertRefundable(order);
    const remaining = await remainingRefundableCents(order, tx);
    if (remaining <= 0) throw new ShopError(409, "nothing_to_refund", NOTHING_LEFT_MESSAGE);
    const amount = request.amountCents ?? remaining;
    if (!Number.isInteger(amount) || amount <= 0)
      throw new ShopError(422, "invalid_amount", AMOUNT_POSITIVE_MESSAGE, { field: "amount" });
    if (amount > remaining) throw new ShopError(422, "amount_too_large", amountTooLargeMessage(remaining), { field: "amount" });
    const [refund] = await tx
      .insert(refunds)
      .values({
        orderId: order.id,
        amountCents: amount,
        reason,
        status: "pending",
        actorUserId: request.actor.userId,
        actorName: request.actor.name,
        idempotencyKey: request.idempotencyKey,
      })
      .returning();
    return { refund, replayed: false, paymentIntentId: order.stripePaymentIntentId! };
  });
}

function checkReason(value: string): string {
  const reason = value.trim();
  if (!reason) throw new ShopError(422, "invalid_reason", REASON_MESSAGE, { field: "reason" });
  if (reason.length > REFUND_REASON_MAX) throw new ShopError(422, "invalid_reason", REASON_TOO_LONG_MESSAGE, { field: "reason" });
  return reason;
}

/** Stripe's statuses (pending, requires_action, succeeded, failed, canceled) as ours. */
export function refundStatusOf(status: string | null | undefined): RefundStatus {
  if (status === "succeeded") return "succeeded";
  if (status === "failed" || status === "canceled") return "failed";
  return "pending";
}

/** Why Stripe refused the refund, in French. */
function refusalOf(error: unknown): ShopError {
  const known = toShopError(error);
  if (known) return known;
  const code = isStripeError(error) ? error.code : undefined;
  if (code === "charge_already_refunded" || code === "amount_too_large")
    return new ShopError(409, "refund_refused", STRIPE_TOO_LARGE_MESSAGE, { field: "amount" });
  return new ShopError(409, "refund_refused", STRIPE_REFUSED_MESSAGE);
}

/**
 * Records Stripe's answer about one of our refunds (its id, its status) and brings the order in
 * line; the webhook may have recorded it already, which changes nothing.
 */
async function recordStripeAnswer(
  refundId: number,
  stripeRefund: Pick<Stripe.Refund, "id" | "status" | "failure_reason">,
): Promise<Refund> {
  return await getDb().transaction(async (tx) => {
    const status = refundStatusOf(stripeRefund.status);
    // The order first, then its refund: the webhook about the same refund waits meanwhile.
    await lockRefundOrder(tx, refundId);
    const before = (await tx.select().from(refunds).where(eq(refunds.id, refundId)).limit(1))[0]!;
    // The webhook knows better when it has already moved the refund on.
    const next = before.stripeRefundId === stripeRefund.id && before.status !== "pending" ? before.status : status;
    const [refund] = await tx
      .update(refunds)
      .set({
        stripeRefundId: stripeRefund.id,
        status: next,
        failureMessage: next === "failed" ? failureMessageOf(stripeRefund.failure_reason) : before.failureMessage,
      })
      .where(eq(refunds.id, refundId))
      .returning();
    await settleRefundIn(tx, refund);
    return refund;
  });
}

function failureMessageOf(reason: string | null | undefined): string {
  return reason ? `${STRIPE_REFUSED_MESSAGE} (motif Stripe : ${reason})` : STRIPE_REFUSED_MESSAGE;
}

/**
 * Refunds the order, in part or in full (all that remains by default). Throws a French ShopError:
 * 404 unknown order, 409 unpaid or already refunded order, 422 bad amount (more than what remains,
 * with that amount) or reason, 409/503 when Stripe refuses or cannot be reached (the
 * reservation is then released).
 */
export async function refundOrder(request: RefundRequest): Promise<RefundResult> {
  const reason = checkReason(request.reason);
  const idempotencyKey = request.idempotencyKey.trim();
  if (!idempotencyKey)
    throw new ShopError(422, "invalid_idempotency_key", "La demande de remboursement n'a pas de clé : rechargez la page.");
  const { refund, replayed, paymentIntentId } = await reserve({ ...request, idempotencyKey }, reason);
  if (replayed) return { refund, order: (await findOrder(refund.orderId))!, replayed };

  let created: Stripe.Refund;
  try {
    const stripe = await getStripe();
    created = await stripe.refunds.create(
      {
        payment_intent: paymentIntentId,
        amount: refund.amountCents,
        metadata: { orderId: String(refund.orderId), refundId: String(refund.id) },
      },
      { idempotencyKey: `refund-${idempotencyKey}` },
    );
  } catch (error) {
    const refusal = refusalOf(error);
    await getDb()
      .update(refunds)
      .set({ status: "failed", failureMessage: refusal.message })
      .where(and(eq(refunds.id, refund.id), eq(refunds.status, "pending")));
    throw refusal;
  }
  const recorded = await recordStripeAnswer(refund.id, created);
  return { refund: recorded, order: (await findOrder(recorded.orderId))!, replayed: false };
}

// ---------------------------------------------------------------------------------------------
// The automatic refund of a trial pack bought twice

/** The automatic refunds not asked of Stripe yet: read after every paid order, so prepared once per handle. */
const pendingAutomaticRefunds = (db: DbOrTx) =>
  db
    .select()
    .from(refunds)
    .where(
      and(
        eq(refunds.status, "pending"),
        inArray(refunds.reason, [TRIAL_DUPLICATE_REFUND_REASON, PROMOTION_REFUSED_REFUND_REASON]),
      ),
    )
    .prepare();

/**
 * Asks Stripe for the refunds reserved when a second trial pack of one email was paid
 * (payment-state.server.ts): each pending one, once (Stripe's idempotency key is the order's).
 * Called after every payment confirmation and webhook; one that fails stays pending and is
 * asked again the next time. Returns the order ids refunded now.
 */
export async function refundTrialDuplicates(): Promise<number[]> {
  const db = getDb();
  const pending = await prepared(db, "pendingAutomaticRefunds", pendingAutomaticRefunds).execute();
  const done: number[] = [];
  for (const refund of pending) {
    const automatic = [trialDuplicateRefundKey(refund.orderId), promotionRefundKey(refund.orderId)];
    if (refund.stripeRefundId || !automatic.includes(refund.idempotencyKey ?? "")) continue;
    const order = await findOrder(refund.orderId, db);
    if (!order || (!order.stripePaymentIntentId && !(order.isSubscription && order.stripeSubscriptionId))) continue;
    try {
      const stripe = await getStripe();
      // A subscription's first payment: the subscription is cancelled (no renewal is ever charged),
      // and its first invoice's payment is the one refunded.
      const paymentIntentId =
        order.stripePaymentIntentId ?? (await cancelAndFindFirstPayment(stripe, order.stripeSubscriptionId!));
      if (!paymentIntentId) continue;
      const created = await stripe.refunds.create(
        {
          payment_intent: paymentIntentId,
          amount: refund.amountCents,
          reason: "duplicate",
          metadata: { orderId: String(order.id), refundId: String(refund.id) },
        },
        { idempotencyKey: `refund-${refund.idempotencyKey}` },
      );
      await recordStripeAnswer(refund.id, created);
      done.push(order.id);
    } catch (error) {
      log.warn({ err: error, orderId: order.id }, "Automatic refund not made yet: retried at the next attempt");
    }
  }
  return done;
}

/**
 * The subscription of a first payment that cannot be honoured is cancelled at Stripe (at once,
 * nothing prorated), and the PaymentIntent that paid its first invoice is returned, or null when
 * Stripe has none paid yet (asked again next time).
 */
async function cancelAndFindFirstPayment(stripe: Stripe, subscriptionId: string): Promise<string | null> {
  const sub = await stripe.subscriptions.retrieve(subscriptionId);
  if (sub.status !== "canceled" && sub.status !== "incomplete_expired") await stripe.subscriptions.cancel(subscriptionId);
  const invoices = await stripe.invoices.list({ subscription: subscriptionId, limit: 100, expand: ["data.payments"] });
  const first = invoices.data.find((invoice) => invoice.billing_reason === "subscription_create");
  for (const payment of first?.payments?.data ?? []) {
    const pi = payment.payment?.payment_intent;
    if (payment.status === "paid" && pi) return typeof pi === "string" ? pi : pi.id;
  }
  return null;
}

/** Whether the order was refunded on its own because its email had already bought the trial pack. */
export async function hasTrialDuplicateRefund(orderId: number): Promise<boolean> {
  const [row] = await getDb()
    .select({ id: refunds.id })
    .from(refunds)
    .where(eq(refunds.idempotencyKey, trialDuplicateRefundKey(orderId)))
    .limit(1);
  return Boolean(row);
}

// ---------------------------------------------------------------------------------------------
// Reconciling Stripe's refunds (webhooks)

/**
 * Locks the order of a refund (SELECT … FOR UPDATE), before the refund is read then written: the
 * writes about an order's refunds (the back office, Stripe's answer, the webhooks) take the order
 * first, then the refund, one after the other.
 */
async function lockRefundOrder(tx: DbOrTx, refundId: number) {
  await lockRows(tx, orders, sql`${orders.id} = (SELECT ${refunds.orderId} FROM ${refunds} WHERE ${refunds.id} = ${refundId})`);
}

/** A refund as Stripe's webhooks give it (the refund object, or an item of a charge's `refunds`). */
export type StripeRefundLike = Pick<Stripe.Refund, "id" | "amount" | "status" | "metadata" | "failure_reason"> & {
  payment_intent?: string | { id: string } | null;
};

function idOf(value: string | { id: string } | null | undefined): string | null {
  return typeof value === "string" ? value : (value?.id ?? null);
}

/**
 * Records one of Stripe's refunds, once, and brings its order in line: ours (known by its Stripe
 * id, or by the refund id in its metadata) gets Stripe's status; one made at Stripe is added,
 * made by « Stripe ». Returns whether anything changed. `order` is the order of the charge, when
 * the caller knows it.
 */
export async function reconcileStripeRefundIn(tx: DbOrTx, stripeRefund: StripeRefundLike, order?: Order): Promise<boolean> {
  // The refund of a second payment of an order (duplicate-payment.server.ts) is not the order's refund.
  if (isDuplicatePaymentRefund(stripeRefund.metadata)) return false;
  const status = refundStatusOf(stripeRefund.status);
  const failureMessage = status === "failed" ? failureMessageOf(stripeRefund.failure_reason) : null;
  let [known] = await tx.select().from(refunds).where(eq(refunds.stripeRefundId, stripeRefund.id)).limit(1);
  if (!known) {
    const ownId = parseIdOrNull(stripeRefund.metadata?.refundId);
    const own = ownId === null ? undefined : (await tx.select().from(refunds).where(eq(refunds.id, ownId)).limit(1))[0];
    if (own && own.stripeRefundId === null && (!order || own.orderId === order.id)) known = own;
  }
  if (known) {
    await lockRefundOrder(tx, known.id);
    known = (await tx.select().from(refunds).where(eq(refunds.id, known.id)).limit(1))[0]!;
    if (known.stripeRefundId === stripeRefund.id && known.status === status) return false;
    const [refund] = await tx
      .update(refunds)
      .set({
        stripeRefundId: stripeRefund.id,
        status,
        failureMessage: failureMessage ?? known.failureMessage,
        amountCents: known.stripeRefundId ? known.amountCents : stripeRefund.amount,
      })
      .where(eq(refunds.id, known.id))
      .returning();
    await settleRefundIn(tx, refund);
    await notifyOwnerIfMadeAtStripe(tx, refund);
    return true;
  }
  const target =
    order ??
    (await (async () => {
      const orderId = parseIdOrNull(stripeRefund.metadata?.orderId);
      const byMetadata = orderId === null ? undefined : await findOrder(orderId, tx);
      const paymentIntentId = idOf(stripeRefund.payment_intent);
      return byMetadata ?? (paymentIntentId ? await findOrderByPaymentIntent(paymentIntentId, tx) : undefined);
    })());
  if (!target || stripeRefund.amount <= 0) return false;
  await lockRows(tx, orders, eq(orders.id, target.id));
  const [inserted] = await tx
    .insert(refunds)
    .values({
      orderId: target.id,
      amountCents: stripeRefund.amount,
      reason: STRIPE_REFUND_REASON,
      stripeRefundId: stripeRefund.id,
      status,
      actorUserId: null,
      actorName: STRIPE_ACTOR,
      idempotencyKey: `stripe:${stripeRefund.id}`,
      failureMessage,
    })
    .onConflictDoNothing()
    .returning();
  if (!inserted) return false;
  await settleRefundIn(tx, inserted);
  await notifyOwnerIfMadeAtStripe(tx, inserted);
  return true;
}

/** A refund made at Stripe, not from the back office, that succeeded: the owner is told (once per refund). */
async function notifyOwnerIfMadeAtStripe(tx: DbOrTx, refund: Refund) {
  if (refund.actorName !== STRIPE_ACTOR || refund.actorUserId !== null || refund.status !== "succeeded") return;
  const order = await findOrder(refund.orderId, tx);
  if (!order) return;
  const refundedCents = await succeededRefundCents(tx, order.id);
  await notifyOwnerOfStripeRefund(tx, order.id, {
    refundId: refund.id,
    amountCents: refund.amountCents,
    remainingPaidCents: Math.max(order.totalCents - refundedCents, 0),
  });
}
