import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getStripe, type StripeEmulatorHandle } from "~/services/stripe.server";
import { awaitRenewalOutcome, simulateNextRenewal } from "~/services/subscriptions/test-clock.server";
import { browserCreatePaymentMethod, CARDS, startTestEmulator, stopTestEmulator } from "./payments-fixtures";
import { emailsOf, subscriptionDriver, subscriptionOrders, subscriptionRecord } from "./subscription-fixtures";

/**
 * The admin's "Simuler le prochain renouvellement" on a subscription whose renewal failed:
 * each click reaches Stripe's next automatic attempt at the unpaid invoice (3, 5, 7 days later
 * in the emulator, as Stripe's smart retries would), not one day more.
 */

let emulator: StripeEmulatorHandle;
beforeAll(async () => {
  emulator = await startTestEmulator();
});
afterAll(async () => {
  await stopTestEmulator();
});

const { withWebhooks, subscribed, switchToFailingCard } = subscriptionDriver(() => emulator);

async function simulate(recordId: number) {
  const simulated = await withWebhooks(() => simulateNextRenewal(recordId, { pollMs: 10 }));
  return { simulated, outcome: await awaitRenewalOutcome(simulated, { timeoutMs: 1000 }) };
}

describe("simulating the next renewal of a past-due subscription", () => {
  it("reaches the next retry: refused again while the card fails, then paid once the customer has a working card", async () => {
    const { record, subscriptionId, orderId } = await subscribed();
    await switchToFailingCard(subscriptionId);

    const first = await simulate(record.id);
    expect(first.outcome).toMatchObject({ outcome: "payment_failed", renewalNumber: 1 });
    const unpaid = (await subscriptionRecord(record.id)).unpaidInvoiceId!;
    expect((await subscriptionRecord(record.id)).status).toBe("past_due");
    const stripe = await getStripe();
    const retryAt = (await stripe.invoices.retrieve(unpaid)).next_payment_attempt!;
    expect(retryAt).toBeGreaterThan(Date.parse(first.simulated.frozenTime) / 1000);

    // The next click goes to that retry (not one day), which fails again: still past due, no second email.
    const second = await simulate(record.id);
    expect(Date.parse(second.simulated.frozenTime) / 1000).toBeGreaterThan(retryAt);
    expect(second.outcome).toMatchObject({ outcome: "payment_failed", renewalNumber: 1 });
    expect(await subscriptionRecord(record.id)).toMatchObject({ status: "past_due", unpaidInvoiceId: unpaid });
    expect(await emailsOf("renewal_payment_failed", orderId)).toHaveLength(1);

    // A working card as the default: the next retry pays the invoice, which becomes the renewal order.
    const working = await browserCreatePaymentMethod(CARDS.success.replace(/\s/g, ""));
    const customer = (await stripe.subscriptions.retrieve(subscriptionId)).customer as string;
    await stripe.paymentMethods.attach(working, { customer });
    await stripe.subscriptions.update(subscriptionId, { default_payment_method: working });
    const third = await simulate(record.id);
    expect(third.outcome).toMatchObject({ outcome: "order_created", renewalNumber: 1 });
    expect(await subscriptionRecord(record.id)).toMatchObject({ status: "active", unpaidInvoiceId: null, renewalCount: 1 });
    expect((await subscriptionOrders(record.id)).filter((o) => o.renewalNumber === 1)).toHaveLength(1);
  });

  it("after Stripe's last attempt the subscription ends, with the cancellation email once", async () => {
    const { record, subscriptionId, orderId } = await subscribed();
    await switchToFailingCard(subscriptionId);
    const outcomes: string[] = [];
    for (let click = 0; click < 4; click++) outcomes.push((await simulate(record.id)).outcome.outcome);
    expect(outcomes).toEqual(["payment_failed", "payment_failed", "payment_failed", "ended"]);
    expect((await subscriptionRecord(record.id)).status).toBe("canceled");
    expect(await emailsOf("subscription_canceled", orderId)).toHaveLength(1);
    await expect(simulateNextRenewal(record.id)).rejects.toMatchObject({ status: 409 });
  });
});
