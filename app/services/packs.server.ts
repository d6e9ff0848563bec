import { and, asc, eq, inArray, ne, sql } from "drizzle-orm";
import { getDb, type DbOrTx } from "~/db/client.server";
import { lockFor } from "~/db/locks.server";
import { prepared } from "~/db/prepared.server";
import { orderItems, orders, packs, products, siteSettings } from "~/db/schema";
import { centsToDecimal } from "~/lib/money";
import { trialOfferOver } from "~/lib/offer-banner";
import type { Pack, SaleWithoutPack, ShopPack } from "~/lib/packs";
import { checkReferencePrice, readPriceHistory, type PriceRecord, type ReferenceCheck } from "./price-history.server";

/**
 * The packs on sale and their rules, for the product page, the cart, the checkout, the order
 * API and the payment step alike. Packs are data (table `packs`), per product:
 * - a product with active packs is sold in those packs only; without one, it is sold as a
 *   single item at its own price, or not sold, as its `saleWithoutPack` says;
 * - an order holds one line: one pack (or the single item), at most 10 of it, and exactly 1
 *   of the trial pack;
 * - a line names its pack by `packId`, by its exact name (`variantName`), or by its price
 *   when that price is exactly one of the product's packs' price;
 * - the trial pack is bought once per email address (a paid order of it with that email
 *   refuses the next one), and only as a one-off purchase (no subscription);
 * - the trial pack is sold only until the trial offer's end set in the settings
 *   (`trialOfferEndsAt`): after it, the storefront no longer shows it, and the cart, the
 *   order API and the payment refuse it (the countdown announced a real end, Code de la
 *   consommation L121-2).
 */

export const MAX_PACK_QUANTITY = 10;
export const MAX_ORDER_LINES = 1;

type PackRow = typeof packs.$inferSelect;

function toPack(row: PackRow): Pack {
  return {
    id: row.id,
    productId: row.productId,
    name: row.name,
    description: row.description,
    masks: row.masks,
    priceCents: row.priceCents,
    referencePriceCents: row.referencePriceCents,
    popular: row.popular,
    trial: row.trial,
    position: row.position,
    active: row.active,
  };
}

/** A product's packs in their order: the active ones, or all of them with `includeInactive`. */
export async function listPacks(
  productId: number,
  options: { includeInactive?: boolean } = {},
  db: DbOrTx = getDb(),
): Promise<Pack[]> {
  // The active ones: read by the cart and the delivery form at each purchase, so prepared once per handle.
  const rows = options.includeInactive
    ? await db.select().from(packs).where(eq(packs.productId, productId)).orderBy(asc(packs.position), asc(packs.id))
    : await prepared(db, "activePacksOf", activePacksOf).execute({ productId });
  return rows.map(toPack);
}

const activePacksOf = (db: DbOrTx) =>
  db
    .select()
    .from(packs)
    .where(and(eq(packs.productId, sql.placeholder("productId")), eq(packs.active, true)))
    .orderBy(asc(packs.position), asc(packs.id))
    .prepare();

/** Every pack of every product (the admin's filters), with its product's name. */
export async function listAllPacks(db: DbOrTx = getDb()): Promise<(Pack & { productName: string })[]> {
  return (
    await db
      .select({ pack: packs, productName: products.name })
      .from(packs)
      .innerJoin(products, eq(products.id, packs.productId))
      .orderBy(asc(packs.productId), asc(packs.position), asc(packs.id))
  ).map((r) => ({ ...toPack(r.pack), productName: r.productName }));
}

/** A pack by its id, active or not (orders and subscriptions name packs that may since be inactive). */
export async function findPackById(id: number, db: DbOrTx = getDb()): Promise<Pack | undefined> {
  const [row] = await db.select().from(packs).where(eq(packs.id, id)).limit(1);
  return row ? toPack(row) : undefined;
}

async function trialName(db: DbOrTx = getDb()): Promise<string> {
  const [row] = await db
    .select({ name: packs.name })
    .from(packs)
    .where(and(eq(packs.trial, true), eq(packs.active, true)))
    .orderBy(asc(packs.productId), asc(packs.position))
    .limit(1);
  return row?.name ?? "pack d'essai";
}

/**
 * Whether the trial offer is over now: its end is set in the settings and has passed. Without
 * an end set, the trial pack stays on sale.
 */
export async function trialOfferEnded(db: DbOrTx = getDb(), now: Date = new Date()): Promise<boolean> {
  const [row] = await db
    .select({ endsAt: siteSettings.trialOfferEndsAt })
    .from(siteSettings)
    .where(eq(siteSettings.id, 1))
    .limit(1);
  return trialOfferOver(row?.endsAt, now);
}

/** "1 : « 3 masques d'essai », 0.99 ; 2 : « 6 masques + 2 offerts », 25.90 ; ..." */
export async function packsListText(productId: number, db: DbOrTx = getDb()): Promise<string> {
  return (await listPacks(productId, {}, db)).map((p) => `${p.id} : « ${p.name} », ${centsToDecimal(p.priceCents)}`).join(" ; ");
}

export const PACK_MESSAGES = {
  unknown: async (productId: number, db?: DbOrTx) => {
    const list = await packsListText(productId, db);
    return list
      ? `Pack inconnu : indiquez le pack par packId, par son nom exact (variantName) ou par son prix exact (price). Packs de ce produit : ${list}.`
      : "Ce produit est vendu à l'unité, sans pack : n'indiquez ni packId ni variantName.";
  },
  notSold: (name: string) => `Le produit « ${name} » n'est pas en vente pour le moment.`,
  oneLine: () => `Une commande contient un seul article : un pack, de 1 à ${MAX_PACK_QUANTITY} exemplaires.`,
  quantity: () => `La quantité d'un pack est limitée à ${MAX_PACK_QUANTITY} par commande.`,
  trialQuantity: async (name?: string, db?: DbOrTx) =>
    `Le pack d'essai « ${name ?? (await trialName(db))} » est limité à 1 exemplaire par commande.`,
  trialUsed: async (name?: string) =>
    `Le pack d'essai « ${name ?? (await trialName())} » ne peut être acheté qu'une fois par adresse email, et cette adresse l'a déjà commandé. Choisissez un autre pack.`,
  trialEnded: async (name?: string, db?: DbOrTx) =>
    `L'offre d'essai est terminée : le pack « ${name ?? (await trialName(db))} » n'est plus en vente. Choisissez un autre pack.`,
  trialOneOffOnly: async (name?: string) =>
    `Le pack d'essai « ${name ?? (await trialName())} » s'achète uniquement en achat unique : l'abonnement n'est pas proposé pour ce pack.`,
};

export type PackReference = {
  packId?: number | null;
  variantName?: string | null;
  /** A price the client sent, in cents: names a pack only when exactly one pack costs that. */
  priceCents?: number | null;
};

/**
 * The pack of a product's active packs (`list`) a line names: by `packId` (an unknown id,
 * another product's or an inactive one names none), else by its exact name, else by its price
 * when exactly one pack has that price. Undefined when it names none.
 */
function pickPack(list: Pack[], ref: PackReference): Pack | undefined {
  if (ref.packId != null) return list.find((p) => p.id === ref.packId);
  const name = ref.variantName?.trim().toLowerCase();
  if (name) {
    const byName = list.find((p) => p.name.toLowerCase() === name);
    if (byName) return byName;
  }
  if (ref.priceCents != null) {
    const byPrice = list.filter((p) => p.priceCents === ref.priceCents);
    if (byPrice.length === 1) return byPrice[0];
  }
  return undefined;
}

/** What one line of an order or a cart sells: a pack, or the product itself as a single item. */
export type SaleItem = { pack: Pack | null; name: string | null; priceCents: number; trial: boolean };

type SellableProduct = { id: number; name: string; priceCents: number; saleWithoutPack: SaleWithoutPack };

/** The product's columns a cart or order line reads before selling it (sellableItem), its stock included. */
export const SELLABLE_PRODUCT_COLUMNS = {
  id: products.id,
  name: products.name,
  stock: products.stock,
  priceCents: products.priceCents,
  saleWithoutPack: products.saleWithoutPack,
};

/**
 * What a line naming this product (and maybe a pack) sells: the named active pack when the
 * product has active packs, else the single item at the product's price when it is sold so.
 * A ShopError-ready refusal message otherwise (`unknown` or `not_sold`).
 */
export async function sellableItem(
  product: SellableProduct,
  ref: PackReference,
  db: DbOrTx = getDb(),
): Promise<{ item: SaleItem } | { refusal: "invalid_pack" | "not_sold" | "trial_ended"; message: string }> {
  const active = await listPacks(product.id, {}, db);
  if (active.length === 0) {
    if (product.saleWithoutPack !== "unit") return { refusal: "not_sold", message: PACK_MESSAGES.notSold(product.name) };
    const namesAPack = ref.packId != null || Boolean(ref.variantName?.trim());
    if (namesAPack) return { refusal: "invalid_pack", message: await PACK_MESSAGES.unknown(product.id, db) };
    return { item: { pack: null, name: null, priceCents: product.priceCents, trial: false } };
  }
  const pack = pickPack(active, ref);
  if (!pack) return { refusal: "invalid_pack", message: await PACK_MESSAGES.unknown(product.id, db) };
  if (pack.trial && (await trialOfferEnded(db)))
    return { refusal: "trial_ended", message: await PACK_MESSAGES.trialEnded(pack.name) };
  return { item: { pack, name: pack.name, priceCents: pack.priceCents, trial: pack.trial } };
}

/** How many of this pack one order may hold. */
export function maxQuantityOf(pack: Pick<Pack, "trial">): number {
  return pack.trial ? 1 : MAX_PACK_QUANTITY;
}

/** Why this quantity of this pack cannot be ordered, or null when it can. */
export async function quantityRefusal(
  pack: Pick<Pack, "trial"> & { name?: string | null },
  quantity: number,
  db?: DbOrTx,
): Promise<string | null> {
  if (!Number.isInteger(quantity) || quantity < 1) return PACK_MESSAGES.oneLine();
  if (quantity <= maxQuantityOf(pack)) return null;
  return pack.trial ? await PACK_MESSAGES.trialQuantity(pack.name ?? undefined, db) : PACK_MESSAGES.quantity();
}

const trialPackById = (db: DbOrTx) =>
  db
    .select({ id: packs.id, name: packs.name })
    .from(packs)
    .where(and(eq(packs.id, sql.placeholder("id")), eq(packs.trial, true)))
    .prepare();

/** The trial packs among these lines' packs. */
async function trialPacksOf(lines: { packId: number | null }[], db: DbOrTx = getDb()): Promise<{ id: number; name: string }[]> {
  const ids = lines.map((l) => l.packId).filter((id): id is number => id != null);
  if (ids.length === 0) return [];
  // One pack, the usual cart: checked about four times per purchase, so prepared once per handle.
  if (ids.length === 1) return await prepared(db, "trialPackById", trialPackById).execute({ id: ids[0] });
  return await db
    .select({ id: packs.id, name: packs.name })
    .from(packs)
    .where(and(inArray(packs.id, ids), eq(packs.trial, true)));
}

/** Whether these lines hold the trial pack. */
export async function containsTrialPack(lines: { packId: number | null }[], db?: DbOrTx): Promise<boolean> {
  return (await trialPacksOf(lines, db)).length > 0;
}

/** Whether a paid (or since refunded) order of a trial pack exists for this email, other than `exceptOrderId`. */
export async function hasBoughtTrialPack(db: DbOrTx, email: string, exceptOrderId?: number): Promise<boolean> {
  const normalized = email.trim().toLowerCase();
  if (normalized === "") return false;
  const [row] = await db
    .select({ id: orders.id })
    .from(orders)
    .innerJoin(orderItems, eq(orderItems.orderId, orders.id))
    .innerJoin(packs, eq(packs.id, orderItems.packId))
    .where(
      and(
        sql`lower(${orders.customerEmail}) = ${normalized}`,
        inArray(orders.paymentStatus, ["paid", "refunded", "partially_refunded"]),
        eq(packs.trial, true),
        exceptOrderId === undefined ? undefined : ne(orders.id, exceptOrderId),
      ),
    )
    .limit(1);
  return Boolean(row);
}

/** Why an order with these lines cannot go to this email (the trial pack already bought), or null. */
export async function trialRefusal(
  db: DbOrTx,
  input: { email: string | null | undefined; lines: { packId: number | null }[]; orderId?: number },
): Promise<string | null> {
  if (!input.email) return null;
  const trial = (await trialPacksOf(input.lines, db))[0];
  if (!trial) return null;
  // Once per email, on every server: two payments of the trial pack with one email check it one after the other.
  await lockFor(db, "trial-email", input.email.trim().toLowerCase());
  return (await hasBoughtTrialPack(db, input.email, input.orderId)) ? await PACK_MESSAGES.trialUsed(trial.name) : null;
}

/** Why these lines cannot be ordered or paid any more (the trial pack after the offer's end), or null. */
export async function trialEndedRefusal(lines: { packId: number | null }[], db: DbOrTx = getDb()): Promise<string | null> {
  const trial = (await trialPacksOf(lines, db))[0];
  if (!trial || !(await trialOfferEnded(db))) return null;
  return await PACK_MESSAGES.trialEnded(trial.name, db);
}

/** Why these lines cannot be paid by subscription (the trial pack), or null. */
export async function subscriptionRefusal(lines: { packId: number | null }[], db?: DbOrTx): Promise<string | null> {
  const trial = (await trialPacksOf(lines, db))[0];
  return trial ? await PACK_MESSAGES.trialOneOffOnly(trial.name) : null;
}

// ---------------------------------------------------------------------------------------------
// The storefront's view: the packs as shown, each crossed-out price only when lawful.

export type ProductOffer = {
  /** The active packs, in order; empty when the product is sold without packs or not sold. */
  packs: ShopPack[];
  /** The single item at the product's price, when the product has no active pack and is sold so. */
  unitPriceCents: number | null;
  /** Whether the product can be ordered at all (packs, or the single item). */
  sold: boolean;
};

/**
 * A product's packs on sale as the storefront shows them (the crossed-out price only when
 * lawful at `now`); the trial pack only until the trial offer's end.
 */
export async function shopPacks(productId: number, now: Date = new Date(), db: DbOrTx = getDb()): Promise<ShopPack[]> {
  const ended = await trialOfferEnded(db, now);
  const list = (await listPacks(productId, {}, db)).filter((p) => !(p.trial && ended));
  const history = await readPriceHistory(
    db,
    list.map((p) => p.id),
  );
  return list.map((p) => {
    const check = checkReferencePrice(p, history.get(p.id) ?? [], now);
    return {
      id: p.id,
      name: p.name,
      description: p.description,
      masks: p.masks,
      priceCents: p.priceCents,
      popular: p.popular,
      trial: p.trial,
      crossedOutCents: check.lawful ? p.referencePriceCents : null,
    };
  });
}

/** What the product page sells for this product: its packs, or the single item, or nothing. */
export async function productOffer(
  product: { id: number; priceCents: number; saleWithoutPack: SaleWithoutPack },
  now: Date = new Date(),
): Promise<ProductOffer> {
  const list = await shopPacks(product.id, now);
  if (list.length > 0) return { packs: list, unitPriceCents: null, sold: true };
  // Only a trial pack whose offer has ended: the product is not sold (never sold by the unit instead).
  if ((await listPacks(product.id)).length > 0) return { packs: [], unitPriceCents: null, sold: false };
  if (product.saleWithoutPack === "unit") return { packs: [], unitPriceCents: product.priceCents, sold: true };
  return { packs: [], unitPriceCents: null, sold: false };
}

// ---------------------------------------------------------------------------------------------
// The back office's view: every pack with its price history and the crossed-out price check.

export type AdminPack = Pack & { check: ReferenceCheck; history: PriceRecord[] };

/** A product's packs (inactive ones too) for its admin form, each with its history and its check. */
export async function adminPacks(productId: number, now: Date = new Date(), db: DbOrTx = getDb()): Promise<AdminPack[]> {
  const list = await listPacks(productId, { includeInactive: true }, db);
  const history = await readPriceHistory(
    db,
    list.map((p) => p.id),
  );
  return list.map((p) => {
    const records = history.get(p.id) ?? [];
    return { ...p, check: checkReferencePrice(p, records, now), history: records };
  });
}

/** The crossed-out price warnings of a product's packs on sale ("« name » : warning"), for the toast after saving. */
export async function crossedOutWarnings(productId: number, now: Date = new Date()): Promise<string[]> {
  return (await adminPacks(productId, now))
    .filter((p) => p.active && p.check.warning)
    .map((p) => `« ${p.name} » : ${p.check.warning}`);
}
