import { asc, eq, inArray } from "drizzle-orm";
import { priceHistory } from "~/db/schema";
import { DEMO_HISTORY_NOTE } from "~/db/seed.server";
import { formatPrice } from "~/lib/money";
import type { DbOrTx } from "~/db/client.server";

/**
 * Crossed-out prices that follow the law (Code de la consommation, article L112-1-1, from the
 * Omnibus directive): a price reduction announced with a "before" price must take as that price
 * the lowest price charged in the 30 days before the reduction started.
 *
 * Every price a pack has had is kept in `price_history` (one row per change, from when). The
 * current price started when the last run of rows at that price began; the lowest price of the
 * 30 days before that moment is the only lawful crossed-out price.
 */

export const OMNIBUS_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The demo data's invented past prices carry this note (db/seed.server.ts), shown in the admin. */
export { DEMO_HISTORY_NOTE };

export type PriceRecord = { priceCents: number; startedAt: string; note?: string | null };

export type ReferenceCheck = {
  /** When the current price started (ISO), or null when the history does not hold it. */
  currentSince: string | null;
  /** The lowest price charged in the 30 days before the current price started, or null when none was. */
  lowestCents: number | null;
  /** Whether the reference price may be shown crossed out (false also without a reference price). */
  lawful: boolean;
  /** The admin's warning when a reference price is set but is not lawful, else null. */
  warning: string | null;
};

/** Records a price from a moment (a new pack, or a changed price). */
export async function recordPrice(
  db: DbOrTx,
  packId: number,
  priceCents: number,
  startedAt = new Date().toISOString(),
  note: string | null = null,
) {
  await db.insert(priceHistory).values({ packId, priceCents, startedAt, note });
}

/** The history of these packs, oldest first, by pack id. */
export async function readPriceHistory(db: DbOrTx, packIds: number[]): Promise<Map<number, PriceRecord[]>> {
  const byPack = new Map<number, PriceRecord[]>();
  if (packIds.length === 0) return byPack;
  const rows = await db
    .select()
    .from(priceHistory)
    .where(inArray(priceHistory.packId, packIds))
    .orderBy(asc(priceHistory.startedAt), asc(priceHistory.id));
  for (const row of rows) {
    const list = byPack.get(row.packId) ?? [];
    list.push({ priceCents: row.priceCents, startedAt: row.startedAt, note: row.note });
    byPack.set(row.packId, list);
  }
  return byPack;
}

export async function readPackHistory(db: DbOrTx, packId: number): Promise<PriceRecord[]> {
  return await db
    .select({ priceCents: priceHistory.priceCents, startedAt: priceHistory.startedAt, note: priceHistory.note })
    .from(priceHistory)
    .where(eq(priceHistory.packId, packId))
    .orderBy(asc(priceHistory.startedAt), asc(priceHistory.id));
}

/** The lowest price charged in the 30 days before the current price started, and when it started. */
export function lowestBeforeCurrent(
  history: PriceRecord[],
  priceCents: number,
  now: Date = new Date(),
): Pick<ReferenceCheck, "currentSince" | "lowestCents"> {
  const rows = history.filter((r) => Date.parse(r.startedAt) <= now.getTime());
  let start = rows.length;
  while (start > 0 && rows[start - 1].priceCents === priceCents) start--;
  if (start === rows.length) return { currentSince: null, lowestCents: null };
  const currentSince = rows[start].startedAt;
  const since = Date.parse(currentSince);
  const windowStart = since - OMNIBUS_DAYS * DAY_MS;
  let lowest: number | null = null;
  for (let i = 0; i < start; i++) {
    // Row i applied from its start until the next row's start.
    if (Date.parse(rows[i + 1].startedAt) > windowStart) lowest = Math.min(lowest ?? rows[i].priceCents, rows[i].priceCents);
  }
  return { currentSince, lowestCents: lowest };
}

/**
 * Whether a pack's reference price may be shown crossed out: it must be higher than the price
 * and equal to the lowest price of the 30 days before the current price started.
 */
export function checkReferencePrice(
  pack: { priceCents: number; referencePriceCents: number | null },
  history: PriceRecord[],
  now: Date = new Date(),
): ReferenceCheck {
  const { currentSince, lowestCents } = lowestBeforeCurrent(history, pack.priceCents, now);
  const reference = pack.referencePriceCents;
  if (reference === null) return { currentSince, lowestCents, lawful: false, warning: null };
  if (lowestCents === null) {
    return {
      currentSince,
      lowestCents,
      lawful: false,
      warning: `Prix barré non conforme : aucun autre prix n'a été pratiqué dans les ${OMNIBUS_DAYS} jours précédant le prix actuel. Il ne sera pas affiché.`,
    };
  }
  if (reference !== lowestCents || reference <= pack.priceCents) {
    return {
      currentSince,
      lowestCents,
      lawful: false,
      warning: `Prix barré non conforme : le prix le plus bas des ${OMNIBUS_DAYS} derniers jours avant le prix actuel est ${formatPrice(lowestCents)}. Il ne sera pas affiché.`,
    };
  }
  return { currentSince, lowestCents, lawful: true, warning: null };
}
