import { desc, eq, sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { contactRequests, type ContactStatus } from "~/db/schema";
import type { ContactInput } from "~/schemas/contact";
import { queueContactEmails } from "./email/notifications.server";

/** Stores a contact request and queues its acknowledgement and the shop's notice, in one transaction. */
export function createContactRequest(input: ContactInput) {
  return getDb().transaction((tx) => {
    const created = tx.insert(contactRequests).values({ ...input, status: "non_lu" }).returning().get();
    queueContactEmails(tx, created.id);
    return created;
  });
}

export function listContactRequests() {
  return getDb().select().from(contactRequests).orderBy(desc(contactRequests.createdAt), desc(contactRequests.id)).all();
}

export function getContactRequest(id: number) {
  return getDb().select().from(contactRequests).where(eq(contactRequests.id, id)).get();
}

export function countContactRequests() {
  const row = getDb()
    .select({
      total: sql<number>`count(*)`,
      unread: sql<number>`coalesce(sum(case when ${contactRequests.status} = 'non_lu' then 1 else 0 end), 0)`,
    })
    .from(contactRequests)
    .get();
  return { total: row?.total ?? 0, unread: row?.unread ?? 0 };
}

export function setContactStatus(id: number, status: ContactStatus) {
  return getDb().update(contactRequests).set({ status }).where(eq(contactRequests.id, id)).returning().get();
}

/** Opening an unread request marks it read; other statuses are kept. */
export function openContactRequest(id: number) {
  const db = getDb();
  db.update(contactRequests)
    .set({ status: "lu" })
    .where(sql`${contactRequests.id} = ${id} and ${contactRequests.status} = 'non_lu'`)
    .run();
  return getContactRequest(id);
}

export function deleteContactRequest(id: number) {
  return getDb().delete(contactRequests).where(eq(contactRequests.id, id)).returning({ id: contactRequests.id }).get();
}
