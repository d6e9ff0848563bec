import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { DbOrTx } from "~/db/client.server";
import { promotions, refunds, type Order } from "~/db/schema";
import { customerRefusal } from "./rules.server";

/**
 * The use of an order's promotion code, counted in the transaction that marks the order paid
 * (payments/payment-state.server.ts), so that a code is never honoured past its limit, even
 * when two shoppers pay at the same moment.
 *
 * The count goes up in one guarded statement (`UPDATE … SET uses = uses + 1 WHERE uses <
 * max_uses RETURNING`): on PostgreSQL it takes the promotion's row lock, so a second payment
 * of the same code waits for the first one's commit and then sees its count; on SQLite the
 * transaction already holds the write lock. The once-per-email rule is checked after that
 * lock is held. When the code can no longer be honoured, the order (already charged at
 * Stripe with the discount) is reserved for a full refund, as a duplicate trial pack is.
 */

export const PROMOTION_REFUSED_REFUND_REASON =
  "Remboursement automatique : le code promo n'était plus valable au moment du paiement (limite atteinte).";

/** For a subscription's first payment, refunded so: the subscription is cancelled too. */
export const PROMOTION_REFUSED_SUBSCRIPTION_NOTE =
  "Votre abonnement a été annulé : aucun renouvellement ne sera prélevé. Vous pouvez commander de nouveau, sans ce code.";

export const promotionRefundKey = (orderId: number) => `promotion-refused:${orderId}`;

export type Redemption = "none" | "redeemed" | "refused";

export async function redeemPromotionIn(tx: DbOrTx, order: Order): Promise<Redemption> {
  if (order.promotionId === null || order.discountCents <= 0) return "none";
  const claimed = await tx
    .update(promotions)
    .set({ uses: sql`${promotions.uses} + 1` })
    .where(and(eq(promotions.id, order.promotionId), or(isNull(promotions.maxUses), lt(promotions.uses, promotions.maxUses))))
    .returning();
  let refused = claimed.length !== 1;
  if (!refused) {
    // The row is now locked by this transaction: the email rule sees every earlier payment of the code.
    if (await customerRefusal(tx, claimed[0], { email: order.customerEmail, orderId: order.id })) {
      await tx
        .update(promotions)
        .set({ uses: sql`${promotions.uses} - 1` })
        .where(eq(promotions.id, order.promotionId));
      refused = true;
    }
  }
  if (!refused) return "redeemed";
  // Refunded in full after the commit (payments/refunds.server.ts): a one-off payment, or a
  // subscription's first payment, whose subscription is then cancelled at Stripe.
  await tx
    .insert(refunds)
    .values({
      orderId: order.id,
      amountCents: order.totalCents,
      reason: PROMOTION_REFUSED_REFUND_REASON,
      status: "pending",
      actorUserId: null,
      actorName: "Boutique (automatique)",
      idempotencyKey: promotionRefundKey(order.id),
    })
    .onConflictDoNothing();
  return "refused";
}
