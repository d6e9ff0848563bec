import { and, eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { emails, orders, promotions, refunds, subscriptions } from "~/db/schema";
import { createOrderFromApi } from "~/services/orders/create.server";
import { createOrderSubscription } from "~/services/payments/subscription.server";
import { renderEmail } from "~/services/email/render.server";
import { PROMOTION_REFUSED_REFUND_REASON } from "~/services/promotions/redeem.server";
import { getStripe } from "~/services/stripe.server";
import { setUpTestEmulator } from "./emulator-fixtures";
import { browserPay, CARDS } from "./payments-fixtures";

/**
 * A promotion code past its limit in the transaction that marks a subscription's first payment
 * paid (two shoppers who both passed every check): the loser is refunded in full at Stripe like a
 * one-off payment, its subscription cancelled there, and told why by email. Both engines.
 */

const { withWebhooks } = setUpTestEmulator();

function orderBody(email: string, promotionCode: string) {
  return {
    customerEmail: email,
    customerName: "Camille Martin",
    shippingAddress: "12 rue des Lilas",
    shippingPostalCode: "75011",
    shippingCity: "Paris",
    items: [{ productId: 1, packId: 2, quantity: 1 }],
    promotionCode,
  };
}

describe("a subscription's first payment that loses the race for a code", () => {
  it("is refunded in full at Stripe, its subscription cancelled there, and the customer told in French", async () => {
    const [promo] = await getDb()
      .insert(promotions)
      .values({
        code: `COURSE${Date.now() % 100000}`,
        kind: "amount",
        value: 500,
        appliesTo: "every_payment",
        cycles: 2,
        maxUses: 1,
      })
      .returning();
    // Both start their subscription before either paid.
    const a = await createOrderFromApi(orderBody("course.abo.a@example.fr", promo.code));
    const b = await createOrderFromApi(orderBody("course.abo.b@example.fr", promo.code));
    const startA = await createOrderSubscription(a.id, {}, { token: a.token });
    const startB = await createOrderSubscription(b.id, {}, { token: b.token });
    await withWebhooks(() => browserPay(startA.clientSecret, CARDS.success));
    await withWebhooks(() => browserPay(startB.clientSecret, CARDS.success));

    const [row] = await getDb().select().from(promotions).where(eq(promotions.id, promo.id));
    expect(row.uses).toBe(1);
    const [refund] = await getDb().select().from(refunds).where(eq(refunds.orderId, b.id));
    expect(refund).toMatchObject({ reason: PROMOTION_REFUSED_REFUND_REASON, status: "succeeded", amountCents: 2090 });
    expect(refund.stripeRefundId).toMatch(/^re_/);

    const stripe = await getStripe();
    const stripeRefund = await stripe.refunds.retrieve(refund.stripeRefundId!);
    expect(stripeRefund).toMatchObject({ status: "succeeded", amount: 2090 });
    expect((await stripe.subscriptions.retrieve(startB.subscriptionId)).status).toBe("canceled");
    // The winner keeps its subscription.
    expect((await stripe.subscriptions.retrieve(startA.subscriptionId)).status).not.toBe("canceled");

    const [order] = await getDb().select().from(orders).where(eq(orders.id, b.id));
    expect(order.paymentStatus).toBe("refunded");
    const [record] = await getDb()
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.stripeSubscriptionId, startB.subscriptionId));
    expect(record.status).toBe("canceled");

    const [email] = await getDb()
      .select()
      .from(emails)
      .where(and(eq(emails.orderId, b.id), inArray(emails.kind, ["order_refunded"])));
    const text = (await renderEmail(email)).text;
    expect(text).toContain("le code promo n'était plus valable au moment du paiement (limite atteinte)");
    expect(text).toContain("Votre abonnement a été annulé : aucun renouvellement ne sera prélevé.");
  });
});
