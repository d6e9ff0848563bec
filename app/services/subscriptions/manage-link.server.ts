import { createHash } from "node:crypto";
import { and, eq, ne, sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { subscriptions, type Subscription } from "~/db/schema";
import { ShopError } from "~/lib/shop-error";
import { queueSubscriptionLinkEmail } from "~/services/email/notifications.server";
import { throttleSubscriptionLinkRequest } from "~/services/limits.server";
import { normalizeEmail } from "~/services/orders/access.server";

/**
 * A fresh management link (/mon-abonnement, valid SUBSCRIPTION_LINK_DAYS), sent by email on
 * request: the only way from an expired link, an order's view link or a pay link to the
 * subscription's page. It always goes to the subscription's own email address, never to the
 * person asking, and the answer never says whether an address has a subscription. Requests
 * are limited per client address and per email address (limits.server.ts).
 */

/** The key of an email address in the rate limits: a hash, so no address is stored there. */
function emailKey(email: string): string {
  return createHash("sha256")
    .update(`subscription-link:${normalizeEmail(email)}`, "utf8")
    .digest("hex")
    .slice(0, 32);
}

/** The subscriptions of an email address that have not fully ended (a scheduled end still has deliveries to come). */
async function ongoingSubscriptionsOf(email: string): Promise<Subscription[]> {
  return await getDb()
    .select()
    .from(subscriptions)
    .where(and(sql`lower(${subscriptions.customerEmail}) = ${normalizeEmail(email)}`, ne(subscriptions.status, "canceled")));
}

/**
 * The form « Recevoir un nouveau lien »: one email per ongoing subscription of that address.
 * Returns how many were sent, for the tests and the logs only: the page's answer is the same
 * whatever the number.
 */
export async function sendManagementLinks(email: string, clientAddress: string): Promise<number> {
  await throttleSubscriptionLinkRequest(clientAddress, emailKey(email));
  const found = await ongoingSubscriptionsOf(email);
  let sent = 0;
  for (const record of found) if (await queueSubscriptionLinkEmail(getDb(), record)) sent += 1;
  return sent;
}

/**
 * One subscription's fresh link, to its own email address (asked from an order's page or a
 * pay link). Nothing is sent for an ended subscription. True when an email was queued.
 */
export async function sendManagementLinkFor(record: Subscription, clientAddress: string): Promise<boolean> {
  await throttleSubscriptionLinkRequest(clientAddress, emailKey(record.customerEmail ?? `subscription:${record.id}`));
  if (record.status === "canceled") return false;
  return await queueSubscriptionLinkEmail(getDb(), record);
}

/**
 * The back office sends the subscriber their page's link (to change their card, among the rest):
 * the shop never takes a card itself. Refused once the subscription ended. True when queued.
 */
export async function sendManagementLinkAsAdmin(subscriptionId: number): Promise<boolean> {
  const [record] = await getDb().select().from(subscriptions).where(eq(subscriptions.id, subscriptionId)).limit(1);
  if (!record) throw new ShopError(404, "subscription_not_found", "Abonnement introuvable");
  if (record.status === "canceled") {
    throw new ShopError(409, "subscription_canceled", "Cet abonnement est résilié : il n'y a plus de lien à envoyer.");
  }
  if (!record.customerEmail?.trim()) {
    throw new ShopError(409, "no_email", "Cet abonnement n'a pas d'adresse email : aucun lien ne peut être envoyé.");
  }
  return await queueSubscriptionLinkEmail(getDb(), record);
}
