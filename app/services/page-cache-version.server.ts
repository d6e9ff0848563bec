import { eq, sql } from "drizzle-orm";
import { getDb, type DbOrTx } from "~/db/client.server";
import { pageCacheVersion, siteSettings } from "~/db/schema";

/**
 * The public pages' version (table page_cache_version): every write that changes what an
 * anonymous visitor sees bumps it, in the write's own transaction. The page cache of every
 * process (server/page-cache.js) reads it and drops the pages rendered under an older one.
 */

/** Bumps the version: the public pages of every process are rendered again. */
export async function bumpPageCacheVersion(db: DbOrTx = getDb()) {
  await db
    .insert(pageCacheVersion)
    .values({ id: 1, version: 1 })
    .onConflictDoUpdate({ target: pageCacheVersion.id, set: { version: sql`${pageCacheVersion.version} + 1` } });
}

/** The state's query, prepared once per database handle: it runs on each public page view. */
function prepareStateQuery(db: DbOrTx) {
  return db
    .select({ version: pageCacheVersion.version, endsAt: siteSettings.trialOfferEndsAt })
    .from(siteSettings)
    .leftJoin(pageCacheVersion, eq(pageCacheVersion.id, 1))
    .where(eq(siteSettings.id, 1))
    .prepare();
}

const stateQueries = new WeakMap<DbOrTx, ReturnType<typeof prepareStateQuery>>();

type PageCacheState = { version: number; offerEndsAt: number | null };

/** The read under way, per database handle: the views that arrive meanwhile share it. */
const readsUnderWay = new WeakMap<DbOrTx, Promise<PageCacheState>>();

/**
 * What the page cache needs, read in one query (server/page-cache.js calls it through the
 * build's entry on each public page view): the version, and when the trial offer ends (its
 * banner disappears then, so a page rendered before may not be served after it), in
 * milliseconds since the epoch or null.
 *
 * Views that arrive while a read is under way share it: on PostgreSQL, a busy page then costs
 * one round trip to the database for many views, not one each. What they are given is at most
 * one round trip older than their arrival.
 */
export function readPageCacheState(db: DbOrTx = getDb()): Promise<PageCacheState> {
  const underWay = readsUnderWay.get(db);
  if (underWay) return underWay;
  const read = readState(db).finally(() => readsUnderWay.delete(db));
  readsUnderWay.set(db, read);
  return read;
}

async function readState(db: DbOrTx): Promise<PageCacheState> {
  let query = stateQueries.get(db);
  if (!query) {
    query = prepareStateQuery(db);
    stateQueries.set(db, query);
  }
  const [row] = await query.execute();
  const end = Date.parse(row?.endsAt ?? "");
  return { version: row?.version ?? 0, offerEndsAt: Number.isNaN(end) ? null : end };
}
