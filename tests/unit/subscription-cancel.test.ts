import { asResponses } from "../helpers/route-response";
import { beforeEach, describe, expect, it } from "vitest";
import { ShopError } from "~/lib/shop-error";
import { action as pageActionRoute } from "~/routes/abonnement.resilier";
import { action as createSubscriptionAction } from "~/routes/api.create-subscription";
import { action as startAction } from "~/routes/api.payments.start";
import { subscriptionCancelSchema } from "~/schemas/subscription-cancel";
import { getStripe } from "~/services/stripe.server";
import {
  cancelSubscription,
  resetSubscriptionCancelRateLimit,
  SUBSCRIPTION_NOT_FOUND_MESSAGE,
} from "~/services/subscriptions/cancel.server";
import { formRequest, fromAddress } from "../helpers/requests";
import { browserPay, CARDS, createTestOrder, getOrder, ownerRequest, replayEvent, routeArgs } from "./payments-fixtures";
import { setUpTestEmulator } from "./emulator-fixtures";

const pageAction = asResponses(pageActionRoute);

const EMAIL = "camille.martin@example.fr"; // the checkout email of createTestOrder

const { emulator, withWebhooks } = setUpTestEmulator();

beforeEach(async () => {
  await resetSubscriptionCancelRateLimit();
});

/** A subscription order whose first charge was paid (4242), as after a real checkout. */
async function paidSubscriptionOrder() {
  const orderId = await createTestOrder();
  const response = await createSubscriptionAction(routeArgs(ownerRequest("/api/create-subscription", { orderId })));
  const created = (await response.json()) as { subscriptionId: string; clientSecret: string };
  await withWebhooks(() => browserPay(created.clientSecret, CARDS.success));
  const order = await getOrder(orderId);
  expect(order).toMatchObject({ paymentStatus: "paid", isSubscription: true, stripeSubscriptionId: created.subscriptionId });
  return { orderId, subscriptionId: created.subscriptionId };
}

async function subscriptionAtStripe(id: string) {
  return (await getStripe()).subscriptions.retrieve(id);
}

function deletedEvents(subscriptionId: string) {
  return emulator().events.filter(
    (e) => e.type === "customer.subscription.deleted" && (e.data.object as { id: string }).id === subscriptionId,
  );
}

async function refusal(run: () => Promise<unknown>) {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(ShopError);
    const { status, message, retryAfterSeconds } = error as ShopError;
    return { status, message, retryAfterSeconds };
  }
  throw new Error("expected a refusal");
}

async function postPage(fields: Record<string, string>, headers: Record<string, string> = {}, address = "192.0.2.1") {
  const response = await pageAction(
    routeArgs(formRequest("/abonnement/resilier", fields, { headers }), {}, fromAddress(address)),
  );
  return { status: response.status, headers: response.headers, body: await response.json() };
}

describe("cancelSubscription", () => {
  it("cancels at Stripe with the checkout email (any case, spaces) and records the date on the order", async () => {
    // The customer lives on a test clock frozen when it was created: Stripe dates the cancellation at the clock's time.
    const before = Date.now();
    const { orderId, subscriptionId } = await paidSubscriptionOrder();
    expect((await subscriptionAtStripe(subscriptionId)).status).toBe("trialing");

    const result = await cancelSubscription({ orderId: String(orderId), email: "  Camille.MARTIN@example.fr " });

    const sub = await subscriptionAtStripe(subscriptionId);
    expect(sub.status).toBe("canceled");
    expect(sub.canceled_at).toBeGreaterThanOrEqual(Math.floor(before / 1000));
    expect(result).toEqual({ outcome: "canceled", orderId, canceledAt: new Date(sub.canceled_at! * 1000).toISOString() });
    const order = await getOrder(orderId);
    expect(order.subscriptionCanceledAt).toBe(result.canceledAt);
    // The paid order is kept: still paid, still to ship.
    expect(order).toMatchObject({
      paymentStatus: "paid",
      status: "pending",
      isSubscription: true,
      stripeSubscriptionId: subscriptionId,
    });
    // Stripe's signed webhook for it was emitted, and the shop accepts it without changing the date.
    const [deleted] = deletedEvents(subscriptionId);
    expect(deleted).toBeDefined();
    expect(await (await replayEvent(emulator(), deleted)).json()).toMatchObject({ outcome: "subscription_ended" });
    expect((await getOrder(orderId)).subscriptionCanceledAt).toBe(result.canceledAt);
  });

  it("is idempotent: a second cancellation says it is already cancelled, with the same date, and calls Stripe no more", async () => {
    const { orderId, subscriptionId } = await paidSubscriptionOrder();
    const first = await cancelSubscription({ orderId, email: EMAIL });
    const second = await cancelSubscription({ orderId, email: EMAIL });
    expect(second).toEqual({ outcome: "already_canceled", orderId, canceledAt: first.canceledAt });
    expect(deletedEvents(subscriptionId)).toHaveLength(1);
    expect((await getOrder(orderId)).subscriptionCanceledAt).toBe(first.canceledAt);
  });

  it("gives the same neutral answer for an unknown order and a wrong email, and changes nothing", async () => {
    const { orderId, subscriptionId } = await paidSubscriptionOrder();
    const before = await getOrder(orderId);
    const unknown = await refusal(() => cancelSubscription({ orderId: "123456789", email: EMAIL }));
    const wrongEmail = await refusal(() => cancelSubscription({ orderId, email: "quelquun@example.fr" }));
    const garbage = await refusal(() => cancelSubscription({ orderId: "abc", email: EMAIL }));
    for (const answer of [unknown, wrongEmail, garbage]) {
      expect(answer).toEqual({ status: 404, message: "Aucun abonnement actif ne correspond à ces informations." });
    }
    expect(await getOrder(orderId)).toEqual(before);
    expect((await getOrder(orderId)).subscriptionCanceledAt).toBeNull();
    expect((await subscriptionAtStripe(subscriptionId)).status).toBe("trialing");
    expect(deletedEvents(subscriptionId)).toHaveLength(0);
  });

  it("a one-off order, and a subscription never paid, cannot be 'cancelled'", async () => {
    const oneOffId = await createTestOrder();
    const started = await (await startAction(routeArgs(ownerRequest("/api/payments/start", { orderId: oneOffId })))).json();
    await withWebhooks(() => browserPay(started.clientSecret, CARDS.success));
    expect(await getOrder(oneOffId)).toMatchObject({ paymentStatus: "paid", isSubscription: false });
    expect(await refusal(() => cancelSubscription({ orderId: oneOffId, email: EMAIL }))).toEqual({
      status: 404,
      message: SUBSCRIPTION_NOT_FOUND_MESSAGE,
    });
    expect((await getOrder(oneOffId)).subscriptionCanceledAt).toBeNull();

    const unpaidId = await createTestOrder();
    await createSubscriptionAction(routeArgs(ownerRequest("/api/create-subscription", { orderId: unpaidId })));
    expect(await getOrder(unpaidId)).toMatchObject({ paymentStatus: "unpaid", isSubscription: true });
    expect((await refusal(() => cancelSubscription({ orderId: unpaidId, email: EMAIL }))).status).toBe(404);
  });

  it("records a cancellation made elsewhere: by Stripe's webhook, or found when Stripe says it is already cancelled", async () => {
    // Cancelled at Stripe (dashboard), webhook delivered: the order records it, once.
    const a = await paidSubscriptionOrder();
    await withWebhooks(() => (async () => (await getStripe()).subscriptions.cancel(a.subscriptionId))());
    const atStripe = await subscriptionAtStripe(a.subscriptionId);
    expect((await getOrder(a.orderId)).subscriptionCanceledAt).toBe(new Date(atStripe.canceled_at! * 1000).toISOString());
    // That event was delivered: a replay is a duplicate.
    expect(await (await replayEvent(emulator(), deletedEvents(a.subscriptionId)[0])).json()).toMatchObject({
      outcome: "duplicate",
    });
    expect(await cancelSubscription({ orderId: a.orderId, email: EMAIL })).toMatchObject({ outcome: "already_canceled" });

    // Cancelled at Stripe, webhook lost: Stripe refuses the second cancel; the shop records it anyway.
    const b = await paidSubscriptionOrder();
    await (await getStripe()).subscriptions.cancel(b.subscriptionId);
    expect((await getOrder(b.orderId)).subscriptionCanceledAt).toBeNull();
    const result = await cancelSubscription({ orderId: b.orderId, email: EMAIL });
    const bAtStripe = await subscriptionAtStripe(b.subscriptionId);
    expect(result).toEqual({
      outcome: "already_canceled",
      orderId: b.orderId,
      canceledAt: new Date(bAtStripe.canceled_at! * 1000).toISOString(),
    });
    expect((await getOrder(b.orderId)).subscriptionCanceledAt).toBe(result.canceledAt);
  });

  it("still cancels with the right email after 20 wrong ones from other addresses: no limit per order", async () => {
    const { orderId, subscriptionId } = await paidSubscriptionOrder();
    for (let i = 0; i < 20; i++) {
      expect(
        (await refusal(() => cancelSubscription({ orderId, email: `essai${i}@example.fr` }, { address: `10.0.0.${i}` }))).status,
      ).toBe(404);
    }
    expect((await subscriptionAtStripe(subscriptionId)).status).toBe("trialing");
    expect(await cancelSubscription({ orderId, email: EMAIL }, { address: "10.0.1.1" })).toMatchObject({ outcome: "canceled" });
    expect((await subscriptionAtStripe(subscriptionId)).status).toBe("canceled");
  });

  it("refuses an address that keeps guessing order numbers", async () => {
    for (let i = 0; i < 10; i++) {
      expect(
        (await refusal(() => cancelSubscription({ orderId: String(200_000_000 + i), email: EMAIL }, { address: "192.0.2.7" })))
          .status,
      ).toBe(404);
    }
    const blocked = await refusal(() => cancelSubscription({ orderId: "200000099", email: EMAIL }, { address: "192.0.2.7" }));
    expect(blocked.status).toBe(429);
    expect(blocked.message).toMatch(/^Trop de tentatives\. Réessayez dans \d+ minutes?\.$/);
    expect(blocked.retryAfterSeconds).toBeGreaterThan(0);
    expect(
      (await refusal(() => cancelSubscription({ orderId: "200000099", email: EMAIL }, { address: "192.0.2.8" }))).status,
    ).toBe(404);
  });
});

describe("/abonnement/resilier action", () => {
  it("gives the French validation messages with a 400", async () => {
    expect(subscriptionCancelSchema.safeParse({ orderId: " ", email: "x" }).success).toBe(false);
    const empty = await postPage({ orderId: "", email: "" });
    expect(empty.status).toBe(400);
    expect(empty.body.result.error).toEqual({ orderId: ["Le numéro de commande est requis"], email: ["Adresse email invalide"] });
    const badEmail = await postPage({ orderId: "123456789", email: "pas-un-email" });
    expect(badEmail.status).toBe(400);
    expect(badEmail.body.result.error).toEqual({ email: ["Adresse email invalide"] });
    expect(badEmail.body.outcome).toBeNull();
  });

  it("cancels with a form post and answers the date; the neutral message otherwise", async () => {
    const { orderId, subscriptionId } = await paidSubscriptionOrder();
    const wrong = await postPage({ orderId: String(orderId), email: "autre@example.fr" });
    expect(wrong).toMatchObject({ status: 404, body: { outcome: { kind: "refused", message: SUBSCRIPTION_NOT_FOUND_MESSAGE } } });
    expect((await subscriptionAtStripe(subscriptionId)).status).toBe("trialing");

    const ok = await postPage({ orderId: `#${orderId}`, email: EMAIL });
    expect(ok.status).toBe(200);
    expect(ok.body.outcome).toEqual({ kind: "canceled", orderId, canceledAt: (await getOrder(orderId)).subscriptionCanceledAt });
    expect((await subscriptionAtStripe(subscriptionId)).status).toBe("canceled");

    const again = await postPage({ orderId: String(orderId), email: EMAIL });
    expect(again).toMatchObject({ status: 200, body: { outcome: { kind: "already_canceled", orderId } } });
  });

  it("answers 429 with Retry-After and the French message to an address past its failed attempts", async () => {
    for (let i = 0; i < 10; i++) {
      expect((await postPage({ orderId: String(300_000_000 + i), email: EMAIL }, {}, "198.51.100.77")).status).toBe(404);
    }
    const blocked = await postPage({ orderId: "300000099", email: EMAIL }, { "X-Forwarded-For": "203.0.113.1" }, "198.51.100.77");
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(blocked.body.outcome).toMatchObject({
      kind: "refused",
      message: expect.stringMatching(/^Trop de tentatives\. Réessayez dans \d+ minutes?\.$/),
    });
  });

  it("cancels nothing when the honeypot is filled or the form comes from another site", async () => {
    const { orderId, subscriptionId } = await paidSubscriptionOrder();
    const bot = await postPage({ orderId: String(orderId), email: EMAIL, website: "http://spam" });
    expect(bot).toMatchObject({ status: 404, body: { outcome: { kind: "refused", message: SUBSCRIPTION_NOT_FOUND_MESSAGE } } });
    const foreign = await pageAction(
      routeArgs(
        formRequest(
          "/abonnement/resilier",
          { orderId: String(orderId), email: EMAIL },
          { headers: { Origin: "https://evil.example" } },
        ),
      ),
    ).catch((thrown: unknown) => thrown);
    expect(foreign).toBeInstanceOf(Response);
    expect((foreign as Response).status).toBe(403);
    expect((await subscriptionAtStripe(subscriptionId)).status).toBe("trialing");
    expect((await getOrder(orderId)).subscriptionCanceledAt).toBeNull();
  });
});
