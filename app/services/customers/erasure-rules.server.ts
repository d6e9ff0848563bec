import type { Order, Subscription } from "~/db/schema";

/**
 * When a customer's data may be erased: never an administrator's account, nor while a paid order
 * is not shipped or a subscription still charges.
 */

/** What the rules look at: the customer's orders and subscriptions (services/customers/records.server.ts). */
export type CustomerRecords = {
  orders: Pick<Order, "id" | "status" | "paymentStatus">[];
  subscriptions: Pick<Subscription, "id" | "status">[];
};

/** Subscriptions that still charge or may charge: they must be cancelled before an erasure. */
const RUNNING_SUBSCRIPTION = new Set(["active", "past_due"]);

/** What stands in the way of an erasure: each paid order not yet shipped, each running subscription. */
function erasureBlockers(records: CustomerRecords): { path: string; message: string }[] {
  const blockers: { path: string; message: string }[] = [];
  for (const order of records.orders) {
    // Paid, in full or after a partial refund: the rest is still to be shipped.
    const toShip = order.paymentStatus === "paid" || order.paymentStatus === "partially_refunded";
    if (toShip && order.status !== "shipped" && order.status !== "delivered") {
      blockers.push({
        path: `orders.${order.id}`,
        message: `Effacement impossible : la commande n° ${order.id} n'est pas encore expédiée.`,
      });
    }
  }
  for (const subscription of records.subscriptions) {
    if (RUNNING_SUBSCRIPTION.has(subscription.status)) {
      blockers.push({
        path: `subscriptions.${subscription.id}`,
        message: `Effacement impossible : l'abonnement n° ${subscription.id} est actif : résiliez-le d'abord.`,
      });
    }
  }
  return blockers;
}

export const ADMIN_NOT_ERASABLE =
  "Effacement impossible : ce compte est un compte administrateur. Retirez-lui d'abord ses droits d'administrateur.";

/** Why this customer cannot be erased now (the first reason, then every one), or null. */
export function erasureRefusal(
  account: { isAdmin: boolean },
  records: CustomerRecords,
): { message: string; code: string; issues: { path: string; message: string }[] } | null {
  if (account.isAdmin) return { message: ADMIN_NOT_ERASABLE, code: "customer_is_admin", issues: [] };
  const blockers = erasureBlockers(records);
  if (blockers.length === 0) return null;
  const code = blockers[0].path.startsWith("orders.") ? "customer_order_unshipped" : "customer_subscription_active";
  return { message: blockers[0].message, code, issues: blockers };
}
