import { eq } from "drizzle-orm";
import { getDb, type DbOrTx } from "~/db/client.server";
import { carts } from "~/db/schema";
import { promotionScopeNote } from "~/lib/promotions";
import { checkPromotion, PromotionError, promotionDiscount } from "./rules.server";

/**
 * The « Code promo » of a cart: kept on the cart, checked when typed and again each time the
 * cart is read (a code that expired since shows its reason and takes nothing off), then with
 * the email when the delivery form creates the order.
 */

export type CartPromotionView = {
  code: string;
  /** What it takes off the cart's total (0 when refused). */
  discountCents: number;
  /** Where it applies (« Valable sur un achat unique. »...). */
  note: string;
  /** Why it takes nothing off now, or null. */
  refusal: string | null;
  appliesTo: "one_off" | "first_payment" | "every_payment";
};

export async function readCartPromotionCode(db: DbOrTx, cartId: string): Promise<string | null> {
  const [row] = await db.select({ code: carts.promotionCode }).from(carts).where(eq(carts.id, cartId)).limit(1);
  return row?.code ?? null;
}

export async function cartPromotionView(db: DbOrTx, code: string | null, totalCents: number): Promise<CartPromotionView | null> {
  if (!code) return null;
  try {
    const promotion = await checkPromotion(db, code);
    return {
      code: promotion.code,
      discountCents: promotionDiscount(promotion, totalCents),
      note: promotionScopeNote(promotion),
      refusal: null,
      appliesTo: promotion.appliesTo,
    };
  } catch (error) {
    if (!(error instanceof PromotionError)) throw error;
    return { code, discountCents: 0, note: "", refusal: error.message, appliesTo: "one_off" };
  }
}

/**
 * Keeps the typed code on the cart (normalised): the cart then shows its discount, or the reason
 * it is refused (« Ce code a expiré »...), the same way with or without JavaScript.
 */
export async function setCartPromotion(cartId: string, code: string): Promise<void> {
  await getDb()
    .insert(carts)
    .values({ id: cartId, promotionCode: code })
    .onConflictDoUpdate({ target: carts.id, set: { promotionCode: code, updatedAt: new Date().toISOString() } });
}

export async function removeCartPromotion(cartId: string): Promise<void> {
  await getDb().update(carts).set({ promotionCode: null }).where(eq(carts.id, cartId));
}
