import { desc, eq, sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { contactRequests, type ContactStatus } from "~/db/schema";
import type { ContactInput } from "~/schemas/contact";
import type { PageQuery } from "~/schemas/page";
import { decodeCursor, pageOf } from "./pagination/cursor.server";
import { queueContactEmails } from "./email/notifications.server";

/** Stores a contact request and queues its acknowledgement and the shop's notice, in one transaction. */
export async function createContactRequest(input: ContactInput) {
  return await getDb().transaction(async (tx) => {
    const [created] = await tx
      .insert(contactRequests)
      .values({ ...input, status: "non_lu" })
      .returning();
    await queueContactEmails(tx, created.id);
    return created;
  });
}

export async function listContactRequests() {
  return await getDb().select().from(contactRequests).orderBy(desc(contactRequests.createdAt), desc(contactRequests.id));
}

export const CONTACTS_PAGE_SIZE = 50;
const newestFirst = [desc(contactRequests.createdAt), desc(contactRequests.id)];

/** One page of the requests, newest first, with how many there are: /admin/contacts. */
export async function listContactRequestsPage(requestedPage: number, pageSize = CONTACTS_PAGE_SIZE) {
  const { total } = await countContactRequests();
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const page = Math.min(Math.max(1, requestedPage), pageCount);
  const contacts = await getDb()
    .select()
    .from(contactRequests)
    .orderBy(...newestFirst)
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  return { contacts, total, page, pageCount };
}

/** One page of GET /api/admin/contacts, newest first, from the cursor's key. */
export async function pageContactRequests(query: PageQuery) {
  const key = query.cursor ? decodeCursor(query.cursor, ["string", "number"]) : null;
  const rows = await getDb()
    .select()
    .from(contactRequests)
    .where(key ? sql`(${contactRequests.createdAt}, ${contactRequests.id}) < (${key[0]}, ${key[1]})` : undefined)
    .orderBy(...newestFirst)
    .limit(query.limit + 1);
  return pageOf(rows, query.limit, (c) => [c.createdAt, c.id]);
}

export async function getContactRequest(id: number) {
  return (await getDb().select().from(contactRequests).where(eq(contactRequests.id, id)).limit(1))[0];
}

export async function countContactRequests() {
  const [row] = await getDb()
    .select({
      total: sql<number>`count(*)`.mapWith(Number),
      unread: sql<number>`coalesce(sum(case when ${contactRequests.status} = 'non_lu' then 1 else 0 end), 0)`.mapWith(Number),
    })
    .from(contactRequests)
    .limit(1);
  return { total: row?.total ?? 0, unread: row?.unread ?? 0 };
}

/** How many requests are unread: the admin menu's badge, on every page, reads the status index only. */
export async function countUnreadContactRequests(): Promise<number> {
  const [row] = await getDb()
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(contactRequests)
    .where(eq(contactRequests.status, "non_lu"));
  return row?.n ?? 0;
}

export async function setContactStatus(id: number, status: ContactStatus) {
  return (await getDb().update(contactRequests).set({ status }).where(eq(contactRequests.id, id)).returning())[0];
}

/** Opening an unread request marks it read; other statuses are kept. */
export async function openContactRequest(id: number) {
  const db = getDb();
  await db
    .update(contactRequests)
    .set({ status: "lu" })
    .where(sql`${contactRequests.id} = ${id} and ${contactRequests.status} = 'non_lu'`);
  return await getContactRequest(id);
}

export async function deleteContactRequest(id: number) {
  return (await getDb().delete(contactRequests).where(eq(contactRequests.id, id)).returning({ id: contactRequests.id }))[0];
}
