import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { emails, promotions, subscriptions } from "~/db/schema";
import { createOrderFromApi } from "~/services/orders/create.server";
import { createOrderSubscription } from "~/services/payments/subscription.server";
import { renderEmail } from "~/services/email/render.server";
import { renewalCharge } from "~/services/promotions/renewal-amount.server";
import { getAdminSubscription } from "~/services/subscriptions/admin-view.server";
import { subscriptionPageView } from "~/services/subscriptions/customer-page.server";
import { queueDueRenewalReminders } from "~/services/subscriptions/reminders.server";
import { skipNextDelivery } from "~/services/subscriptions/self-service.server";
import { renewalChargeText } from "~/lib/renewal-amount";
import { setUpTestEmulator } from "./emulator-fixtures";
import { browserPay, CARDS } from "./payments-fixtures";
import { subscriptionDriver } from "./subscription-fixtures";

/**
 * The amount a subscription's next renewal really charges, with its promotion code's discount
 * while its cycles last: one function (renewalCharge), printed the same way on the subscriber's
 * page, the back office, the subscription's confirmation, the renewal reminder and the
 * « Abonnement modifié » email.
 */

const { emulator, withWebhooks } = setUpTestEmulator();
const { renew } = subscriptionDriver(emulator);

let seq = 0;
async function subscribedWithCode(values: Partial<typeof promotions.$inferInsert>) {
  const [promo] = await getDb()
    .insert(promotions)
    .values({ code: `CINQ${++seq}${Date.now() % 100000}`, kind: "amount", value: 500, appliesTo: "every_payment", ...values })
    .returning();
  const order = await createOrderFromApi({
    customerEmail: `montant${seq}@example.fr`,
    customerName: "Camille Martin",
    shippingAddress: "12 rue des Lilas",
    shippingPostalCode: "75011",
    shippingCity: "Paris",
    items: [{ productId: 1, packId: 2, quantity: 1 }],
    promotionCode: promo.code,
  });
  const started = await createOrderSubscription(order.id, {}, { token: order.token });
  await withWebhooks(() => browserPay(started.clientSecret, CARDS.success));
  const record = async () =>
    (await getDb().select().from(subscriptions).where(eq(subscriptions.stripeSubscriptionId, started.subscriptionId)))[0]!;
  return { promo, orderId: order.id, stripeId: started.subscriptionId, record };
}

async function emailsOf(kind: "order_confirmation" | "renewal_reminder" | "subscription_changed", orderId: number) {
  return await getDb()
    .select()
    .from(emails)
    .where(and(eq(emails.kind, kind), eq(emails.orderId, orderId)));
}

describe("the next renewal's true amount", () => {
  it("takes a code's discount off while its cycles last, then the full amount; every screen and email says the same", async () => {
    const { promo, orderId, stripeId, record } = await subscribedWithCode({ cycles: 2 });
    const start = await record();
    // The record keeps the recurring amount, not the first payment's discounted total.
    expect(start.amountCents).toBe(2590);
    const two = `20,90€ (code ${promo.code}, encore 2 renouvellements), puis 25,90€`;
    expect(renewalChargeText(await renewalCharge(start))).toBe(two);
    expect(renewalChargeText((await subscriptionPageView(start)).nextCharge)).toBe(two);
    expect(renewalChargeText((await getAdminSubscription(start.id))!.nextCharge)).toBe(two);

    const [confirmation] = await emailsOf("order_confirmation", orderId);
    expect((await renderEmail(confirmation)).text).toContain(`20,90€ débités aujourd'hui, puis ${two} toutes les 4 semaines`);
    // The reminder, a few days before the renewal.
    await queueDueRenewalReminders(new Date(Date.parse(start.currentPeriodEnd!) - 3 * 86_400_000));
    const [reminder] = await emailsOf("renewal_reminder", orderId);
    expect(reminder.payload).toMatchObject({ amountCents: 2090 });
    expect((await renderEmail(reminder)).text).toContain(`Montant prélevé : ${two}`);

    await renew(stripeId);
    const one = `20,90€ (code ${promo.code}, encore 1 renouvellement), puis 25,90€`;
    const afterFirst = await record();
    expect(renewalChargeText((await subscriptionPageView(afterFirst)).nextCharge)).toBe(one);
    // « Abonnement modifié » says it too.
    const skipped = await withWebhooks(() => skipNextDelivery(afterFirst, { kind: "customer" }));
    expect(skipped.summary).toContain(`(${one})`);

    const fresh = await subscribedWithCode({ cycles: 2 });
    await renew(fresh.stripeId);
    await renew(fresh.stripeId);
    expect(renewalChargeText((await subscriptionPageView(await fresh.record())).nextCharge)).toBe("25,90€");
  });

  it("a code for the first payment only discounts no renewal", async () => {
    const { orderId, record } = await subscribedWithCode({ appliesTo: "first_payment" });
    expect(renewalChargeText(await renewalCharge(await record()))).toBe("25,90€");
    const [confirmation] = await emailsOf("order_confirmation", orderId);
    expect((await renderEmail(confirmation)).text).toContain("20,90€ débités aujourd'hui, puis 25,90€ toutes les 4 semaines");
  });
});
