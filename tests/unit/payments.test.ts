import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { products } from "~/db/schema";
import { action as createSubscriptionAction } from "~/routes/api.create-subscription";
import { action as postOrder } from "~/routes/api.orders";
import { action as putOrder } from "~/routes/api.orders.$id";
import { action as confirmAction } from "~/routes/api.payments.confirm";
import { action as startAction } from "~/routes/api.payments.start";
import { confirmOrderPayment } from "~/services/payments/confirm.server";
import { startOneOffPayment } from "~/services/payments/one-off.server";
import { markOrderPaid } from "~/services/payments/payment-state.server";
import { getStripe, type StripeEmulatorHandle } from "~/services/stripe.server";
import {
  browserConfirm,
  browserCreatePaymentMethod,
  browserPay,
  CARDS,
  createTestOrder,
  deliverWebhooksToRoute,
  getOrder,
  jsonRequest,
  ownerRequest,
  productStock,
  recordedEventIds,
  replayEvent,
  routeArgs,
  startTestEmulator,
  stopTestEmulator,
  TEST_ACCESS,
} from "./payments-fixtures";

let emulator: StripeEmulatorHandle;

beforeAll(async () => {
  emulator = await startTestEmulator();
});
afterAll(async () => {
  await stopTestEmulator();
});

async function start(orderId: number, extra: Record<string, unknown> = {}) {
  const response = await startAction(routeArgs(ownerRequest("/api/payments/start", { orderId, mode: "one_off", ...extra })));
  return { status: response.status, body: await response.json() };
}

async function confirm(orderId: number, extra: Record<string, unknown> = {}) {
  const response = await confirmAction(routeArgs(ownerRequest("/api/payments/confirm", { orderId, ...extra })));
  return { status: response.status, body: await response.json() };
}

function eventsFor(paymentIntentId: string, type: string) {
  return emulator.events.filter((e) => e.type === type && (e.data.object as { id?: string }).id === paymentIntentId);
}

describe("one-off card payment through the emulator", () => {
  it("marks the order paid once and decrements the stock once, however often confirm and the webhook arrive", async () => {
    const orderId = await createTestOrder({ quantity: 2, unitPriceCents: 2590 });
    const stockBefore = await productStock();

    const started = await start(orderId);
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({
      paid: false,
      orderId,
      amountCents: 5180,
      amount: "51.80",
      status: "requires_payment_method",
    });
    expect(started.body.clientSecret).toMatch(/^pi_[A-Za-z0-9]+_secret_[A-Za-z0-9]+$/);

    // The PaymentIntent holds the order total from the DB, in euros, tagged with the order.
    const stripe = await getStripe();
    const pi = await stripe.paymentIntents.retrieve(started.body.paymentIntentId);
    expect(pi).toMatchObject({ amount: 5180, currency: "eur", metadata: { orderId: String(orderId) } });

    const paid = await browserPay(started.body.clientSecret, CARDS.success);
    expect(paid.status).toBe(200);
    expect(paid.body.status).toBe("succeeded");
    // The browser's success alone changes nothing.
    expect((await getOrder(orderId)).paymentStatus).toBe("unpaid");

    const first = await confirm(orderId);
    expect(first).toEqual({ status: 200, body: { paid: true, orderId, paymentStatus: "paid" } });
    const second = await confirm(orderId);
    expect(second.body).toEqual({ paid: true, orderId, paymentStatus: "paid" });

    // Stripe's webhook arrives afterwards, and is even replayed: nothing changes any more.
    const [succeeded] = eventsFor(started.body.paymentIntentId, "payment_intent.succeeded");
    expect(succeeded).toBeDefined();
    for (let i = 0; i < 2; i++) {
      const response = await replayEvent(emulator, succeeded);
      expect(response.status).toBe(200);
      expect((await response.json()).outcome).toBe(i === 0 ? "already_paid" : "duplicate");
    }

    const order = await getOrder(orderId);
    expect(order).toMatchObject({
      paymentStatus: "paid",
      isSubscription: false,
      stripePaymentIntentId: started.body.paymentIntentId,
    });
    expect(order.paidAt).not.toBeNull();
    expect(order.stockDecrementedAt).not.toBeNull();
    expect(await productStock()).toBe(stockBefore - 2);
    expect(await recordedEventIds()).toContain(succeeded.id);
  });

  it("lets the webhook win when it arrives before the browser's confirm, still with one stock decrement", async () => {
    const orderId = await createTestOrder();
    const stockBefore = await productStock();
    const started = await start(orderId);
    deliverWebhooksToRoute(emulator);
    try {
      await browserPay(started.body.clientSecret, CARDS.success);
      await emulator.flushWebhooks();
    } finally {
      emulator.setWebhookTarget(null);
    }
    expect((await getOrder(orderId)).paymentStatus).toBe("paid");
    expect(await productStock()).toBe(stockBefore - 1);

    expect((await confirm(orderId)).body).toEqual({ paid: true, orderId, paymentStatus: "paid" });
    expect(await confirmOrderPayment(orderId)).toEqual({ paid: true });
    expect(await productStock()).toBe(stockBefore - 1);
  });

  it("markOrderPaid flips an order only once", async () => {
    const orderId = await createTestOrder();
    const stockBefore = await productStock();
    expect(await markOrderPaid(orderId, { paymentIntentId: "pi_test" })).toBe(true);
    expect(await markOrderPaid(orderId, { paymentIntentId: "pi_test" })).toBe(false);
    expect(await markOrderPaid(orderId, { subscriptionId: "sub_test" })).toBe(false);
    expect(await productStock()).toBe(stockBefore - 1);
    expect(await getOrder(orderId)).toMatchObject({
      paymentStatus: "paid",
      stripePaymentIntentId: "pi_test",
      stripeSubscriptionId: null,
    });
  });

  it("answers paid without a new PaymentIntent when the order is already paid", async () => {
    const orderId = await createTestOrder();
    const started = await start(orderId);
    await browserPay(started.body.clientSecret, CARDS.success);
    // Starting again before any confirm: the server sees the success at Stripe and marks the order paid.
    expect((await start(orderId)).body).toEqual({ paid: true, orderId });
    expect((await getOrder(orderId)).paymentStatus).toBe("paid");
    expect((await start(orderId)).body).toEqual({ paid: true, orderId });
  });
});

describe("failing test cards", () => {
  const cases = [
    { card: CARDS.declined, code: "card_declined", message: "Votre carte a été refusée." },
    { card: CARDS.incorrectCvc, code: "incorrect_cvc" },
    { card: CARDS.incorrectZip, code: "incorrect_zip" },
  ];
  for (const { card, code, message } of cases) {
    it(`${code}: the order stays unpaid and a later 4242 payment succeeds`, async () => {
      const orderId = await createTestOrder();
      const stockBefore = await productStock();
      const started = await start(orderId);
      deliverWebhooksToRoute(emulator);
      try {
        const failed = await browserPay(started.body.clientSecret, card);
        expect(failed.status).toBe(402);
        expect(failed.body.error).toMatchObject({ type: "card_error", code });
        if (message) expect(failed.body.error.message).toBe(message);
        expect(failed.body.error.payment_intent.status).toBe("requires_payment_method");
        await emulator.flushWebhooks();
      } finally {
        emulator.setWebhookTarget(null);
      }
      // The failure webhook was received and changed nothing; confirm finds nothing paid.
      expect(eventsFor(started.body.paymentIntentId, "payment_intent.payment_failed")).toHaveLength(1);
      expect((await confirm(orderId)).body).toEqual({ paid: false, orderId, paymentStatus: "unpaid" });
      expect((await getOrder(orderId)).paymentStatus).toBe("unpaid");
      expect(await productStock()).toBe(stockBefore);

      // Paying again: the same PaymentIntent is offered again, and another card pays it.
      const again = await start(orderId);
      expect(again.body).toMatchObject({ paid: false, paymentIntentId: started.body.paymentIntentId });
      const ok = await browserPay(again.body.clientSecret, CARDS.success);
      expect(ok.body.status).toBe("succeeded");
      expect((await confirm(orderId)).body).toEqual({ paid: true, orderId, paymentStatus: "paid" });
      expect(await productStock()).toBe(stockBefore - 1);
    });
  }
});

describe("the browser cannot mark an order paid", () => {
  it("confirm leaves the order unpaid while its PaymentIntent has not succeeded, whatever the body says", async () => {
    const orderId = await createTestOrder();
    expect((await confirm(orderId, { paid: true, status: "succeeded" })).body).toEqual({
      paid: false,
      orderId,
      paymentStatus: "unpaid",
    });
    const started = await start(orderId);
    expect((await confirm(orderId, { paymentIntentId: started.body.paymentIntentId, paid: true })).body).toMatchObject({
      paid: false,
    });
    expect((await getOrder(orderId)).paymentStatus).toBe("unpaid");
  });

  it("ignores amounts sent by the browser: the PaymentIntent always holds the order total", async () => {
    const orderId = await createTestOrder({ quantity: 1, unitPriceCents: 3290 });
    const started = await start(orderId, { amount: "0.50", amountCents: 50, totalCents: 50 });
    expect(started.body.amountCents).toBe(3290);
    const stripe = await getStripe();
    expect((await stripe.paymentIntents.retrieve(started.body.paymentIntentId)).amount).toBe(3290);
  });

  it("does not accept a succeeded payment of another amount, even signed by Stripe", async () => {
    const orderId = await createTestOrder();
    const stripe = await getStripe();
    // A PaymentIntent claiming the order, for 0,50€, paid: the webhook and confirm both refuse it.
    const pm = await browserCreatePaymentMethod(CARDS.success);
    const cheap = await stripe.paymentIntents.create({ amount: 50, currency: "eur", metadata: { orderId: String(orderId) } });
    const confirmed = await browserConfirm(cheap.client_secret!, pm);
    expect(confirmed.body.status).toBe("succeeded");
    const [event] = eventsFor(cheap.id, "payment_intent.succeeded");
    const response = await replayEvent(emulator, event);
    expect((await response.json()).outcome).toBe("ignored");
    expect((await getOrder(orderId)).paymentStatus).toBe("unpaid");
  });

  it("cannot confirm a PaymentIntent through the proxy without its client secret", async () => {
    const orderId = await createTestOrder();
    const started = await start(orderId);
    const pm = await browserCreatePaymentMethod(CARDS.success);
    const forged = `${started.body.paymentIntentId}_secret_forged0000000000000000`;
    const attempt = await browserConfirm(forged, pm);
    expect(attempt.status).toBe(404);
    expect((await confirm(orderId)).body.paid).toBe(false);
  });
});

describe("payable orders only", () => {
  it("refuses to start a payment for an out-of-stock order with a French 409", async () => {
    const [product] = await getDb()
      .insert(products)
      .values({ name: "Masque épuisé", sku: `EPUISE-${Date.now()}`, priceCents: 2590, stock: 0 })
      .returning();
    const orderId = await createTestOrder({ productId: product.id });
    const started = await start(orderId);
    expect(started.status).toBe(409);
    expect(started.body).toEqual({
      error: "Stock insuffisant : cet article n'est plus disponible dans la quantité commandée.",
      issues: [],
      code: "out_of_stock",
    });
    await expect(startOneOffPayment(orderId, TEST_ACCESS)).rejects.toMatchObject({ status: 409, code: "out_of_stock" });
  });

  it("answers 404 for an unknown order, and for an order that belongs to another visitor's cart", async () => {
    const unknown = await start(999_999_999);
    expect(unknown).toEqual({ status: 404, body: { error: "Commande introuvable", issues: [], code: "order_not_found" } });
    const orderId = await createTestOrder({ cartId: "0f8fad5b-d9cb-469f-a165-70867728950e" });
    const foreign = await start(orderId);
    expect(foreign.status).toBe(404);
    expect((await getOrder(orderId)).stripePaymentIntentId).toBeNull();
  });
});

describe("an order created through the API: its token, or nothing", () => {
  const SPEC_BODY = {
    total: "25.90",
    status: "pending",
    userId: 3,
    shippingAddress: "12 rue des Lilas",
    shippingCity: "Paris",
    shippingPostalCode: "75011",
    shippingCountry: "France",
    items: [{ productId: 1, quantity: 1, price: "25.90" }],
  };

  async function createApiOrder(body: Record<string, unknown>) {
    const response = await postOrder(routeArgs(jsonRequest("/api/orders", "POST", body)));
    expect(response.status).toBe(201);
    return (await response.json()) as { id: number; token: string };
  }

  async function startAs(body: Record<string, unknown>, headers: Record<string, string> = {}) {
    const response = await startAction(routeArgs(jsonRequest("/api/payments/start", "POST", body, headers)));
    return { status: response.status, body: await response.json() };
  }

  it("refuses to start or switch its payment without the token, exactly like an unknown order", async () => {
    const order = await createApiOrder({ ...SPEC_BODY, customerEmail: "jeton@example.fr" });
    const unknown = await startAs({ orderId: 999_999_998, mode: "one_off" });
    for (const mode of ["one_off", "subscription"]) {
      const anonymous = await startAs({ orderId: order.id, mode });
      expect(anonymous).toEqual(unknown);
      const wrongToken = await startAs({ orderId: order.id, mode, token: "c".repeat(43) });
      expect(wrongToken).toEqual(unknown);
    }
    expect(unknown).toEqual({ status: 404, body: { error: "Commande introuvable", issues: [], code: "order_not_found" } });
    expect(await getOrder(order.id)).toMatchObject({ stripePaymentIntentId: null, stripeSubscriptionId: null });

    const withToken = await startAs({ orderId: order.id, mode: "one_off", token: order.token });
    expect(withToken.status).toBe(200);
    expect(withToken.body).toMatchObject({ paid: false, orderId: order.id, amount: "25.90" });
    const viaHeader = await startAs({ orderId: order.id, mode: "one_off" }, { "X-Order-Token": order.token });
    expect(viaHeader.body.paymentIntentId).toBe(withToken.body.paymentIntentId);
    await browserPay(withToken.body.clientSecret, CARDS.success);
    expect((await confirm(order.id, { token: order.token })).body).toMatchObject({ paid: true });
  });

  it("needs an email on the order: set it with PUT /api/orders/{id} and the token first", async () => {
    const order = await createApiOrder(SPEC_BODY);
    const noEmail = await startAs({ orderId: order.id, mode: "one_off", token: order.token });
    expect(noEmail.status).toBe(409);
    expect(noEmail.body).toMatchObject({ code: "order_email_missing", issues: [{ path: "customerEmail" }] });
    const put = await putOrder(
      routeArgs(
        jsonRequest(
          `/api/orders/${order.id}`,
          "PUT",
          { customerEmail: "plus.tard@example.fr", customerName: "Sam Tard", status: "confirmed" },
          { "X-Order-Token": order.token },
        ),
        {
          id: String(order.id),
        },
      ),
    );
    expect(put.status).toBe(200);
    expect(await getOrder(order.id)).toMatchObject({ paymentStatus: "unpaid", customerEmail: "plus.tard@example.fr" });
    const started = await startAs({ orderId: order.id, mode: "one_off", token: order.token });
    expect(started.status).toBe(200);
    const pi = await (await getStripe()).paymentIntents.retrieve(started.body.paymentIntentId);
    expect(pi.receipt_email).toBe("plus.tard@example.fr");
  });
});

describe("the trial pack at the payment step", () => {
  it("is a one-off purchase only: the subscription is refused with the reason", async () => {
    const orderId = await createTestOrder({ packId: 1, unitPriceCents: 99, email: "essai.abonnement@example.fr" });
    const subscription = await start(orderId, { mode: "subscription" });
    expect(subscription.status).toBe(409);
    expect(subscription.body).toMatchObject({
      code: "trial_one_off_only",
      error: expect.stringContaining("uniquement en achat unique"),
    });
    const createSubscription = await createSubscriptionAction(routeArgs(ownerRequest("/api/create-subscription", { orderId })));
    expect(createSubscription.status).toBe(409);
    expect(await getOrder(orderId)).toMatchObject({ stripeSubscriptionId: null, isSubscription: false });
    expect((await start(orderId)).status).toBe(200);
  });

  it("is paid once per email: a second trial order for that email cannot be paid", async () => {
    const email = "essai.deux.fois@example.fr";
    const first = await createTestOrder({ packId: 1, unitPriceCents: 99, email });
    const second = await createTestOrder({ packId: 1, unitPriceCents: 99, email: "Essai.Deux.Fois@example.fr" });
    const started = await start(first);
    await browserPay(started.body.clientSecret, CARDS.success);
    expect((await confirm(first)).body.paid).toBe(true);
    const refused = await start(second);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: "trial_used", error: expect.stringContaining("une fois par adresse email") });
    expect((await getOrder(second)).stripePaymentIntentId).toBeNull();
  });
});
