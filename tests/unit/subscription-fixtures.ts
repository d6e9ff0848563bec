import { and, eq } from "drizzle-orm";
import type Stripe from "stripe";
import { expect } from "vitest";
import { getConfig } from "~/config.server";
import { getDb } from "~/db/client.server";
import { emails, orders, subscriptions } from "~/db/schema";
import { action as createSubscriptionAction } from "~/routes/api.create-subscription";
import { getStripe, type StripeEmulatorHandle } from "~/services/stripe.server";
import {
  browserCreatePaymentMethod,
  browserPay,
  CARDS,
  createTestOrder,
  ownerRequest,
  routeArgs,
  webhookDelivery,
} from "./payments-fixtures";

/** Subscriptions driven through the emulator and the signed webhook route (see subscription-renewals.test.ts). */

/** A card that attaches to a customer but whose charges fail: the next renewal fails. */
export const FAILING_RENEWAL_CARD = "4000000000000341";

export function subscriptionDriver(emulator: () => StripeEmulatorHandle) {
  const withWebhooks = webhookDelivery(emulator);

  /** A subscription whose first invoice is paid, its webhooks delivered: its record is active. */
  async function subscribed() {
    const orderId = await createTestOrder();
    const response = await createSubscriptionAction(routeArgs(ownerRequest("/api/create-subscription", { orderId })));
    const created = (await response.json()) as { subscriptionId: string; clientSecret: string };
    const paid = await withWebhooks(() => browserPay(created.clientSecret, CARDS.success));
    expect(paid.body.status).toBe("succeeded");
    const record = (
      await getDb().select().from(subscriptions).where(eq(subscriptions.stripeSubscriptionId, created.subscriptionId)).limit(1)
    )[0]!;
    expect(record.status).toBe("active");
    return { orderId, subscriptionId: created.subscriptionId, record };
  }

  /** The next period at Stripe, its webhooks delivered: its invoice charged to the subscription's card. */
  async function renew(subscriptionId: string): Promise<Stripe.Invoice> {
    return withWebhooks(async () => {
      const response = await fetch(`${emulator().url}/v1/test_helpers/emulator/subscriptions/${subscriptionId}/renew`, {
        method: "POST",
        headers: { Authorization: `Bearer ${getConfig().stripe.secretKey}` },
      });
      expect(response.status).toBe(200);
      return (await response.json()) as Stripe.Invoice;
    });
  }

  /** The subscription's card becomes one whose charges fail. */
  async function switchToFailingCard(subscriptionId: string) {
    const stripe = await getStripe();
    const failing = await browserCreatePaymentMethod(FAILING_RENEWAL_CARD);
    const sub = await stripe.subscriptions.retrieve(subscriptionId);
    await stripe.paymentMethods.attach(failing, { customer: sub.customer as string });
    await stripe.subscriptions.update(subscriptionId, { default_payment_method: failing });
  }

  return { withWebhooks, subscribed, renew, switchToFailingCard };
}

export async function subscriptionRecord(id: number) {
  return (await getDb().select().from(subscriptions).where(eq(subscriptions.id, id)).limit(1))[0]!;
}

export async function subscriptionOrders(recordId: number) {
  return await getDb().select().from(orders).where(eq(orders.subscriptionId, recordId));
}

export async function emailsOf(kind: (typeof emails.$inferSelect)["kind"], orderId: number) {
  return await getDb()
    .select()
    .from(emails)
    .where(and(eq(emails.kind, kind), eq(emails.orderId, orderId)));
}
