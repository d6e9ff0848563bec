import { asc, eq, inArray, ne, sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { orders, withdrawalRequests, type Order, type WithdrawalRequest } from "~/db/schema";
import { displayName } from "~/lib/names";
import { paymentReceived } from "~/lib/order-status";
import { withdrawalDeadline, type WithdrawalDeadline } from "~/lib/withdrawal-deadline";
import { parseOrderNumber } from "~/schemas/tracking";
export { WITHDRAWAL_NEUTRAL_MESSAGE } from "~/schemas/withdrawal";
import { queueWithdrawalAckEmail } from "./email/notifications.server";
import { assertNotLimited, withdrawalFailuresByAddress } from "./limits.server";

/**
 * Online withdrawal from the contract (article L. 221-21 du Code de la consommation, its
 * « fonctionnalité de rétractation »): the order number and the checkout email are enough.
 *
 * The request is recorded, and its acknowledgement queued (outbox, same transaction), only for
 * a paid order (or one refunded since) whose email matches, whatever its case and spaces. Every
 * other request (unknown number, wrong email, unpaid order) records nothing and sends nothing,
 * and the page answers all of them with the same neutral text, so the form tells nobody
 * whether an order exists. Those that matched nothing are counted per client address
 * (limits.server.ts): past the limit, a 429 whatever is asked.
 *
 * One request per order: a second one records nothing new and sends no second email.
 */

export const WITHDRAWAL_LIMITED_MESSAGE =
  "Trop de demandes de rétractation sans commande correspondante ont été envoyées depuis votre connexion.";

/** What happened, for the service's callers and tests only: the page says the neutral text for all three. */
export type WithdrawalOutcome = "recorded" | "already_recorded" | "no_match";

const normalizeEmail = (email: string | null | undefined) => (email ?? "").trim().toLowerCase();

/** A paid order (or refunded since) whose checkout email is the one typed. */
function matches(order: Order | undefined, email: string): order is Order {
  const expected = normalizeEmail(order?.customerEmail);
  return !!order && paymentReceived(order.paymentStatus) && expected !== "" && expected === normalizeEmail(email);
}

/**
 * Records the withdrawal of an order and queues its acknowledgement. Throws a ShopError 429
 * when this address has sent too many requests that matched nothing.
 */
export async function requestWithdrawal(
  input: { orderId: number | string; email: string; reason?: string | null },
  access: { address?: string; now?: Date } = {},
): Promise<{ outcome: WithdrawalOutcome }> {
  const address = access.address ?? "unknown";
  await assertNotLimited(withdrawalFailuresByAddress, address, WITHDRAWAL_LIMITED_MESSAGE);
  const orderId = typeof input.orderId === "number" ? input.orderId : parseOrderNumber(input.orderId);
  const reason = input.reason?.trim() || null;
  const requestedAt = (access.now ?? new Date()).toISOString();

  const outcome = await getDb().transaction(async (tx): Promise<WithdrawalOutcome> => {
    const order =
      orderId === null || !Number.isSafeInteger(orderId)
        ? undefined
        : (await tx.select().from(orders).where(eq(orders.id, orderId)).limit(1))[0];
    if (!matches(order, input.email)) return "no_match";
    const inserted = await tx
      .insert(withdrawalRequests)
      .values({ orderId: order.id, requestedAt, reason, email: input.email.trim() })
      .onConflictDoNothing({ target: withdrawalRequests.orderId })
      .returning({ id: withdrawalRequests.id });
    if (inserted.length === 0) return "already_recorded";
    await queueWithdrawalAckEmail(tx, order.id, { requestedAt, reason });
    return "recorded";
  });
  if (outcome === "no_match") await withdrawalFailuresByAddress.hit(address);
  return { outcome };
}

export async function findWithdrawal(orderId: number): Promise<WithdrawalRequest | undefined> {
  return (await getDb().select().from(withdrawalRequests).where(eq(withdrawalRequests.orderId, orderId)).limit(1))[0];
}

/** The orders among `orderIds` that have a withdrawal request (the orders list's badge). */
export async function ordersWithWithdrawal(orderIds: number[]): Promise<Set<number>> {
  if (orderIds.length === 0) return new Set();
  const rows = await getDb()
    .select({ orderId: withdrawalRequests.orderId })
    .from(withdrawalRequests)
    .where(inArray(withdrawalRequests.orderId, orderIds));
  return new Set(rows.map((r) => r.orderId));
}

export type AdminWithdrawal = {
  requestedAt: string;
  reason: string | null;
  email: string;
  /** Whether the order is refunded in full (the request is then settled). */
  refunded: boolean;
} & WithdrawalDeadline;

/** The back office's view of an order's withdrawal (null: none), its refund deadline counted at `now`. */
export async function adminWithdrawal(orderId: number, now: Date = new Date()): Promise<AdminWithdrawal | null> {
  const [row] = await getDb()
    .select({ request: withdrawalRequests, paymentStatus: orders.paymentStatus })
    .from(withdrawalRequests)
    .innerJoin(orders, eq(orders.id, withdrawalRequests.orderId))
    .where(eq(withdrawalRequests.orderId, orderId))
    .limit(1);
  if (!row) return null;
  const { requestedAt, reason, email } = row.request;
  return { requestedAt, reason, email, refunded: row.paymentStatus === "refunded", ...withdrawalDeadline(requestedAt, now) };
}

export type OpenWithdrawal = { orderId: number; customer: string; email: string; requestedAt: string } & WithdrawalDeadline;

/** How many requests are still to refund (their order is not refunded in full). */
export async function countOpenWithdrawals(): Promise<number> {
  const [row] = await getDb()
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(withdrawalRequests)
    .innerJoin(orders, eq(orders.id, withdrawalRequests.orderId))
    .where(ne(orders.paymentStatus, "refunded"));
  return row?.n ?? 0;
}

/** The requests still to refund (their order is not refunded in full), the oldest first (the most urgent): the dashboard's list, `limit` at most. */
export async function listOpenWithdrawals(now: Date = new Date(), limit = 1000): Promise<OpenWithdrawal[]> {
  return (
    await getDb()
      .select({
        orderId: withdrawalRequests.orderId,
        requestedAt: withdrawalRequests.requestedAt,
        email: withdrawalRequests.email,
        customerName: orders.customerName,
        customerFirstName: orders.customerFirstName,
        customerLastName: orders.customerLastName,
        customerEmail: orders.customerEmail,
      })
      .from(withdrawalRequests)
      .innerJoin(orders, eq(orders.id, withdrawalRequests.orderId))
      .where(ne(orders.paymentStatus, "refunded"))
      .orderBy(asc(withdrawalRequests.requestedAt), asc(withdrawalRequests.id))
      .limit(limit)
  ).map((r) => ({
    orderId: r.orderId,
    customer:
      displayName({ firstName: r.customerFirstName, lastName: r.customerLastName }) ||
      r.customerName?.trim() ||
      r.customerEmail ||
      r.email,
    email: r.customerEmail || r.email,
    requestedAt: r.requestedAt,
    ...withdrawalDeadline(r.requestedAt, now),
  }));
}

/** The withdrawals of these orders in the JSON API's shape, by order id, in one query (an order without one is absent). */
export async function withdrawalsToApi(orderIds: number[], now: Date = new Date()) {
  const found = new Map<number, NonNullable<Awaited<ReturnType<typeof withdrawalToApi>>>>();
  if (orderIds.length === 0) return found;
  const rows = await getDb().select().from(withdrawalRequests).where(inArray(withdrawalRequests.orderId, orderIds));
  for (const row of rows) {
    found.set(row.orderId, {
      requestedAt: new Date(row.requestedAt).toISOString(),
      reason: row.reason,
      email: row.email,
      ...(({ deadline, daysLeft }) => ({ refundDeadline: deadline, daysLeft }))(withdrawalDeadline(row.requestedAt, now)),
    });
  }
  return found;
}

/** The withdrawal in the JSON API's order (null: none). */
export async function withdrawalToApi(orderId: number, now: Date = new Date()) {
  const found = await adminWithdrawal(orderId, now);
  if (!found) return null;
  return {
    requestedAt: new Date(found.requestedAt).toISOString(),
    reason: found.reason,
    email: found.email,
    refundDeadline: found.deadline,
    daysLeft: found.daysLeft,
  };
}

/** For tests. */
export async function resetWithdrawalRateLimit() {
  await withdrawalFailuresByAddress.clear();
}
