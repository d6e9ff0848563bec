import { and, eq, inArray, ne, sql } from "drizzle-orm";
import { orderItems, orders } from "~/db/schema";
import { centsToDecimal } from "~/lib/money";
import { PACKS, type Pack } from "~/lib/packs";
import type { DbOrTx } from "./customers.server";

/**
 * The packs on sale and their rules, for the cart, the checkout, the order API and the
 * payment step alike:
 * - an order holds one line: one pack, at most 10 of it, and exactly 1 of the trial pack;
 * - a line names its pack by `packId`, by its exact name (`variantName`), or by its price
 *   when that price is exactly one pack's price;
 * - the trial pack is bought once per email address (a paid order of it with that email
 *   refuses the next one), and only as a one-off purchase (no subscription).
 *
 * Packs are read through `listPacks()` only: constants today (lib/packs.ts), data tomorrow.
 */

/** The packs on sale. The one function that reads them. */
export function listPacks(): readonly Pack[] {
  return PACKS;
}

export const MAX_PACK_QUANTITY = 10;
export const MAX_ORDER_LINES = 1;

export function findPackById(id: number): Pack | undefined {
  return listPacks().find((p) => p.id === id);
}

function trialPack(): Pack | undefined {
  return listPacks().find((p) => p.trial);
}

function trialName(): string {
  return trialPack()?.name ?? "pack d'essai";
}

/** "1 : « 3 masques d'essai », 0.99 ; 2 : « 6 masques + 2 offerts », 25.90 ; ..." */
export function packsListText(): string {
  return listPacks()
    .map((p) => `${p.id} : « ${p.name} », ${centsToDecimal(p.priceCents)}`)
    .join(" ; ");
}

export const PACK_MESSAGES = {
  unknown: () =>
    `Pack inconnu : indiquez le pack par packId, par son nom exact (variantName) ou par son prix exact (price). Packs : ${packsListText()}.`,
  oneLine: () => `Une commande contient un seul article : un pack, de 1 à ${MAX_PACK_QUANTITY} exemplaires.`,
  quantity: () => `La quantité d'un pack est limitée à ${MAX_PACK_QUANTITY} par commande.`,
  trialQuantity: () => `Le pack d'essai « ${trialName()} » est limité à 1 exemplaire par commande.`,
  trialUsed: () =>
    `Le pack d'essai « ${trialName()} » ne peut être acheté qu'une fois par adresse email, et cette adresse l'a déjà commandé. Choisissez un autre pack.`,
  trialOneOffOnly: () =>
    `Le pack d'essai « ${trialName()} » s'achète uniquement en achat unique : l'abonnement n'est pas proposé pour ce pack.`,
};

export type PackReference = {
  packId?: number | null;
  variantName?: string | null;
  /** A price the client sent, in cents: names a pack only when exactly one pack costs that. */
  priceCents?: number | null;
};

/**
 * The pack a line names: by `packId` (an unknown id names none), else by its exact name,
 * else by its price when exactly one pack has that price. Undefined when it names none.
 */
export function identifyPack(ref: PackReference): Pack | undefined {
  const packs = listPacks();
  if (ref.packId != null) return packs.find((p) => p.id === ref.packId);
  const name = ref.variantName?.trim().toLowerCase();
  if (name) {
    const byName = packs.find((p) => p.name.toLowerCase() === name);
    if (byName) return byName;
  }
  if (ref.priceCents != null) {
    const byPrice = packs.filter((p) => p.priceCents === ref.priceCents);
    if (byPrice.length === 1) return byPrice[0];
  }
  return undefined;
}

/** How many of this pack one order may hold. */
export function maxQuantityOf(pack: Pick<Pack, "trial">): number {
  return pack.trial ? 1 : MAX_PACK_QUANTITY;
}

/** Why this quantity of this pack cannot be ordered, or null when it can. */
export function quantityRefusal(pack: Pick<Pack, "trial">, quantity: number): string | null {
  if (!Number.isInteger(quantity) || quantity < 1) return PACK_MESSAGES.oneLine();
  if (quantity <= maxQuantityOf(pack)) return null;
  return pack.trial ? PACK_MESSAGES.trialQuantity() : PACK_MESSAGES.quantity();
}

function isTrialPackId(packId: number | null | undefined): boolean {
  return packId != null && Boolean(findPackById(packId)?.trial);
}

/** Whether these lines hold the trial pack. */
export function containsTrialPack(lines: { packId: number | null }[]): boolean {
  return lines.some((l) => isTrialPackId(l.packId));
}

/** Whether a paid (or since refunded) order of the trial pack exists for this email, other than `exceptOrderId`. */
export function hasBoughtTrialPack(db: DbOrTx, email: string, exceptOrderId?: number): boolean {
  const trialIds = listPacks()
    .filter((p) => p.trial)
    .map((p) => p.id);
  const normalized = email.trim().toLowerCase();
  if (trialIds.length === 0 || normalized === "") return false;
  const row = db
    .select({ id: orders.id })
    .from(orders)
    .innerJoin(orderItems, eq(orderItems.orderId, orders.id))
    .where(
      and(
        sql`lower(${orders.customerEmail}) = ${normalized}`,
        inArray(orders.paymentStatus, ["paid", "refunded"]),
        inArray(orderItems.packId, trialIds),
        exceptOrderId === undefined ? undefined : ne(orders.id, exceptOrderId),
      ),
    )
    .limit(1)
    .get();
  return Boolean(row);
}

/** Why an order with these lines cannot go to this email (the trial pack already bought), or null. */
export function trialRefusal(db: DbOrTx, input: { email: string | null | undefined; lines: { packId: number | null }[]; orderId?: number }): string | null {
  if (!input.email || !containsTrialPack(input.lines)) return null;
  return hasBoughtTrialPack(db, input.email, input.orderId) ? PACK_MESSAGES.trialUsed() : null;
}

/** Why these lines cannot be paid by subscription (the trial pack), or null. */
export function subscriptionRefusal(lines: { packId: number | null }[]): string | null {
  return containsTrialPack(lines) ? PACK_MESSAGES.trialOneOffOnly() : null;
}
