import { inArray, sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { orders, products, subscriptions, users } from "~/db/schema";
import { countAwaitingPayment, ORDER_PAYMENT_STATUSES, recentOrders } from "./admin-orders.server";
import { countContactRequests } from "./contacts.server";
import { countOpenWithdrawals, listOpenWithdrawals, ordersWithWithdrawal } from "./withdrawals.server";

/**
 * The back office's dashboard: the counts of its cards and the most recent orders (spec: 5).
 * An unpaid checkout is not an order: the orders' card and the recent orders count only the
 * paid ones (or since refunded); the checkouts awaiting payment are counted apart.
 */

const DASHBOARD_RECENT_ORDERS = 5;
/**
 * The orders' card counts up to this and then says « plus de 10 000 »: an exact count reads one
 * index entry per order (100,000 after two years), on every visit of the dashboard.
 */
export const DASHBOARD_ORDERS_COUNT_CAP = 10_000;
/** The withdrawals listed: the oldest, whose refund is due first; the card says how many there are in all. */
const DASHBOARD_WITHDRAWALS = 20;

/** The paid (or since refunded) orders, counted up to `cap`: the count reads no further than `cap` index entries. */
export async function countPaidOrdersUpTo(cap: number): Promise<number> {
  const db = getDb();
  const capped = db
    .select({ one: sql`1` })
    .from(orders)
    .where(inArray(orders.paymentStatus, ORDER_PAYMENT_STATUSES))
    .limit(cap)
    .as("capped");
  const [row] = await db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(capped);
  return row?.n ?? 0;
}

async function dashboardCounts() {
  const db = getDb();
  const count = async (table: typeof users | typeof products) =>
    (
      await db
        .select({ n: sql<number>`count(*)`.mapWith(Number) })
        .from(table)
        .limit(1)
    )[0]?.n ?? 0;
  const contacts = await countContactRequests();
  return {
    users: await count(users),
    products: await count(products),
    /** Past DASHBOARD_ORDERS_COUNT_CAP, cap + 1: the count stops there. */
    orders: await countPaidOrdersUpTo(DASHBOARD_ORDERS_COUNT_CAP + 1),
    awaitingPayment: await countAwaitingPayment(),
    contacts: contacts.total,
    unreadContacts: contacts.unread,
  };
}

/**
 * The subscriptions' figures:
 * - `active`: the subscriptions running, `active` or `past_due` (a renewal failed and Stripe
 *   retries it: the customer still subscribes), `pastDue` being those waiting for a payment;
 * - `recurringCents`: what the next 4-week cycle brings, the amount of every subscription that
 *   will renew (`active` and not ending at its period's end; a past-due one is counted once
 *   paid again).
 */
async function subscriptionFigures() {
  const [row] = await getDb()
    .select({
      active: sql<number>`count(*)`.mapWith(Number),
      pastDue: sql<number>`coalesce(sum(case when ${subscriptions.status} = 'past_due' then 1 else 0 end), 0)`.mapWith(Number),
      recurringCents:
        sql<number>`coalesce(sum(case when ${subscriptions.status} = 'active' and not ${subscriptions.cancelAtPeriodEnd} then ${subscriptions.amountCents} else 0 end), 0)`.mapWith(
          Number,
        ),
    })
    .from(subscriptions)
    .where(inArray(subscriptions.status, ["active", "past_due"]))
    .limit(1);
  return { active: row?.active ?? 0, pastDue: row?.pastDue ?? 0, recurringCents: row?.recurringCents ?? 0 };
}

/** The latest orders, each with whether its customer withdrew (its one final state in the list). */
async function recentOrdersWithWithdrawal() {
  const recent = await recentOrders(DASHBOARD_RECENT_ORDERS);
  const withdrawn = await ordersWithWithdrawal(recent.map((o) => o.id));
  return recent.map((o) => ({
    id: o.id,
    createdAt: o.createdAt,
    totalCents: o.totalCents,
    status: o.status,
    paymentStatus: o.paymentStatus,
    withdrawn: withdrawn.has(o.id),
  }));
}

export async function getDashboard() {
  return {
    counts: await dashboardCounts(),
    subscriptions: await subscriptionFigures(),
    orders: await recentOrdersWithWithdrawal(),
    /** The withdrawals still to refund, the oldest first, with their refund deadline, and how many there are. */
    withdrawals: await listOpenWithdrawals(new Date(), DASHBOARD_WITHDRAWALS),
    withdrawalsTotal: await countOpenWithdrawals(),
  };
}
