import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { orders, promotions, type Promotion } from "~/db/schema";
import { centsToDecimal } from "~/lib/money";
import { ShopError } from "~/lib/shop-error";
import { promotionSchema, type PromotionPatch, type PromotionValues } from "~/schemas/promotion";

/**
 * The back office's promotion codes (/admin/promotions and /api/admin/promotions): list with
 * their uses and the revenue they brought, create, edit, deactivate. A code that was used is
 * never deleted (its orders keep it): DELETE deactivates it.
 */

export const PROMOTION_NOT_FOUND = "Code promo introuvable";
const CODE_TAKEN = "Ce code existe déjà.";

/** Payment states whose money the shop keeps (in whole or in part). */
const EARNING = ["paid", "partially_refunded"] as const;

export type PromotionRow = Promotion & { revenueCents: number };

function revenueQuery() {
  return getDb()
    .select({
      promotionId: orders.promotionId,
      revenueCents: sql<number>`coalesce(sum(${orders.totalCents}), 0)`.mapWith(Number).as("revenue_cents"),
    })
    .from(orders)
    .where(inArray(orders.paymentStatus, [...EARNING]))
    .groupBy(orders.promotionId)
    .as("revenue");
}

/** Every code, newest first, with its revenue (one SQL aggregate: the paid orders that used it, renewals included). */
export async function listPromotions(): Promise<PromotionRow[]> {
  const revenue = revenueQuery();
  const rows = await getDb()
    .select({ promotion: promotions, revenueCents: revenue.revenueCents })
    .from(promotions)
    .leftJoin(revenue, eq(revenue.promotionId, promotions.id))
    .orderBy(desc(promotions.id));
  return rows.map((r) => ({ ...r.promotion, revenueCents: Number(r.revenueCents ?? 0) }));
}

export async function getPromotion(id: number): Promise<PromotionRow | null> {
  const [promotion] = await getDb().select().from(promotions).where(eq(promotions.id, id)).limit(1);
  if (!promotion) return null;
  const [row] = await getDb()
    .select({ revenueCents: sql<number>`coalesce(sum(${orders.totalCents}), 0)`.mapWith(Number) })
    .from(orders)
    .where(and(eq(orders.promotionId, id), inArray(orders.paymentStatus, [...EARNING])));
  return { ...promotion, revenueCents: row?.revenueCents ?? 0 };
}

function isCodeConflict(error: unknown) {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    const text = e instanceof Error ? e.message : "";
    if (/promotions_code_idx|UNIQUE constraint failed: promotions\.code/.test(text)) return true;
    if ((e as { code?: unknown }).code === "23505") return true;
  }
  return false;
}

export async function createPromotion(values: PromotionValues): Promise<PromotionRow> {
  try {
    const [created] = await getDb().insert(promotions).values(values).returning();
    return { ...created, revenueCents: 0 };
  } catch (error) {
    if (isCodeConflict(error)) throw new ShopError(409, "promotion_code_taken", CODE_TAKEN, { field: "code" });
    throw error;
  }
}

/** The promotion as the API writes it, for a change merged onto it and checked as a whole. */
export function promotionInput(p: Promotion) {
  return {
    code: p.code,
    kind: p.kind,
    value: p.kind === "amount" ? centsToDecimal(p.value) : p.value,
    appliesTo: p.appliesTo,
    cycles: p.cycles,
    startsAt: p.startsAt,
    endsAt: p.endsAt,
    maxUses: p.maxUses,
    oncePerEmail: p.oncePerEmail,
    firstOrderOnly: p.firstOrderOnly,
    active: p.active,
  };
}

/** Changes some fields; the result is checked with the creation's rules (422 with the issues). */
export async function updatePromotion(id: number, patch: PromotionPatch | Record<string, unknown>): Promise<PromotionRow | null> {
  const [current] = await getDb().select().from(promotions).where(eq(promotions.id, id)).limit(1);
  if (!current) return null;
  const merged = { ...promotionInput(current), ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) };
  const parsed = promotionSchema.safeParse(merged);
  if (!parsed.success) {
    throw new ShopError(422, "invalid_promotion", parsed.error.issues[0]?.message ?? "Code promo invalide", {
      issues: parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })),
    });
  }
  try {
    await getDb().update(promotions).set(parsed.data).where(eq(promotions.id, id));
  } catch (error) {
    if (isCodeConflict(error)) throw new ShopError(409, "promotion_code_taken", CODE_TAKEN, { field: "code" });
    throw error;
  }
  return await getPromotion(id);
}

/** The admin form's save: the whole promotion, as checked by its schema. */
export async function savePromotion(id: number, values: PromotionValues): Promise<boolean> {
  try {
    const updated = await getDb().update(promotions).set(values).where(eq(promotions.id, id)).returning({ id: promotions.id });
    return updated.length === 1;
  } catch (error) {
    if (isCodeConflict(error)) throw new ShopError(409, "promotion_code_taken", CODE_TAKEN, { field: "code" });
    throw error;
  }
}

/** Turns a code on or off (the list's button). */
export async function setPromotionActive(id: number, active: boolean): Promise<boolean> {
  const updated = await getDb().update(promotions).set({ active }).where(eq(promotions.id, id)).returning({ id: promotions.id });
  return updated.length === 1;
}

/** DELETE: a code never used is deleted; a used one is deactivated (its orders keep it). */
export async function removePromotion(id: number): Promise<"deleted" | "deactivated" | null> {
  return await getDb().transaction(async (tx) => {
    const [current] = await tx.select().from(promotions).where(eq(promotions.id, id)).limit(1);
    if (!current) return null;
    const [used] = await tx.select({ id: orders.id }).from(orders).where(eq(orders.promotionId, id)).limit(1);
    if (used || current.uses > 0) {
      await tx.update(promotions).set({ active: false }).where(eq(promotions.id, id));
      return "deactivated";
    }
    await tx.delete(promotions).where(eq(promotions.id, id));
    return "deleted";
  });
}

export function promotionToApi(p: PromotionRow) {
  return {
    id: p.id,
    code: p.code,
    kind: p.kind,
    value: p.kind === "amount" ? centsToDecimal(p.value) : p.value,
    appliesTo: p.appliesTo,
    cycles: p.cycles,
    startsAt: p.startsAt,
    endsAt: p.endsAt,
    maxUses: p.maxUses,
    oncePerEmail: p.oncePerEmail,
    firstOrderOnly: p.firstOrderOnly,
    active: p.active,
    uses: p.uses,
    revenue: centsToDecimal(p.revenueCents),
    createdAt: p.createdAt,
  };
}
