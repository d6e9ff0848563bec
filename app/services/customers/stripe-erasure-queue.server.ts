import { and, desc, eq, inArray, lte } from "drizzle-orm";
import type Stripe from "stripe";
import { getDb, type DbOrTx } from "~/db/client.server";
import { auditLog, orders, stripeErasures, subscriptions } from "~/db/schema";
import type { StripeErasureResult } from "~/lib/audit";
import { log } from "~/log.server";
import { getStripe } from "~/services/stripe.server";
import type { AuditActor } from "./audit.server";
import type { RecordIds } from "./records.server";
import { eraseAtStripe, stripeFailureLabel, type StripeIds } from "./stripe-erasure.server";

/**
 * The Stripe part of an erasure, made durable: a row of `stripe_erasures` written in the
 * erasure's transaction (so the database's erasure never waits on Stripe, and is never lost
 * when Stripe fails), tried right after the transaction, then by the scheduler
 * (subscriptions/scheduler.server.ts) until Stripe has answered for every id. The back office
 * shows it pending (« Effacement chez Stripe en attente ») with the attempts and why the last
 * one failed; once done, the audit log gets a `customer.erase_stripe` line with the counts.
 */

/** The wait after the n-th failed attempt (then an hour each time): Stripe is never given up on. */
const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 15 * 60_000, 60 * 60_000];
/** The attempt made right after the erasure answers the administrator: one try, 8 s at most per call; the scheduler does the rest. */
const IMMEDIATE_OPTIONS: Stripe.RequestOptions = { timeout: 8_000, maxNetworkRetries: 0 };

export type StripeErasureRow = typeof stripeErasures.$inferSelect;

const unique = (values: (string | null)[]) => [...new Set(values.filter((v): v is string => !!v))].sort();

/** The Stripe customers and PaymentIntents of the customer's orders and subscriptions. */
export async function stripeIdsOf(tx: DbOrTx, ids: RecordIds): Promise<StripeIds> {
  const orderRows = ids.orderIds.length
    ? await tx
        .select({ customer: orders.stripeCustomerId, intent: orders.stripePaymentIntentId })
        .from(orders)
        .where(inArray(orders.id, ids.orderIds))
    : [];
  const subscriptionRows = ids.subscriptionIds.length
    ? await tx
        .select({ customer: subscriptions.stripeCustomerId })
        .from(subscriptions)
        .where(inArray(subscriptions.id, ids.subscriptionIds))
    : [];
  return {
    customerIds: unique([...orderRows.map((r) => r.customer), ...subscriptionRows.map((r) => r.customer)]),
    paymentIntentIds: unique(orderRows.map((r) => r.intent)),
  };
}

/**
 * Queues the Stripe part of an erasure, in its transaction; null when the customer has nothing
 * at Stripe. A pending one for the same customer is reused (erasing again adds nothing).
 */
export async function queueStripeErasure(
  tx: DbOrTx,
  subjectId: number,
  actor: AuditActor,
  stripeIds: StripeIds,
  now = new Date(),
): Promise<StripeErasureRow | null> {
  if (stripeIds.customerIds.length === 0 && stripeIds.paymentIntentIds.length === 0) return null;
  const pending = (
    await tx
      .select()
      .from(stripeErasures)
      .where(and(eq(stripeErasures.subjectId, subjectId), eq(stripeErasures.status, "pending")))
      .limit(1)
  )[0];
  if (pending) return pending;
  const rows = await tx
    .insert(stripeErasures)
    .values({
      subjectId,
      actorId: actor.id,
      actorUsername: actor.username,
      customerIds: stripeIds.customerIds,
      paymentIntentIds: stripeIds.paymentIntentIds,
      createdAt: now.toISOString(),
      // The attempt made right after the transaction goes first; the scheduler only after it.
      nextAttemptAt: new Date(now.getTime() + RETRY_DELAYS_MS[0]).toISOString(),
    })
    .returning();
  return rows[0];
}

async function markDone(row: StripeErasureRow, result: StripeErasureResult, now: Date) {
  await getDb().transaction(async (tx) => {
    const done = await tx
      .update(stripeErasures)
      .set({
        status: "done",
        attempts: row.attempts + 1,
        lastAttemptAt: now.toISOString(),
        doneAt: now.toISOString(),
        lastError: null,
        result,
      })
      .where(and(eq(stripeErasures.id, row.id), eq(stripeErasures.status, "pending")))
      .returning({ id: stripeErasures.id });
    // Another process finished it meanwhile: its audit line is already written.
    if (done.length === 0) return;
    await tx.insert(auditLog).values({
      actorId: row.actorId,
      actorUsername: row.actorUsername,
      action: "customer.erase_stripe",
      subjectId: row.subjectId,
      details: { stripe: { ...result, attempts: row.attempts + 1 } },
    });
  });
}

async function markFailed(row: StripeErasureRow, error: unknown, now: Date) {
  const delay = RETRY_DELAYS_MS[Math.min(row.attempts, RETRY_DELAYS_MS.length - 1)];
  await getDb()
    .update(stripeErasures)
    .set({
      attempts: row.attempts + 1,
      lastAttemptAt: now.toISOString(),
      nextAttemptAt: new Date(now.getTime() + delay).toISOString(),
      lastError: stripeFailureLabel(error),
    })
    .where(and(eq(stripeErasures.id, row.id), eq(stripeErasures.status, "pending")));
}

/**
 * One attempt at the Stripe part: done (with its audit line) when Stripe answered for every id,
 * else the failure is recorded with the time of the next attempt. Never throws for Stripe: the
 * database's erasure is already committed.
 */
export async function attemptStripeErasure(
  row: StripeErasureRow,
  options: { now?: Date; requestOptions?: Stripe.RequestOptions } = {},
): Promise<boolean> {
  const now = options.now ?? new Date();
  try {
    const stripe = await getStripe();
    const result = await eraseAtStripe(
      stripe,
      { customerIds: row.customerIds, paymentIntentIds: row.paymentIntentIds },
      row.subjectId,
      options.requestOptions,
    );
    await markDone(row, result, now);
    return true;
  } catch (error) {
    log.warn(`Effacement chez Stripe n° ${row.id} en attente : ${stripeFailureLabel(error)}`);
    await markFailed(row, error, now);
    return false;
  }
}

/** The attempt right after the erasure, bounded so the administrator's page answers quickly. */
export async function attemptStripeErasureNow(row: StripeErasureRow): Promise<boolean> {
  return attemptStripeErasure(row, { requestOptions: IMMEDIATE_OPTIONS });
}

/** The scheduler's part: every pending Stripe erasure whose next attempt is due. Answers how many were done. */
export async function retryDueStripeErasures(now = new Date()): Promise<number> {
  const due = await getDb()
    .select()
    .from(stripeErasures)
    .where(and(eq(stripeErasures.status, "pending"), lte(stripeErasures.nextAttemptAt, now.toISOString())))
    .orderBy(stripeErasures.nextAttemptAt)
    .limit(20);
  let done = 0;
  for (const row of due) if (await attemptStripeErasure(row, { now })) done++;
  return done;
}

/** The customer's latest Stripe erasure, as the back office shows it, or null. */
export async function latestStripeErasure(db: DbOrTx, subjectId: number) {
  const row = (
    await db
      .select()
      .from(stripeErasures)
      .where(eq(stripeErasures.subjectId, subjectId))
      .orderBy(desc(stripeErasures.createdAt), desc(stripeErasures.id))
      .limit(1)
  )[0];
  if (!row) return null;
  return {
    status: row.status,
    customers: row.customerIds.length,
    paymentIntents: row.paymentIntentIds.length,
    attempts: row.attempts,
    lastAttemptAt: row.lastAttemptAt,
    nextAttemptAt: row.status === "pending" ? row.nextAttemptAt : null,
    lastError: row.lastError,
    doneAt: row.doneAt,
    result: row.result,
  };
}

export type StripeErasureView = NonNullable<Awaited<ReturnType<typeof latestStripeErasure>>>;
