import { paymentReceived } from "~/lib/order-status";
import { and, desc, eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { emails, orders } from "~/db/schema";
import { subscriptionLink, subscriptionLinkQuery } from "~/services/subscription-link.server";
import { findSubscription, findSubscriptionByStripeId } from "./record.server";
import { stateOf, type SubscriptionPageState } from "./customer-page.server";

/**
 * What the order confirmation page says about the subscription a paid order started (or
 * renewed): that it is active, what each renewal charges and when the next one is, that the
 * confirmation email went out, and where to cancel online. The private page's signed link
 * only for the order's owner (their browser, the order token or the email's link): anyone
 * else gets the online cancellation form, which asks for the order's email.
 */
export type OrderSubscriptionView = {
  state: SubscriptionPageState;
  /** What each renewal charges (cents). */
  amountCents: number;
  /** The next charge (ISO), or null when none is coming. */
  nextChargeAt: string | null;
  /** When it ended or ends (ISO), for a cancelled or ending subscription. */
  endsAt: string | null;
  /** The subscription's private page (its signed link: a path of this site), for the owner only. */
  managePath: string | null;
  /** The online cancellation form, the order number prefilled. */
  cancelPath: string;
  /** The confirmation email: queued or sent, and to whom (the address for the owner only). */
  confirmationEmail: { sent: boolean; to: string | null } | null;
};

export async function orderSubscriptionView(
  orderId: number,
  owner: boolean,
  now: Date = new Date(),
): Promise<OrderSubscriptionView | null> {
  const db = getDb();
  const [order] = await db
    .select({
      id: orders.id,
      isSubscription: orders.isSubscription,
      paymentStatus: orders.paymentStatus,
      subscriptionId: orders.subscriptionId,
      stripeSubscriptionId: orders.stripeSubscriptionId,
      customerEmail: orders.customerEmail,
    })
    .from(orders)
    .where(eq(orders.id, orderId))
    .limit(1);
  if (!order || !paymentReceived(order.paymentStatus)) return null;
  const record =
    (order.subscriptionId !== null ? await findSubscription(db, order.subscriptionId) : undefined) ??
    (order.isSubscription && order.stripeSubscriptionId
      ? await findSubscriptionByStripeId(db, order.stripeSubscriptionId)
      : undefined);
  if (!record) return null;
  const state = stateOf(record);
  const ongoing = state === "active" || state === "past_due" || state === "incomplete";
  const [email] = await db
    .select({ status: emails.status, to: emails.toAddress })
    .from(emails)
    .where(and(eq(emails.orderId, order.id), eq(emails.kind, "order_confirmation")))
    .orderBy(desc(emails.id))
    .limit(1);
  return {
    state,
    amountCents: record.amountCents,
    nextChargeAt: ongoing ? record.currentPeriodEnd : null,
    endsAt: state === "canceled" ? record.canceledAt : state === "cancel_scheduled" ? record.currentPeriodEnd : null,
    managePath: owner ? `/mon-abonnement?${subscriptionLinkQuery(subscriptionLink(record.id, now))}` : null,
    cancelPath: `/abonnement/resilier?commande=${record.firstOrderId ?? order.id}`,
    confirmationEmail: email && email.status !== "failed" ? { sent: email.status === "sent", to: owner ? email.to : null } : null,
  };
}
