import { eq } from "drizzle-orm";
import type { DbOrTx } from "~/db/client.server";
import { contactRequests, orders, siteSettings } from "~/db/schema";
import { DEFAULT_SETTINGS } from "~/db/seed.server";
import type { EmailPayloads } from "./email-types";
import { queueEmail } from "./outbox.server";

/**
 * The events that write to customers and to the shop: each queues its emails in the event's
 * own transaction (`tx`), once per event whatever the number of calls.
 */

/** The shop's own address (site settings), read in the transaction. */
function shopAddress(tx: DbOrTx): string {
  const row = tx.select({ email: siteSettings.siteEmail }).from(siteSettings).where(eq(siteSettings.id, 1)).get();
  return row?.email ?? DEFAULT_SETTINGS.siteEmail;
}

function orderEmail(tx: DbOrTx, orderId: number): string | null {
  const row = tx.select({ email: orders.customerEmail }).from(orders).where(eq(orders.id, orderId)).get();
  return row?.email?.trim() || null;
}

/** An order was paid: its confirmation to the customer, and the news to the shop. */
export function queueOrderPaidEmails(tx: DbOrTx, orderId: number) {
  const to = orderEmail(tx, orderId);
  if (to) queueEmail(tx, { kind: "order_confirmation", orderId, to, payload: {} });
  queueEmail(tx, { kind: "shop_new_order", orderId, to: shopAddress(tx), payload: {} });
}

/** An order was set to shipped (once per order, even if the status goes back and forth). */
export function queueOrderShippedEmail(tx: DbOrTx, orderId: number, payload: EmailPayloads["order_shipped"]) {
  const to = orderEmail(tx, orderId);
  if (to) queueEmail(tx, { kind: "order_shipped", orderId, to, payload });
}

/** A paid subscription ended: the confirmation the law requires (L215-1-1). */
export function queueSubscriptionCanceledEmail(tx: DbOrTx, orderId: number, payload: EmailPayloads["subscription_canceled"]) {
  const to = orderEmail(tx, orderId);
  if (to) queueEmail(tx, { kind: "subscription_canceled", orderId, to, payload });
}

/** A contact request was stored: the acknowledgement to its author, and the news to the shop. */
export function queueContactEmails(tx: DbOrTx, contactRequestId: number) {
  const row = tx.select({ email: contactRequests.email }).from(contactRequests).where(eq(contactRequests.id, contactRequestId)).get();
  if (!row) return;
  queueEmail(tx, { kind: "contact_ack", contactRequestId, to: row.email, payload: {} });
  queueEmail(tx, { kind: "shop_new_contact", contactRequestId, to: shopAddress(tx), payload: {} });
}
