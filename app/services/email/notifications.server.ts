import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { DbOrTx } from "~/db/client.server";
import { contactRequests, emails } from "~/db/schema";
import { findOrder } from "~/services/orders/find.server";
import type { EmailPayloads } from "./email-types";
import { dedupeKeyOf, queueEmail } from "./outbox.server";
import { notifyOwnerOfContact, shopAddress } from "./owner-notifications.server";

/**
 * The events that write to customers and to the shop: each queues its emails in the event's
 * own transaction (`tx`), once per event whatever the number of calls.
 */

async function orderEmail(tx: DbOrTx, orderId: number): Promise<string | null> {
  const order = await findOrder(orderId, tx);
  return order?.customerEmail?.trim() || null;
}

/** An order was paid: its confirmation to the customer, and the news to the shop. */
export async function queueOrderPaidEmails(tx: DbOrTx, orderId: number) {
  const to = await orderEmail(tx, orderId);
  if (to) await queueEmail(tx, { kind: "order_confirmation", orderId, to, payload: {} });
  await queueEmail(tx, { kind: "shop_new_order", orderId, to: await shopAddress(tx), payload: {} });
}

/** An order was set to shipped (once per order, even if the status goes back and forth). */
export async function queueOrderShippedEmail(tx: DbOrTx, orderId: number, payload: EmailPayloads["order_shipped"]) {
  const to = await orderEmail(tx, orderId);
  if (to) await queueEmail(tx, { kind: "order_shipped", orderId, to, payload });
}

/**
 * A tracking number added or changed (or its carrier) after the order was shipped: « Votre
 * numéro de suivi », once per number and carrier (the same change saved twice sends one email).
 */
export async function queueTrackingNumberEmail(tx: DbOrTx, orderId: number, payload: EmailPayloads["order_tracking_number"]) {
  const to = await orderEmail(tx, orderId);
  const once = `order:${orderId}:${payload.trackingCarrier ?? "-"}:${payload.trackingNumber}`;
  if (to) await queueEmail(tx, { kind: "order_tracking_number", orderId, to, payload, once });
}

/** A refund succeeded: the customer is told, once per refund (made from the back office or at Stripe). */
export async function queueOrderRefundedEmail(tx: DbOrTx, orderId: number, payload: EmailPayloads["order_refunded"]) {
  const to = await orderEmail(tx, orderId);
  if (to) await queueEmail(tx, { kind: "order_refunded", orderId, to, payload, once: `refund:${payload.refundId}` });
}

/**
 * A paid subscription ended: the confirmation the law requires (L215-1-1), about its first
 * order, once per subscription (its record's id) or, without a record, per order.
 */
export async function queueSubscriptionCanceledEmail(
  tx: DbOrTx,
  orderId: number,
  payload: EmailPayloads["subscription_canceled"],
  subscriptionId?: number,
) {
  const to = await orderEmail(tx, orderId);
  const once = subscriptionId === undefined ? undefined : `subscription:${subscriptionId}`;
  if (to) await queueEmail(tx, { kind: "subscription_canceled", orderId, to, payload, once });
}

/** A renewal was paid: its order's receipt to the customer, and the news to the shop (once per order). */
export async function queueRenewalPaidEmails(tx: DbOrTx, orderId: number, payload: EmailPayloads["renewal_receipt"]) {
  const to = await orderEmail(tx, orderId);
  if (to) await queueEmail(tx, { kind: "renewal_receipt", orderId, to, payload });
  await queueEmail(tx, { kind: "shop_new_order", orderId, to: await shopAddress(tx), payload: {} });
}

/** A renewal's payment failed: the customer is told, with a link to pay it, once per invoice (about the first order). */
export async function queueRenewalPaymentFailedEmail(
  tx: DbOrTx,
  firstOrderId: number,
  payload: EmailPayloads["renewal_payment_failed"],
) {
  const to = await orderEmail(tx, firstOrderId);
  if (to)
    await queueEmail(tx, {
      kind: "renewal_payment_failed",
      orderId: firstOrderId,
      to,
      payload,
      once: `invoice:${payload.invoiceId}`,
    });
}

/**
 * A renewal the bank asks the customer to confirm (3-D Secure, `invoice.payment_action_required`):
 * the amount, why, and the pay link, once per invoice. The "payment failed" email of the same
 * invoice is not sent (renewals.server.ts): this one says what to do.
 */
export async function queueRenewalActionRequiredEmail(
  tx: DbOrTx,
  firstOrderId: number,
  payload: EmailPayloads["renewal_action_required"],
) {
  const to = await orderEmail(tx, firstOrderId);
  if (to)
    await queueEmail(tx, {
      kind: "renewal_action_required",
      orderId: firstOrderId,
      to,
      payload,
      once: `invoice:${payload.invoiceId}`,
    });
}

/**
 * A withdrawal was recorded (/retractation): its acknowledgement on a durable medium (article
 * L. 221-21 du Code de la consommation), to the order's email, once per order.
 */
export async function queueWithdrawalAckEmail(tx: DbOrTx, orderId: number, payload: EmailPayloads["withdrawal_ack"]) {
  const to = await orderEmail(tx, orderId);
  if (to) await queueEmail(tx, { kind: "withdrawal_ack", orderId, to, payload });
}

/** A contact request was stored: the acknowledgement to its author, and the news to the shop (unless switched off, owner-notifications.server.ts). */
export async function queueContactEmails(tx: DbOrTx, contactRequestId: number) {
  const [row] = await tx
    .select({ email: contactRequests.email })
    .from(contactRequests)
    .where(eq(contactRequests.id, contactRequestId))
    .limit(1);
  if (!row) return;
  await queueEmail(tx, { kind: "contact_ack", contactRequestId, to: row.email, payload: {} });
  await notifyOwnerOfContact(tx, contactRequestId);
}

/**
 * An administrator's username is under attack (many failed sign-ins, limits.server.ts): the
 * shop is told, once per username and clock hour (UTC) at most, whatever the number of calls.
 */
export async function queueAdminLoginAttackEmail(
  tx: DbOrTx,
  userId: number,
  payload: EmailPayloads["admin_login_attack"],
  now = new Date(),
) {
  const hour = now.toISOString().slice(0, 13);
  return await queueEmail(tx, { kind: "admin_login_attack", to: await shopAddress(tx), payload, once: `user:${userId}:${hour}` });
}

/** What a subscription email needs of its record: where to write, and the first order it is filed under. */
type SubscriptionRecipient = { id: number; customerEmail: string | null; firstOrderId: number | null };

/** Every request gets its email: the key names the subscription and this one request (or `what` it is once for). */
function subscriptionEmailEntity(record: SubscriptionRecipient, what: string = randomUUID()) {
  const once = `subscription:${record.id}:${what}`;
  return record.firstOrderId === null ? { once } : { orderId: record.firstOrderId, once };
}

/** A fresh management link was asked for: sent to the subscription's email. False when it has none. */
export async function queueSubscriptionLinkEmail(tx: DbOrTx, record: SubscriptionRecipient): Promise<boolean> {
  const to = record.customerEmail?.trim();
  if (!to) return false;
  return await queueEmail(tx, {
    kind: "subscription_link",
    to,
    payload: { subscriptionId: record.id },
    ...subscriptionEmailEntity(record),
  });
}

/** The subscription's delivery address changed on its page: the customer is told, every time. */
export async function queueSubscriptionAddressChangedEmail(
  tx: DbOrTx,
  record: SubscriptionRecipient,
  payload: Omit<EmailPayloads["subscription_address_changed"], "subscriptionId">,
): Promise<boolean> {
  const to = record.customerEmail?.trim();
  if (!to) return false;
  return await queueEmail(tx, {
    kind: "subscription_address_changed",
    to,
    payload: { subscriptionId: record.id, ...payload },
    ...subscriptionEmailEntity(record),
  });
}

/**
 * A change the subscriber (or the shop for them) made to the subscription: skip, pause, pack...
 * One email per request, or once per `what` when given (`setup_intent:seti_…`: a card saved once,
 * whether the page or the webhook tells the shop first).
 */
export async function queueSubscriptionChangedEmail(
  tx: DbOrTx,
  record: SubscriptionRecipient,
  payload: Omit<EmailPayloads["subscription_changed"], "subscriptionId">,
  what?: string,
): Promise<boolean> {
  const to = record.customerEmail?.trim();
  if (!to) return false;
  return await queueEmail(tx, {
    kind: "subscription_changed",
    to,
    payload: { subscriptionId: record.id, ...payload },
    ...subscriptionEmailEntity(record, what),
  });
}

/** The « Abonnement modifié » email already queued once for `what` (see above), or undefined. */
export async function subscriptionChangedEmailOnce(db: DbOrTx, record: SubscriptionRecipient, what: string) {
  const [row] = await db
    .select({ payload: emails.payload })
    .from(emails)
    .where(eq(emails.dedupeKey, dedupeKeyOf("subscription_changed", subscriptionEmailEntity(record, what))))
    .limit(1);
  return row ? (row.payload as Partial<EmailPayloads["subscription_changed"]>) : undefined;
}
