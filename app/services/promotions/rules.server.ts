import { and, eq, inArray, ne, sql } from "drizzle-orm";
import type { DbOrTx } from "~/db/client.server";
import { orders, promotions, type Promotion } from "~/db/schema";
import { discountFor, normalizePromotionCode, PROMOTION_REFUSALS } from "~/lib/promotions";
import { ShopError } from "~/lib/shop-error";

/**
 * Whether a promotion code may be used, and what it takes off. The same checks run when the
 * code is typed in the cart (without the email yet), when the order is created (with it), when
 * the payment starts, and in the transaction that marks the order paid (redeem.server.ts).
 */

/** Payment states of an order that has used its code. */
const USED_STATUSES = ["paid", "partially_refunded", "refunded"] as const;

export class PromotionError extends ShopError {
  constructor(message: string) {
    super(422, "promotion_refused", message, { field: "promotionCode" });
    this.name = "PromotionError";
  }
}

export async function findPromotionByCode(db: DbOrTx, code: string): Promise<Promotion | undefined> {
  return (
    await db
      .select()
      .from(promotions)
      .where(eq(promotions.code, normalizePromotionCode(code)))
      .limit(1)
  )[0];
}

export type PromotionCheck = {
  /** Who uses it, when known: the once-per-email and first-order rules need it. */
  email?: string | null;
  /** The order being paid or rewritten: its own use does not count against it. */
  orderId?: number | null;
  now?: Date;
};

/** The code's own limits (active, dates, number of uses), whoever uses it. */
export function promotionRefusal(promotion: Promotion, now = new Date()): string | null {
  if (!promotion.active) return PROMOTION_REFUSALS.inactive;
  if (promotion.startsAt && new Date(promotion.startsAt) > now) return PROMOTION_REFUSALS.notStarted;
  if (promotion.endsAt && new Date(promotion.endsAt) <= now) return PROMOTION_REFUSALS.expired;
  if (promotion.maxUses !== null && promotion.uses >= promotion.maxUses) return PROMOTION_REFUSALS.usedUp;
  return null;
}

/** The rules that depend on who uses it: once per email, first order only. */
export async function customerRefusal(db: DbOrTx, promotion: Promotion, check: PromotionCheck): Promise<string | null> {
  const email = check.email?.trim().toLowerCase();
  if (!email || (!promotion.oncePerEmail && !promotion.firstOrderOnly)) return null;
  const others = and(
    sql`lower(${orders.customerEmail}) = ${email}`,
    inArray(orders.paymentStatus, [...USED_STATUSES]),
    check.orderId ? ne(orders.id, check.orderId) : undefined,
  );
  if (promotion.oncePerEmail) {
    const [used] = await db
      .select({ id: orders.id })
      .from(orders)
      .where(and(others, eq(orders.promotionId, promotion.id)))
      .limit(1);
    if (used) return PROMOTION_REFUSALS.usedByEmail;
  }
  if (promotion.firstOrderOnly) {
    const [before] = await db.select({ id: orders.id }).from(orders).where(others).limit(1);
    if (before) return PROMOTION_REFUSALS.firstOrderOnly;
  }
  return null;
}

/** The promotion of `code`, checked, or a thrown PromotionError with the French reason. */
export async function checkPromotion(db: DbOrTx, code: string, check: PromotionCheck = {}): Promise<Promotion> {
  const promotion = await findPromotionByCode(db, code);
  if (!promotion) throw new PromotionError(PROMOTION_REFUSALS.unknown);
  const refusal = promotionRefusal(promotion, check.now) ?? (await customerRefusal(db, promotion, check));
  if (refusal) throw new PromotionError(refusal);
  return promotion;
}

/** The discount of a checked promotion on a total (lib/promotions.ts `discountFor`). */
export function promotionDiscount(promotion: Promotion, totalCents: number): number {
  return discountFor(promotion, totalCents);
}

/** Why an order with this promotion cannot be paid by subscription (a one-off code), or null. */
export async function promotionSubscriptionRefusal(db: DbOrTx, promotionId: number | null): Promise<string | null> {
  if (promotionId === null) return null;
  const [row] = await db
    .select({ appliesTo: promotions.appliesTo })
    .from(promotions)
    .where(eq(promotions.id, promotionId))
    .limit(1);
  return row?.appliesTo === "one_off" ? PROMOTION_REFUSALS.oneOffOnly : null;
}

/**
 * The payment mode against the order's code: a one-off code is not for a subscription, a
 * subscription's code not for a one-off purchase. Thrown as a 409 with the French reason.
 */
export async function assertPromotionMode(
  db: DbOrTx,
  order: { promotionId: number | null; discountCents: number },
  mode: "one_off" | "subscription",
) {
  if (order.promotionId === null || order.discountCents <= 0) return;
  const [row] = await db.select().from(promotions).where(eq(promotions.id, order.promotionId)).limit(1);
  if (!row) return;
  if (mode === "subscription" && row.appliesTo === "one_off")
    throw new ShopError(409, "promotion_one_off_only", PROMOTION_REFUSALS.oneOffOnly, { field: "promotionCode" });
  if (mode === "one_off" && row.appliesTo !== "one_off")
    throw new ShopError(409, "promotion_subscription_only", PROMOTION_REFUSALS.subscriptionOnly, { field: "promotionCode" });
}

/**
 * At the payment's start: the order's code is checked again (dates, limits, this email) and
 * must suit the mode. A refusal is thrown with its French reason; the shopper removes the code
 * or changes the mode.
 */
export async function assertOrderPromotion(
  db: DbOrTx,
  order: {
    id: number;
    promotionId: number | null;
    promotionCode: string | null;
    discountCents: number;
    customerEmail: string | null;
  },
  mode: "one_off" | "subscription",
) {
  if (order.promotionId === null || !order.promotionCode) return;
  await checkPromotion(db, order.promotionCode, { email: order.customerEmail, orderId: order.id });
  await assertPromotionMode(db, order, mode);
}
