import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { emails, orderItems, orders, subscriptions } from "~/db/schema";
import { action as createSubscriptionAction } from "~/routes/api.create-subscription";
import { action as apiPauseAction } from "~/routes/api.admin.subscriptions.$id.pause";
import { action as apiReactivateAction } from "~/routes/api.admin.subscriptions.$id.reactivate";
import { action as apiChangePackAction } from "~/routes/api.admin.subscriptions.$id.change-pack";
import { getAdminSubscription } from "~/services/subscriptions/admin-view.server";
import { cancelSubscriptionAsAdmin } from "~/services/subscriptions/admin-cancel.server";
import {
  changeSubscriptionFrequency,
  changeSubscriptionPack,
  pauseSubscription,
  reactivateSubscription,
  resumeSubscription,
  skipNextDelivery,
  undoSkip,
} from "~/services/subscriptions/self-service.server";
import { selfServiceView } from "~/services/subscriptions/self-service-view.server";
import { awaitRenewalOutcome, simulateNextRenewal } from "~/services/subscriptions/test-clock.server";
import { getStripe } from "~/services/stripe.server";
import { jsonRequest } from "../helpers/requests";
import { adminCookie } from "./admin-helpers";
import { setUpTestEmulator } from "./emulator-fixtures";
import { browserPay, CARDS, createTestOrder, ownerRequest, routeArgs } from "./payments-fixtures";

/**
 * The subscriber's own changes (skip, pause, resume, change pack, reactivate) through the
 * emulator as Stripe's test mode, each followed by a simulated renewal that shows its effect.
 */

const { withWebhooks } = setUpTestEmulator();
const customer = { kind: "customer" } as const;

async function subscribed() {
  const orderId = await createTestOrder();
  const response = await createSubscriptionAction(routeArgs(ownerRequest("/api/create-subscription", { orderId })));
  const created = (await response.json()) as { subscriptionId: string; clientSecret: string };
  await withWebhooks(() => browserPay(created.clientSecret, CARDS.success));
  return await record(created.subscriptionId);
}

async function record(stripeId: string) {
  return (await getDb().select().from(subscriptions).where(eq(subscriptions.stripeSubscriptionId, stripeId)).limit(1))[0]!;
}

async function renewal(id: number) {
  const simulated = await withWebhooks(() => simulateNextRenewal(id, { pollMs: 10 }));
  return await awaitRenewalOutcome(simulated, { timeoutMs: 2000, pollMs: 20 });
}

/** The renewal orders (the first order belongs to the subscription too). */
async function renewalOrders(id: number) {
  return (await getDb().select().from(orders).where(eq(orders.subscriptionId, id))).filter((o) => o.renewalNumber !== null);
}

async function changedEmails(firstOrderId: number) {
  return (await getDb().select().from(emails).where(eq(emails.orderId, firstOrderId))).filter(
    (e) => e.kind === "subscription_changed",
  );
}

async function api(action: typeof apiPauseAction, path: string, id: number, body: unknown) {
  const response = await action({
    request: jsonRequest(path, "POST", body, { Cookie: await adminCookie() }),
    params: { id: String(id) },
    context: {},
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("skipping the next delivery", () => {
  it("voids the next renewal at Stripe (nothing charged, no order), then the one after is charged; the history and an email say so", async () => {
    const start = await subscribed();
    const firstEnd = start.currentPeriodEnd!;
    const skipped = await withWebhooks(() => skipNextDelivery(start, customer));
    expect(skipped.title).toBe("Votre prochaine livraison est sautée");
    const stripe = await getStripe();
    const atStripe = await stripe.subscriptions.retrieve(start.stripeSubscriptionId);
    expect(atStripe.pause_collection).toMatchObject({ behavior: "void" });
    expect(atStripe.pause_collection!.resumes_at! * 1000).toBeGreaterThan(Date.parse(firstEnd));
    expect((await selfServiceView(skipped.subscription)).pause).toMatchObject({ kind: "skip", skippedRenewalAt: firstEnd });
    await expect(skipNextDelivery(skipped.subscription, customer)).rejects.toMatchObject({ status: 409, code: "already_paused" });
    expect(await changedEmails(start.firstOrderId!)).toHaveLength(1);

    const outcome = await renewal(start.id);
    expect(outcome).toMatchObject({ outcome: "skipped", periodEnd: firstEnd });
    const after = await record(start.stripeSubscriptionId);
    expect(Date.parse(after.currentPeriodEnd!)).toBe(Date.parse(firstEnd) + 28 * 86_400_000);
    expect(after.renewalCount).toBe(0);
    expect(await renewalOrders(start.id)).toHaveLength(0);
    expect((await selfServiceView(after)).pause).toBeNull();

    expect(await renewal(start.id)).toMatchObject({ outcome: "order_created", renewalNumber: 1 });
    const [order] = await renewalOrders(start.id);
    expect(order.totalCents).toBe(2590);
    const detail = await getAdminSubscription(start.id);
    expect(detail!.timeline.find((e) => e.kind === "change")?.label).toMatch(/^Par le client : Livraison du .* sautée/);
  });

  it("a charged renewal whose new period is recorded before its order is waited for, never told skipped", async () => {
    const start = await subscribed();
    // The renewal charged at Stripe, its webhooks not yet recorded.
    const simulated = await simulateNextRenewal(start.id, { pollMs: 10 });
    expect(simulated.voided).toBe(false);
    // `customer.subscription.updated` recorded first: the period moved on, the order is not there yet.
    const moved = new Date(Date.parse(start.currentPeriodEnd!) + 28 * 86_400_000).toISOString();
    await getDb().update(subscriptions).set({ currentPeriodEnd: moved }).where(eq(subscriptions.id, start.id));
    expect(await awaitRenewalOutcome(simulated, { timeoutMs: 200, pollMs: 20 })).toMatchObject({ outcome: "pending" });
  });

  it("can be undone before the renewal's eve: the renewal is charged again", async () => {
    const start = await subscribed();
    const skipped = await withWebhooks(() => skipNextDelivery(start, customer));
    const undone = await withWebhooks(() => undoSkip(skipped.subscription, customer));
    expect(undone.summary).toMatch(/^Saut de livraison annulé/);
    expect((await (await getStripe()).subscriptions.retrieve(start.stripeSubscriptionId)).pause_collection).toBeNull();
    // The day before the renewal, it is too late.
    const eve = new Date(Date.parse(skipped.subscription.currentPeriodEnd!) - 12 * 3_600_000);
    await expect(undoSkip(skipped.subscription, customer, eve)).rejects.toMatchObject({ status: 409, code: "too_late" });
    expect(await renewal(start.id)).toMatchObject({ outcome: "order_created", renewalNumber: 1 });
  });
});

describe("pausing and resuming", () => {
  it("pauses for 2 cycles (API, with a reason): two renewals not charged; resumed now, the next one is", async () => {
    const start = await subscribed();
    const missing = await api(apiPauseAction, `/api/admin/subscriptions/${start.id}/pause`, start.id, { cycles: 2 });
    expect(missing.status).toBe(422);
    expect(JSON.stringify(missing.body)).toContain("Indiquez la raison de ce changement");
    const badCycles = await api(apiPauseAction, `/api/admin/subscriptions/${start.id}/pause`, start.id, {
      cycles: 5,
      reason: "Vacances",
    });
    expect(badCycles.status).toBe(422);
    expect(JSON.stringify(badCycles.body)).toContain("Choisissez une pause de 1, 2 ou 3 cycles.");

    const paused = await withWebhooks(() =>
      api(apiPauseAction, `/api/admin/subscriptions/${start.id}/pause`, start.id, { cycles: 2, reason: "Client en voyage" }),
    );
    expect(paused.status).toBe(200);
    expect(paused.body.pause).toMatchObject({ kind: "pause" });
    const change = (paused.body.timeline as { kind: string; label: string; reason: string | null }[]).find(
      (e) => e.kind === "change",
    );
    expect(change).toMatchObject({ reason: "Client en voyage" });
    expect(change!.label).toMatch(/^Par la boutique : Abonnement en pause pour 2 cycles, jusqu'au /);

    expect(await renewal(start.id)).toMatchObject({ outcome: "skipped" });
    const view = await selfServiceView(await record(start.stripeSubscriptionId));
    expect(view.canResume).toBe(true);
    const resumed = await withWebhooks(async () => resumeSubscription(await record(start.stripeSubscriptionId), customer));
    expect(resumed.title).toBe("Votre abonnement a repris");
    expect(await renewal(start.id)).toMatchObject({ outcome: "order_created", renewalNumber: 1 });
  });

  it("a pause of 1 cycle lets the renewal after it be charged by itself", async () => {
    const start = await subscribed();
    await withWebhooks(() => pauseSubscription(start, { cycles: 1 }, customer));
    expect(await renewal(start.id)).toMatchObject({ outcome: "skipped" });
    expect(await renewal(start.id)).toMatchObject({ outcome: "order_created", renewalNumber: 1 });
  });
});

describe("changing pack", () => {
  it("moves to the 9 + 3 pack from the next renewal at its price, no proration; never the trial pack", async () => {
    const start = await subscribed();
    await expect(changeSubscriptionPack(start, { packId: 1 }, customer)).rejects.toMatchObject({
      status: 422,
      code: "pack_unavailable",
    });
    await expect(changeSubscriptionPack(start, { packId: 2 }, customer)).rejects.toMatchObject({
      status: 422,
      code: "same_pack",
    });
    const refused = await api(apiChangePackAction, `/api/admin/subscriptions/${start.id}/change-pack`, start.id, {
      packId: 1,
      reason: "Essai",
    });
    expect(refused).toMatchObject({ status: 422, body: { error: "Ce pack ne peut pas être choisi pour un abonnement." } });

    const changed = await withWebhooks(() => changeSubscriptionPack(start, { packId: 3 }, customer));
    expect(changed.summary).toMatch(/^Nouveau pack « 9 masques \+ 3 offerts » : 32,90€ à partir du renouvellement du /);
    const item = (await (await getStripe()).subscriptions.retrieve(start.stripeSubscriptionId)).items.data[0];
    expect(item.price).toMatchObject({ unit_amount: 3290, recurring: { interval: "week", interval_count: 4 } });
    // Nothing charged now: the period is the same.
    expect(item.current_period_end * 1000).toBe(Date.parse(start.currentPeriodEnd!));

    expect(await renewal(start.id)).toMatchObject({ outcome: "order_created", renewalNumber: 1 });
    const [order] = await renewalOrders(start.id);
    expect(order.totalCents).toBe(3290);
    const [line] = await getDb().select().from(orderItems).where(eq(orderItems.orderId, order.id));
    expect(line.packId).toBe(3);
  });
});

describe("changing frequency", () => {
  it("every 6 weeks from the next renewal: that renewal keeps its date and amount, the one after is 6 weeks later", async () => {
    const start = await subscribed();
    const firstEnd = Date.parse(start.currentPeriodEnd!);
    await expect(changeSubscriptionFrequency(start, { intervalWeeks: 4 }, customer)).rejects.toMatchObject({
      status: 422,
      code: "same_frequency",
    });
    const changed = await withWebhooks(() => changeSubscriptionFrequency(start, { intervalWeeks: 6 }, customer));
    expect(changed.summary).toMatch(/^Livraison toutes les 6 semaines à partir du renouvellement du /);
    expect(changed.subscription.intervalWeeks).toBe(6);
    const sub = await (await getStripe()).subscriptions.retrieve(start.stripeSubscriptionId);
    expect(sub.items.data[0].price.recurring).toMatchObject({ interval: "week", interval_count: 6 });
    // Nothing charged now: the renewal date is kept.
    expect(sub.items.data[0].current_period_end * 1000).toBe(firstEnd);
    expect(await renewalOrders(start.id)).toHaveLength(0);

    expect(await renewal(start.id)).toMatchObject({ outcome: "order_created", renewalNumber: 1 });
    const [order] = await renewalOrders(start.id);
    expect(order.totalCents).toBe(2590);
    expect(Date.parse((await record(start.stripeSubscriptionId)).currentPeriodEnd!)).toBe(firstEnd + 42 * 86_400_000);
    expect((await (await getStripe()).subscriptions.retrieve(start.stripeSubscriptionId)).status).toBe("active");
  });
});

describe("reactivating", () => {
  it("undoes a cancellation planned at the end of the period, with no charge; the next renewal is charged", async () => {
    const start = await subscribed();
    await expect(reactivateSubscription(start, customer)).rejects.toMatchObject({ status: 409, code: "no_cancellation_planned" });
    await withWebhooks(() => cancelSubscriptionAsAdmin(start.id, { when: "period_end" }));
    expect((await selfServiceView(await record(start.stripeSubscriptionId))).canReactivate).toBe(true);
    const done = await withWebhooks(() =>
      api(apiReactivateAction, `/api/admin/subscriptions/${start.id}/reactivate`, start.id, {
        reason: "Le client a changé d'avis",
      }),
    );
    expect(done).toMatchObject({ status: 200, body: { cancelAtPeriodEnd: false, status: "active" } });
    expect((await (await getStripe()).subscriptions.retrieve(start.stripeSubscriptionId)).cancel_at_period_end).toBe(false);
    expect(await renewalOrders(start.id)).toHaveLength(0);
    expect(await renewal(start.id)).toMatchObject({ outcome: "order_created", renewalNumber: 1 });
  });
});
