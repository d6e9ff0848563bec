import type Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { getConfig } from "~/config.server";
import { action as attachAction } from "~/routes/api.attach-payment-method";
import { action as createSubscriptionAction } from "~/routes/api.create-subscription";
import { action as confirmAction } from "~/routes/api.payments.confirm";
import { action as startAction } from "~/routes/api.payments.start";
import { acquireLease, releaseLease } from "~/services/leases.server";
import { orderLockName } from "~/services/payments/order-lock.server";
import { getStripe } from "~/services/stripe.server";
import { browserPay, CARDS, createTestOrder, getOrder, ownerRequest, productStock, routeArgs } from "./payments-fixtures";
import { setUpTestEmulator } from "./emulator-fixtures";

const { emulator, withWebhooks } = setUpTestEmulator();
const DAY = 86_400;

async function createSubscription(body: Record<string, unknown>) {
  const response = await createSubscriptionAction(routeArgs(ownerRequest("/api/create-subscription", body)));
  return { status: response.status, body: await response.json() };
}

async function confirm(orderId: number) {
  const response = await confirmAction(routeArgs(ownerRequest("/api/payments/confirm", { orderId })));
  return (await response.json()) as { paid: boolean };
}

describe("subscription", () => {
  it("charges the order total now, then the same amount every 4 weeks from day 30", async () => {
    const orderId = await createTestOrder({ quantity: 1, unitPriceCents: 2590 });
    const created = await createSubscription({
      orderId,
      // The spec's fields: accepted, but the order decides.
      productId: 1,
      quantity: 5,
      userId: 3,
      customerEmail: "camille.martin@example.fr",
      customerName: "Camille Martin",
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      orderId,
      setupFee: "25.90",
      recurringAmount: "25.90",
      status: "incomplete",
      paymentIntentStatus: "requires_payment_method",
      message: null,
    });
    expect(created.body.subscriptionId).toMatch(/^sub_/);
    expect(created.body.clientSecret).toMatch(/^pi_[A-Za-z0-9]+_secret_/);

    const stripe = await getStripe();
    const sub = await stripe.subscriptions.retrieve(created.body.subscriptionId, { expand: ["latest_invoice"] });
    const [item] = sub.items.data;
    expect(item.price).toMatchObject({ unit_amount: 2590, currency: "eur", recurring: { interval: "week", interval_count: 4 } });
    expect(item.quantity).toBe(1);
    expect(sub.trial_end! - sub.trial_start!).toBe(30 * DAY);
    expect(sub.metadata).toEqual({ orderId: String(orderId) });
    const invoice = sub.latest_invoice as Stripe.Invoice;
    expect(invoice.total).toBe(2590);
    expect(invoice.amount_due).toBe(2590);
    expect(invoice.billing_reason).toBe("subscription_create");
    expect(await getOrder(orderId)).toMatchObject({
      isSubscription: true,
      stripeSubscriptionId: sub.id,
      paymentStatus: "unpaid",
    });
    expect((await getOrder(orderId)).stripeCustomerId).toBe(sub.customer);
  });

  it("marks the order paid on invoice.paid, once, and keeps the card for the next invoices", async () => {
    const orderId = await createTestOrder();
    const stockBefore = await productStock();
    const created = await createSubscription({ orderId });
    const paid = await withWebhooks(() => browserPay(created.body.clientSecret, CARDS.success));
    expect(paid.body.status).toBe("succeeded");

    // invoice.paid arrived: paid by the webhook, the stock decremented once.
    expect(await getOrder(orderId)).toMatchObject({ paymentStatus: "paid", isSubscription: true });
    expect(await productStock()).toBe(stockBefore - 1);
    expect(await confirm(orderId)).toMatchObject({ paid: true });
    expect(await productStock()).toBe(stockBefore - 1);

    const invoicePaid = emulator().events.find(
      (e) =>
        e.type === "invoice.paid" &&
        (e.data.object as { parent?: { subscription_details?: { subscription?: string } } }).parent?.subscription_details
          ?.subscription === created.body.subscriptionId,
    );
    expect(invoicePaid).toBeDefined();

    const attach = await attachAction(
      routeArgs(
        ownerRequest("/api/attach-payment-method", {
          subscriptionId: created.body.subscriptionId,
          paymentMethodId: paid.paymentMethodId,
          customerEmail: "Camille.Martin@example.fr",
        }),
      ),
    );
    expect(attach.status).toBe(200);
    expect(await attach.json()).toEqual({
      attached: true,
      subscriptionId: created.body.subscriptionId,
      paymentMethodId: paid.paymentMethodId,
    });
    const stripe = await getStripe();
    const sub = await stripe.subscriptions.retrieve(created.body.subscriptionId);
    expect(sub.status).toBe("trialing");
    expect(sub.default_payment_method).toBe(paid.paymentMethodId);
    const customer = (await stripe.customers.retrieve(sub.customer as string)) as Stripe.Customer;
    expect(customer.invoice_settings.default_payment_method).toBe(paid.paymentMethodId);

    // A renewal 4 weeks later is charged to that card: an order of its own (subscription-renewals.test.ts), the first one untouched.
    const renewal = await withWebhooks(async () => {
      const response = await fetch(`${emulator().url}/v1/test_helpers/emulator/subscriptions/${sub.id}/renew`, {
        method: "POST",
        headers: { Authorization: `Bearer ${getConfig().stripe.secretKey}` },
      });
      return (await response.json()) as Stripe.Invoice;
    });
    expect(renewal).toMatchObject({ status: "paid", total: 2590, billing_reason: "subscription_cycle" });
    // The new 4-week period is on the invoice's line; the invoice's own period looks back one period.
    const [line] = renewal.lines.data;
    expect(line.period.end - line.period.start).toBe(28 * DAY);
    expect(renewal.period_end).toBe(line.period.start);
    // The first order stays as it was; the renewal is an order of its own (one more stock decrement).
    expect(await getOrder(orderId)).toMatchObject({ paymentStatus: "paid", renewalNumber: null, stripeInvoiceId: null });
    expect(await productStock()).toBe(stockBefore - 2);

    // The order now has an active subscription.
    const again = await createSubscription({ orderId });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: "subscription_exists", error: "Vous avez déjà un abonnement actif." });
  });

  it("invoice.paid without the browser's confirm is enough, and confirm alone is enough too", async () => {
    const orderId = await createTestOrder();
    const created = await createSubscription({ orderId });
    await browserPay(created.body.clientSecret, CARDS.success); // no webhook delivered
    expect((await getOrder(orderId)).paymentStatus).toBe("unpaid");
    expect(await confirm(orderId)).toMatchObject({ paid: true });
    expect(await getOrder(orderId)).toMatchObject({ paymentStatus: "paid", isSubscription: true });
  });

  it("resumes the order's unpaid subscription instead of creating a second one", async () => {
    const orderId = await createTestOrder();
    const first = await createSubscription({ orderId });
    const second = await createSubscription({ orderId });
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({
      subscriptionId: first.body.subscriptionId,
      clientSecret: first.body.clientSecret,
      message: "Reprise du paiement en cours",
    });
  });

  it("answers resource_already_exists while another start of the same order is under way", async () => {
    const orderId = await createTestOrder();
    // Another start (in this process or another) holds the order's payment start lock.
    const other = "autre-hote:1234:abcd";
    expect(await acquireLease(orderLockName(orderId), 60_000, other)).toBe(true);
    const refused = await createSubscription({ orderId });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      error: "Une commande similaire est déjà en cours de traitement. Veuillez patienter.",
      issues: [],
      code: "resource_already_exists",
    });
    // Once that start has ended, the next one goes through.
    await releaseLease(orderLockName(orderId), other);
    expect((await createSubscription({ orderId })).status).toBe(200);
  });

  it("two attempts at once for the same order never make two subscriptions", async () => {
    const orderId = await createTestOrder();
    const [a, b] = await Promise.all([createSubscription({ orderId }), createSubscription({ orderId })]);
    // Overlapping, the second is refused; one after the other, the second resumes the first.
    const answers = [a, b].sort((x, y) => x.status - y.status);
    expect(answers[0].status).toBe(200);
    if (answers[1].status === 409) expect(answers[1].body.code).toBe("resource_already_exists");
    else
      expect(answers[1].body).toMatchObject({
        subscriptionId: answers[0].body.subscriptionId,
        message: "Reprise du paiement en cours",
      });
  });

  it("a declined first charge leaves the order unpaid and payable with another card", async () => {
    const orderId = await createTestOrder();
    const created = await createSubscription({ orderId });
    const declined = await withWebhooks(() => browserPay(created.body.clientSecret, CARDS.declined));
    expect(declined.status).toBe(402);
    expect(declined.body.error.code).toBe("card_declined");
    expect((await getOrder(orderId)).paymentStatus).toBe("unpaid");
    expect(await confirm(orderId)).toMatchObject({ paid: false });

    const resumed = await createSubscription({ orderId });
    expect(resumed.body.message).toBe("Reprise du paiement en cours");
    const ok = await withWebhooks(() => browserPay(resumed.body.clientSecret, CARDS.success));
    expect(ok.body.status).toBe("succeeded");
    expect((await getOrder(orderId)).paymentStatus).toBe("paid");
  });

  it("switching between one-off and subscription leaves a single payable intent", async () => {
    const orderId = await createTestOrder();
    const sub = await createSubscription({ orderId });
    const startOneOff = await startAction(routeArgs(ownerRequest("/api/payments/start", { orderId, mode: "one_off" })));
    const oneOff = await startOneOff.json();
    expect(oneOff.paid).toBe(false);
    expect(await getOrder(orderId)).toMatchObject({ isSubscription: false, stripeSubscriptionId: null });
    const stripe = await getStripe();
    expect((await stripe.subscriptions.retrieve(sub.body.subscriptionId)).status).toBe("canceled");

    const back = await startAction(routeArgs(ownerRequest("/api/payments/start", { orderId, mode: "subscription" })));
    const subAgain = await back.json();
    expect(subAgain.subscriptionId).not.toBe(sub.body.subscriptionId);
    expect((await stripe.paymentIntents.retrieve(oneOff.paymentIntentId)).status).toBe("canceled");
    await browserPay(subAgain.clientSecret, CARDS.success);
    expect(await confirm(orderId)).toMatchObject({ paid: true });
    expect(await getOrder(orderId)).toMatchObject({ isSubscription: true, stripeSubscriptionId: subAgain.subscriptionId });
  });

  it("attach-payment-method only works for the order's own subscription and email", async () => {
    const orderId = await createTestOrder();
    const created = await createSubscription({ orderId });
    const paid = await browserPay(created.body.clientSecret, CARDS.success);
    const attempt = async (body: Record<string, unknown>) => {
      const response = await attachAction(routeArgs(ownerRequest("/api/attach-payment-method", body)));
      return { status: response.status, body: await response.json() };
    };
    expect(
      await attempt({
        subscriptionId: "sub_unknown123",
        paymentMethodId: paid.paymentMethodId,
        customerEmail: "camille.martin@example.fr",
      }),
    ).toMatchObject({
      status: 404,
      body: { error: "Abonnement introuvable", code: "subscription_not_found" },
    });
    expect(
      await attempt({
        subscriptionId: created.body.subscriptionId,
        paymentMethodId: paid.paymentMethodId,
        customerEmail: "autre@example.fr",
      }),
    ).toMatchObject({ status: 403, body: { code: "email_mismatch" } });
    expect(
      await attempt({
        subscriptionId: created.body.subscriptionId,
        paymentMethodId: paid.paymentMethodId,
        customerEmail: "camille.martin@example.fr",
        orderId: orderId + 1,
      }),
    ).toMatchObject({ status: 404 });
  });
});
