import { createHash } from "node:crypto";
import { eq, inArray } from "drizzle-orm";
import { type DbOrTx, getDb } from "~/db/client.server";
import { orders, reminderUnsubscribes } from "~/db/schema";

/**
 * The addresses that asked for no more reminders. Kept as the SHA-256 of the address in lower
 * case: the check needs nothing more, and a list that outlives the orders then shows no address
 * to whoever reads the table. A hash of an email is still personal data (it can be matched
 * against a known address), so a customer's erasure deletes theirs (customers/erase.server.ts).
 */

export function reminderEmailHash(email: string): string {
  return createHash("sha256").update(email.trim().toLowerCase(), "utf8").digest("hex");
}

/** Of these addresses, the hashes of those that unsubscribed. */
export async function unsubscribedHashes(db: DbOrTx, emails: string[]): Promise<Set<string>> {
  if (emails.length === 0) return new Set();
  const hashes = [...new Set(emails.map(reminderEmailHash))];
  const rows = await db
    .select({ hash: reminderUnsubscribes.emailHash })
    .from(reminderUnsubscribes)
    .where(inArray(reminderUnsubscribes.emailHash, hashes));
  return new Set(rows.map((r) => r.hash));
}

export async function isUnsubscribed(email: string, db: DbOrTx = getDb()): Promise<boolean> {
  return (await unsubscribedHashes(db, [email])).size > 0;
}

/**
 * Unsubscribes the address of the order an unsubscribe link names. Doing it twice changes
 * nothing. False when the order has no address any more (erased, or gone).
 */
export async function unsubscribeOrderAddress(orderId: number): Promise<boolean> {
  const db = getDb();
  const [order] = await db.select({ email: orders.customerEmail }).from(orders).where(eq(orders.id, orderId)).limit(1);
  const email = order?.email?.trim();
  if (!email) return false;
  await db
    .insert(reminderUnsubscribes)
    .values({ emailHash: reminderEmailHash(email) })
    .onConflictDoNothing();
  return true;
}

/** Whether the address of this order is on the list (false when the order has no address any more). */
export async function isOrderAddressUnsubscribed(orderId: number): Promise<boolean> {
  const [order] = await getDb().select({ email: orders.customerEmail }).from(orders).where(eq(orders.id, orderId)).limit(1);
  return order?.email ? await isUnsubscribed(order.email) : false;
}

/** A customer's erasure: their address leaves the list (call in the erasure's transaction). */
export async function forgetUnsubscribedAddresses(db: DbOrTx, emails: string[]): Promise<number> {
  if (emails.length === 0) return 0;
  const removed = await db
    .delete(reminderUnsubscribes)
    .where(inArray(reminderUnsubscribes.emailHash, [...new Set(emails.map(reminderEmailHash))]))
    .returning({ hash: reminderUnsubscribes.emailHash });
  return removed.length;
}
