import { paymentReceived } from "~/lib/order-status";
import { and, desc, eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { emails, orders } from "~/db/schema";
import type { Subscription } from "~/db/schema";
import { subscriptionPagePath } from "~/services/subscription-link.server";
import { findSubscription, findSubscriptionByStripeId } from "./record.server";
import { stateOf, type SubscriptionPageState } from "./customer-page.server";
import { sendManagementLinkFor } from "./manage-link.server";

/**
 * What the order confirmation page says about the subscription a paid order started (or
 * renewed): that it is active, what each renewal charges and when the next one is, that the
 * confirmation email went out, and where to cancel online. The private page's signed link
 * only for the buyer's own browser or the order token (holdsOrder): a viewer (the order's view
 * link, its email typed, an administrator) or anyone with the number gets the online
 * cancellation form, which asks for the order's email, and a button that sends a fresh
 * management link to the subscription's email address.
 */
export type OrderSubscriptionView = {
  state: SubscriptionPageState;
  /** What each renewal charges (cents). */
  amountCents: number;
  /** The next charge (ISO), or null when none is coming. */
  nextChargeAt: string | null;
  /** When it ended or ends (ISO), for a cancelled or ending subscription. */
  endsAt: string | null;
  /** The subscription's private page (its signed link: a path of this site), for the order's holder only. */
  managePath: string | null;
  /** « Recevoir un lien de gestion par email »: for anyone but the holder, while the subscription has not ended. */
  canRequestLink: boolean;
  /** The online cancellation form, the order number prefilled. */
  cancelPath: string;
  /** The confirmation email: queued or sent, and to whom (the address for a viewer only). */
  confirmationEmail: { sent: boolean; to: string | null } | null;
};

/** Who is asking: a viewer sees the email address, the holder the private page's link (orders/access.server.ts). */
export type OrderSubscriptionAccess = { viewer: boolean; holder: boolean };

/** The subscription a paid order started or renewed, or undefined. */
async function paidOrderSubscription(orderId: number) {
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
  if (!order || !paymentReceived(order.paymentStatus)) return undefined;
  const record =
    (order.subscriptionId !== null ? await findSubscription(db, order.subscriptionId) : undefined) ??
    (order.isSubscription && order.stripeSubscriptionId
      ? await findSubscriptionByStripeId(db, order.stripeSubscriptionId)
      : undefined);
  return record ? { order, record } : undefined;
}

export async function orderSubscriptionView(
  orderId: number,
  access: OrderSubscriptionAccess,
  now: Date = new Date(),
): Promise<OrderSubscriptionView | null> {
  const db = getDb();
  const found = await paidOrderSubscription(orderId);
  if (!found) return null;
  const { order, record } = found;
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
    managePath: access.holder ? subscriptionPagePath(record.id, now) : null,
    canRequestLink: !access.holder && state !== "canceled",
    cancelPath: `/abonnement/resilier?commande=${record.firstOrderId ?? order.id}`,
    confirmationEmail:
      email && email.status !== "failed" ? { sent: email.status === "sent", to: access.viewer ? email.to : null } : null,
  };
}

/**
 * « Recevoir un lien de gestion par email » on the order's page: a fresh management link to
 * the subscription's own email address (limited, manage-link.server.ts). Nothing for an order
 * without an ongoing subscription; the page's answer is the same either way.
 */
export async function sendOrderManagementLink(orderId: number, clientAddress: string): Promise<boolean> {
  const found = await paidOrderSubscription(orderId);
  const record: Subscription | undefined = found?.record;
  return record ? await sendManagementLinkFor(record, clientAddress) : false;
}
