import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type Stripe from "stripe";
import { getDb, type DbOrTx } from "~/db/client.server";
import { orders, promotions, type Order } from "~/db/schema";
import { CURRENCY } from "~/lib/money";
import { log } from "~/log.server";
import { afterCommit } from "~/db/transactions.server";
import { getStripe } from "~/services/stripe.server";

/**
 * A subscription's promotion at Stripe: a coupon of the order's discount (an amount, so that
 * Stripe takes off exactly what the shop computed), `once` for the first payment only, or
 * `repeating` for the first payment and the next `cycles` renewals. Stripe counts a repeating
 * coupon in months while the renewals come every 4 weeks: the coupon lasts one month more than
 * needed, and the shop removes the discount once the last discounted renewal is paid
 * (`endSubscriptionDiscountAfter`).
 */
export async function subscriptionCoupon(stripe: Stripe, order: Order): Promise<string | null> {
  if (order.promotionId === null || order.discountCents <= 0) return null;
  const [promotion] = await getDb().select().from(promotions).where(eq(promotions.id, order.promotionId)).limit(1);
  if (!promotion || promotion.appliesTo === "one_off") return null;
  const repeating = promotion.appliesTo === "every_payment";
  const coupon = await stripe.coupons.create(
    {
      amount_off: order.discountCents,
      currency: CURRENCY,
      duration: repeating ? "repeating" : "once",
      ...(repeating ? { duration_in_months: (promotion.cycles ?? 1) + 1 } : {}),
      name: `Code ${promotion.code}`,
      metadata: { orderId: String(order.id), promotionId: String(promotion.id) },
    },
    { idempotencyKey: `order-${order.id}-coupon-${randomUUID()}` },
  );
  return coupon.id;
}

/** What a Stripe invoice took off with its discounts, in cents. */
export function invoiceDiscountCents(invoice: Stripe.Invoice): number {
  return (invoice.total_discount_amounts ?? []).reduce((sum, d) => sum + d.amount, 0);
}

/**
 * After a paid renewal with a discount: when it was the last discounted cycle of the first
 * order's code, the subscription's discount is removed at Stripe once the transaction commits.
 */
export async function endSubscriptionDiscountAfter(
  tx: DbOrTx,
  firstOrderId: number | null,
  stripeSubscriptionId: string,
  renewalNumber: number,
) {
  if (firstOrderId === null) return;
  const [row] = await tx
    .select({ appliesTo: promotions.appliesTo, cycles: promotions.cycles })
    .from(orders)
    .innerJoin(promotions, eq(promotions.id, orders.promotionId))
    .where(eq(orders.id, firstOrderId))
    .limit(1);
  if (!row || row.appliesTo !== "every_payment" || renewalNumber < (row.cycles ?? 1)) return;
  afterCommit(tx, () => {
    void (async () => {
      try {
        const stripe = await getStripe();
        await stripe.subscriptions.deleteDiscount(stripeSubscriptionId);
      } catch (error) {
        log.warn({ err: error }, "Subscription discount not removed at Stripe");
      }
    })();
  });
}
