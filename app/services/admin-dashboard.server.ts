import { sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { orders, products, users, type PaymentStatus } from "~/db/schema";
import { recentOrders } from "./admin-orders.server";
import { countContactRequests } from "./contacts.server";

/** The back office's dashboard: the counts of its cards and the most recent orders (spec: 5). */

const DASHBOARD_RECENT_ORDERS = 5;

/**
 * 'En traitement' on the dashboard: an order still waiting for its payment. A paid order reads
 * 'Payée'; a failed or refunded one shows that payment state, never 'En traitement'.
 */
export function isInProgress(order: { paymentStatus: PaymentStatus }): boolean {
  return order.paymentStatus === "unpaid";
}

function dashboardCounts() {
  const db = getDb();
  const count = (table: typeof users | typeof products | typeof orders) =>
    db.select({ n: sql<number>`count(*)` }).from(table).get()?.n ?? 0;
  const contacts = countContactRequests();
  return {
    users: count(users),
    products: count(products),
    orders: count(orders),
    contacts: contacts.total,
    unreadContacts: contacts.unread,
  };
}

export function getDashboard() {
  return {
    counts: dashboardCounts(),
    orders: recentOrders(DASHBOARD_RECENT_ORDERS).map((o) => ({
      id: o.id,
      createdAt: o.createdAt,
      totalCents: o.totalCents,
      paymentStatus: o.paymentStatus,
      inProgress: isInProgress(o),
    })),
  };
}
