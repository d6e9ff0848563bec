import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { emails, invoices, refunds } from "~/db/schema";
import { action as hostedAction } from "~/routes/paiement-securise";
import { loader as confirmationLoader } from "~/routes/order-confirmation.$id";
import { action as createSubscriptionAction } from "~/routes/api.create-subscription";
import { startHostedCheckout } from "~/services/payments/hosted-checkout.server";
import { startOneOffPayment } from "~/services/payments/one-off.server";
import { getStripe } from "~/services/stripe.server";
import type { StripeEmulatorHandle } from "~/services/stripe.server";
import {
  browserPay,
  CARDS,
  createTestOrder,
  getOrder,
  productStock,
  replayEvent,
  startTestEmulator,
  stopTestEmulator,
  TEST_ACCESS,
  TEST_ORDER_TOKEN,
} from "./payments-fixtures";
import { formRequest, getRequest, jsonRequest, routeArgs } from "../helpers/requests";

/** Paying without JavaScript: the Checkout Session, its hosted page, `checkout.session.completed`. */

let emulator: StripeEmulatorHandle;

beforeAll(async () => {
  emulator = await startTestEmulator();
});
afterAll(async () => {
  await stopTestEmulator();
});

const expiry = `12/${String(new Date().getFullYear() + 2).slice(2)}`;

/** The shopper's browser on the hosted page: the card typed, « Payer » (no JavaScript). */
async function payOnHostedPage(url: string, number: string) {
  return await fetch(url, {
    method: "POST",
    body: new URLSearchParams({ numero: number, expiration: expiry, cvc: "123" }),
    redirect: "manual",
  });
}

async function hostedSession(orderId: number, mode: "one_off" | "subscription" = "one_off") {
  const started = await startHostedCheckout({ orderId, mode, consent: mode === "subscription" }, TEST_ACCESS);
  if (started.paid) throw new Error("expected an unpaid order");
  return started.url;
}

function completedEvent(orderId: number) {
  return emulator.events.find(
    (e) =>
      e.type === "checkout.session.completed" &&
      (e.data.object as { metadata?: Record<string, string> }).metadata?.orderId === String(orderId),
  )!;
}

async function orderEmails(orderId: number) {
  return await getDb()
    .select()
    .from(emails)
    .where(and(eq(emails.orderId, orderId), eq(emails.kind, "order_confirmation")));
}

describe("checkout.session.completed", () => {
  it("marks the one-off order paid once: one invoice, one email, the stock once, whatever the replays", async () => {
    const orderId = await createTestOrder();
    const url = await hostedSession(orderId);
    const paid = await payOnHostedPage(url, CARDS.success);
    expect(paid.status).toBe(303);
    const event = completedEvent(orderId);
    const stockBefore = await productStock();

    const first = await replayEvent(emulator, event);
    expect(await first.json()).toEqual({ received: true, type: "checkout.session.completed", outcome: "order_paid" });
    // The same event again (Stripe retries), twice: recorded once, nothing else happens.
    for (let i = 0; i < 2; i++) expect(await (await replayEvent(emulator, event)).json()).toMatchObject({ outcome: "duplicate" });
    // Another event for the same session (sent again from Stripe's dashboard): the order is already paid.
    const again = await replayEvent(emulator, { ...event, id: `${event.id}_again` });
    expect(await again.json()).toMatchObject({ outcome: "already_paid" });

    const order = await getOrder(orderId);
    expect(order).toMatchObject({ paymentStatus: "paid", isSubscription: false });
    expect(order.stripePaymentIntentId).toMatch(/^pi_/);
    expect(await productStock()).toBe(stockBefore - 1);
    expect(await getDb().select().from(invoices).where(eq(invoices.orderId, orderId))).toHaveLength(1);
    expect(await orderEmails(orderId)).toHaveLength(1);
  });

  it("marks the subscription's order paid through its subscription, once", async () => {
    const orderId = await createTestOrder();
    const url = await hostedSession(orderId, "subscription");
    expect((await payOnHostedPage(url, CARDS.success)).status).toBe(303);
    const event = completedEvent(orderId);
    expect(await (await replayEvent(emulator, event)).json()).toMatchObject({ outcome: "order_paid" });
    expect(await (await replayEvent(emulator, event)).json()).toMatchObject({ outcome: "duplicate" });
    const order = await getOrder(orderId);
    expect(order).toMatchObject({ paymentStatus: "paid", isSubscription: true });
    expect(order.stripeSubscriptionId).toMatch(/^sub_/);
    expect(await orderEmails(orderId)).toHaveLength(1);
  });

  it("ignores a session whose amount is not the order's", async () => {
    const orderId = await createTestOrder();
    const url = await hostedSession(orderId);
    await payOnHostedPage(url, CARDS.success);
    const event = completedEvent(orderId);
    const forged = { ...event, id: `${event.id}_amount`, data: { object: { ...event.data.object, amount_total: 50 } } };
    expect(await (await replayEvent(emulator, forged)).json()).toMatchObject({ outcome: "ignored" });
    expect((await getOrder(orderId)).paymentStatus).toBe("unpaid");
  });
});

describe("a second payment of a paid order", () => {
  it("a hosted page paid after the card paid the order: the second payment is refunded in full, the order keeps the first", async () => {
    const orderId = await createTestOrder();
    // The hosted page opened first (no JavaScript), left open; then the card form pays the order.
    const url = await hostedSession(orderId);
    const started = await startOneOffPayment(orderId, TEST_ACCESS);
    if (started.paid) throw new Error("expected an unpaid order");
    expect((await browserPay(started.clientSecret, CARDS.success)).body.status).toBe("succeeded");
    const cardPaid = emulator.events.find(
      (e) => e.type === "payment_intent.succeeded" && (e.data.object as { id: string }).id === started.paymentIntentId,
    )!;
    expect(await (await replayEvent(emulator, cardPaid)).json()).toMatchObject({ outcome: "order_paid" });

    // The forgotten tab: the hosted page is paid too.
    expect((await payOnHostedPage(url, CARDS.success)).status).toBe(303);
    const event = completedEvent(orderId);
    const second = (event.data.object as { payment_intent: string }).payment_intent;
    expect(second).not.toBe(started.paymentIntentId);
    expect(await (await replayEvent(emulator, event)).json()).toMatchObject({ outcome: "duplicate_payment_refunded" });
    // Replayed, or sent again under another id: still one refund at Stripe.
    expect(await (await replayEvent(emulator, event)).json()).toMatchObject({ outcome: "duplicate" });
    expect(await (await replayEvent(emulator, { ...event, id: `${event.id}_again` })).json()).toMatchObject({
      outcome: "duplicate_payment_refunded",
    });
    const stripe = await getStripe();
    const refundsOfSecond = await stripe.refunds.list({ payment_intent: second });
    expect(refundsOfSecond.data).toHaveLength(1);
    expect(refundsOfSecond.data[0]).toMatchObject({ status: "succeeded", amount: (await getOrder(orderId)).totalCents });
    expect((await stripe.refunds.list({ payment_intent: started.paymentIntentId })).data).toHaveLength(0);

    // Stripe's refund webhooks of the second payment leave the order as it is: paid by the card, nothing refunded.
    for (const refunded of emulator.events.filter(
      (e) => e.type === "charge.refunded" && (e.data.object as { payment_intent: string }).payment_intent === second,
    ))
      await replayEvent(emulator, refunded);
    const order = await getOrder(orderId);
    expect(order).toMatchObject({ paymentStatus: "paid", stripePaymentIntentId: started.paymentIntentId });
    expect(await getDb().select().from(refunds).where(eq(refunds.orderId, orderId))).toHaveLength(0);
    expect(await getDb().select().from(invoices).where(eq(invoices.orderId, orderId))).toHaveLength(1);
    expect(await orderEmails(orderId)).toHaveLength(1);
  });
  it("a hosted subscription paid after the card started one: the second subscription is cancelled and its payment refunded", async () => {
    const orderId = await createTestOrder();
    const url = await hostedSession(orderId, "subscription");
    const created = (await (
      await createSubscriptionAction(
        routeArgs(jsonRequest("/api/create-subscription", "POST", { orderId }, { "X-Order-Token": TEST_ORDER_TOKEN })),
      )
    ).json()) as { subscriptionId: string; clientSecret: string };
    expect((await browserPay(created.clientSecret, CARDS.success)).body.status).toBe("succeeded");
    const firstPaid = emulator.events.find(
      (e) =>
        e.type === "invoice.paid" &&
        (e.data.object as { parent?: { subscription_details?: { subscription?: string } } }).parent?.subscription_details
          ?.subscription === created.subscriptionId,
    )!;
    expect(await (await replayEvent(emulator, firstPaid)).json()).toMatchObject({ outcome: "order_paid" });

    expect((await payOnHostedPage(url, CARDS.success)).status).toBe(303);
    const event = completedEvent(orderId);
    const second = event.data.object as { subscription: string; invoice: string };
    expect(second.subscription).not.toBe(created.subscriptionId);
    expect(await (await replayEvent(emulator, event)).json()).toMatchObject({ outcome: "duplicate_payment_refunded" });

    const stripe = await getStripe();
    expect((await stripe.subscriptions.retrieve(second.subscription)).status).toBe("canceled");
    expect((await stripe.subscriptions.retrieve(created.subscriptionId)).status).toBe("trialing");
    const invoice = await stripe.invoices.retrieve(second.invoice, { expand: ["payments"] });
    const pi = invoice.payments!.data[0].payment.payment_intent as string;
    expect((await stripe.refunds.list({ payment_intent: pi })).data).toHaveLength(1);
    const order = await getOrder(orderId);
    expect(order).toMatchObject({ paymentStatus: "paid", isSubscription: true, stripeSubscriptionId: created.subscriptionId });
    expect(await getDb().select().from(refunds).where(eq(refunds.orderId, orderId))).toHaveLength(0);
  });
});

describe("the hosted page and the way back", () => {
  it("a declined card leaves the order unpaid and the session open", async () => {
    const orderId = await createTestOrder();
    const url = await hostedSession(orderId);
    const declined = await payOnHostedPage(url, CARDS.declined);
    expect(declined.status).toBe(402);
    expect(await declined.text()).toContain("Votre carte a été refusée.");
    expect(completedEvent(orderId)).toBeUndefined();
    expect((await getOrder(orderId)).paymentStatus).toBe("unpaid");
  });

  it("the confirmation page waits (meta refresh) until Stripe says the session paid, then asks Stripe itself", async () => {
    const orderId = await createTestOrder();
    const url = await hostedSession(orderId);
    const sessionId = url.split("/").pop()!;
    const load = async () => {
      const response = await confirmationLoader(
        routeArgs(getRequest(`/order-confirmation/${orderId}?session_id=${sessionId}`, { "X-Order-Token": TEST_ORDER_TOKEN }), {
          id: String(orderId),
        }),
      );
      return (response as unknown as { data: { pending: boolean; order: { paymentStatus: string } } }).data;
    };
    // Not paid yet (the shopper came back by hand): pending.
    expect(await load()).toMatchObject({ pending: true, order: { paymentStatus: "unpaid" } });
    // Paid at the hosted page, the webhook not delivered: the page asks Stripe about the session.
    await payOnHostedPage(url, CARDS.success);
    expect(await load()).toMatchObject({ pending: false, order: { paymentStatus: "paid" } });
  });

  it("the subscription without its consent goes back to the payment step with the French message", async () => {
    const orderId = await createTestOrder();
    const response = await hostedAction(
      routeArgs(
        formRequest(
          "/paiement-securise",
          { orderId: String(orderId), mode: "subscription" },
          { headers: { "X-Order-Token": TEST_ORDER_TOKEN } },
        ),
      ),
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/panier?etape=paiement");
    await expect(startHostedCheckout({ orderId, mode: "subscription", consent: false }, TEST_ACCESS)).rejects.toMatchObject({
      status: 422,
      message: "Veuillez accepter les conditions de l'abonnement pour continuer.",
    });
  });
});
