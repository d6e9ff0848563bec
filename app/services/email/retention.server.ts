import { and, asc, inArray, isNotNull, lt } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { emails } from "~/db/schema";
import { getSettings } from "~/services/settings.server";

/**
 * The retention of sent emails. What the law and the customer need stays for ever: that an
 * email was sent, to whom, when, its subject, kind and order. Its content (HTML and text) is
 * kept for the days the settings say (90 by default), then deleted by the scheduler
 * (subscriptions/scheduler.server.ts); `content_purged_after_days` keeps how many days that
 * was, which the back office shows. The attachments the shop can rebuild are references
 * (attachments.server.ts) and stay; a stored file goes with the content.
 *
 * The deletion runs in batches of BATCH_SIZE emails, each its own short write, read from an
 * index of the emails whose content is still kept (`emails_content_kept_idx`), at most
 * MAX_BATCHES per tick: a shop's first purge of two years of emails takes a few ticks and
 * never holds the write lock for long. Each update deletes only content still there, so two
 * servers purging at once do the work once and count it once.
 */

const DAY_MS = 86_400_000;
export const BATCH_SIZE = 500;
const MAX_BATCHES = 20;

/** Yields to the event loop between two batches, so requests are served in between. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Deletes the content of the emails sent more than the retention ago; gives how many emails it emptied. */
export async function purgeExpiredEmailContent(
  now = new Date(),
  options: { batchSize?: number; maxBatches?: number } = {},
): Promise<number> {
  const batchSize = options.batchSize ?? BATCH_SIZE;
  const maxBatches = options.maxBatches ?? MAX_BATCHES;
  const days = (await getSettings()).emailContentRetentionDays;
  const sentBefore = new Date(now.getTime() - days * DAY_MS).toISOString();
  const db = getDb();
  let purged = 0;
  for (let batch = 0; batch < maxBatches; batch++) {
    const due = await db
      .select({ id: emails.id })
      .from(emails)
      .where(and(isNotNull(emails.html), lt(emails.sentAt, sentBefore)))
      .orderBy(asc(emails.sentAt))
      .limit(batchSize);
    if (due.length === 0) break;
    const emptied = await db
      .update(emails)
      .set({ html: null, text: null, attachments: null, contentPurgedAfterDays: days })
      .where(
        and(
          inArray(
            emails.id,
            due.map((row) => row.id),
          ),
          isNotNull(emails.html),
        ),
      )
      .returning({ id: emails.id });
    purged += emptied.length;
    if (due.length < batchSize) break;
    await nextTurn();
  }
  return purged;
}
