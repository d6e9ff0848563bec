import { eq } from "drizzle-orm";
import { getDb, type DbOrTx } from "~/db/client.server";
import { orders, promotions, type Subscription } from "~/db/schema";
import type { RenewalCharge } from "~/lib/renewal-amount";

/**
 * The one computation of what a subscription's next renewal charges, used by every page and
 * email that announces it. The subscription's promotion is its first order's code: a code for
 * `every_payment` takes the first order's discount (the amount of the Stripe coupon,
 * stripe-coupon.server.ts) off renewals 1 to `cycles`; the renewals already paid
 * (`renewalCount`) have used that many. A code for the first payment only discounts no renewal.
 * Stripe never charges below zero; neither does this.
 */
export async function renewalCharge(
  record: Pick<Subscription, "firstOrderId" | "renewalCount" | "amountCents">,
  options: { amountCents?: number; db?: DbOrTx } = {},
): Promise<RenewalCharge> {
  const full = options.amountCents ?? record.amountCents;
  const none: RenewalCharge = { amountCents: full, fullAmountCents: full, code: null, remaining: 0 };
  if (record.firstOrderId === null) return none;
  const [row] = await (options.db ?? getDb())
    .select({
      discountCents: orders.discountCents,
      code: promotions.code,
      appliesTo: promotions.appliesTo,
      cycles: promotions.cycles,
    })
    .from(orders)
    .innerJoin(promotions, eq(promotions.id, orders.promotionId))
    .where(eq(orders.id, record.firstOrderId))
    .limit(1);
  if (!row || row.appliesTo !== "every_payment" || row.discountCents <= 0) return none;
  const remaining = (row.cycles ?? 1) - record.renewalCount;
  if (remaining <= 0) return none;
  return { amountCents: Math.max(full - row.discountCents, 0), fullAmountCents: full, code: row.code, remaining };
}
