import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getConfig } from "~/config.server";
import { dialect } from "~/db/schema";
import { action as startAction } from "~/routes/api.payments.start";
import { action as webhookAction, loader as webhookLoader } from "~/routes/api.stripe.webhook";
import type { StripeEmulatorHandle } from "~/services/stripe.server";
import { HANDLED_WEBHOOK_EVENTS } from "~/services/payments/webhook.server";
import {
  browserPay,
  CARDS,
  createTestOrder,
  getOrder,
  ownerRequest,
  postWebhook,
  productStock,
  recordedEventIds,
  replayEvent,
  routeArgs,
  startTestEmulator,
  stopTestEmulator,
} from "./payments-fixtures";

let emulator: StripeEmulatorHandle;

beforeAll(async () => {
  emulator = await startTestEmulator();
});
afterAll(async () => {
  await stopTestEmulator();
});

function sign(payload: string, secret: string, timestamp = Math.floor(Date.now() / 1000)) {
  const v1 = createHmac("sha256", secret).update(`${timestamp}.${payload}`).digest("hex");
  return `t=${timestamp},v1=${v1}`;
}

/** An order paid at Stripe (the browser's part done) whose webhook has not been delivered yet. */
async function paidAtStripe() {
  const orderId = await createTestOrder();
  const response = await startAction(routeArgs(ownerRequest("/api/payments/start", { orderId })));
  const started = await response.json();
  await browserPay(started.clientSecret, CARDS.success);
  const event = emulator.events.find(
    (e) => e.type === "payment_intent.succeeded" && (e.data.object as { id: string }).id === started.paymentIntentId,
  )!;
  return { orderId, event };
}

describe("Stripe webhook", () => {
  it("refuses a bad signature with a 400 and changes nothing", async () => {
    const { orderId, event } = await paidAtStripe();
    const stockBefore = await productStock();
    const { payload } = emulator.signEvent(event);
    const attempts = [
      sign(payload, "whsec_not_the_secret"),
      sign(`${payload} `, getConfig().stripe.webhookSecret).replace(/v1=.*/, "v1=deadbeef"),
      sign(payload, getConfig().stripe.webhookSecret, Math.floor(Date.now() / 1000) - 3600), // replayed long after
      "t=abc,v1=",
      null,
    ];
    for (const signature of attempts) {
      const response = await postWebhook(payload, signature);
      expect(response.status).toBe(400);
      const body = await response.json();
      expect(body.error).toMatch(/^Signature/);
      expect(body.issues).toEqual([]);
    }
    // A payload altered after signing is refused too.
    const tampered = emulator.signEvent(event);
    const altered = tampered.payload.replace('"livemode": false', '"livemode": true');
    expect(altered).not.toBe(tampered.payload);
    expect((await postWebhook(altered, tampered.signature)).status).toBe(400);

    expect((await getOrder(orderId)).paymentStatus).toBe("unpaid");
    expect(await productStock()).toBe(stockBefore);
    expect(await recordedEventIds()).not.toContain(event.id);
  });

  it("accepts the emulator's signed event once; a replay changes nothing", async () => {
    const { orderId, event } = await paidAtStripe();
    const stockBefore = await productStock();
    const first = await replayEvent(emulator, event);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ received: true, type: "payment_intent.succeeded", outcome: "order_paid" });
    const again = await replayEvent(emulator, event);
    expect(await again.json()).toMatchObject({ outcome: "duplicate" });
    expect((await getOrder(orderId)).paymentStatus).toBe("paid");
    expect(await productStock()).toBe(stockBefore - 1);
  });

  it("acknowledges events it does not use", async () => {
    const event = {
      id: `evt_unused_${Date.now()}`,
      object: "event",
      type: "customer.created",
      data: { object: { id: "cus_x", object: "customer" } },
    };
    const payload = JSON.stringify(event);
    const response = await postWebhook(payload, sign(payload, getConfig().stripe.webhookSecret));
    expect(await response.json()).toEqual({ received: true, type: "customer.created", outcome: "ignored" });
  });

  it("answers the events of a payment it does not act on at once, even while another process writes, and records nothing", async () => {
    const types = ["payment_intent.created", "charge.succeeded", "customer.created"];
    const events = types.map((type, i) => ({
      id: `evt_noop_${Date.now()}_${i}`,
      object: "event",
      type,
      data: { object: { id: `obj_${i}`, object: type.split(".")[0] } },
    }));
    // Another server process holds SQLite's write lock (a payment being recorded).
    const other = dialect === "sqlite" ? new Database(process.env.DATABASE_URL!) : null;
    other?.exec("BEGIN IMMEDIATE");
    const answers: unknown[] = [];
    const started = Date.now();
    try {
      for (const event of events) {
        const payload = JSON.stringify(event);
        const response = await postWebhook(payload, sign(payload, getConfig().stripe.webhookSecret));
        answers.push(await response.json());
      }
    } finally {
      other?.exec("ROLLBACK");
      other?.close();
    }
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(answers).toEqual(types.map((type) => ({ received: true, type, outcome: "ignored" })));
    const recorded = await recordedEventIds();
    for (const event of events) expect(recorded).not.toContain(event.id);
  });

  it("in demo mode, is sent only the events it handles: a payment's other events are created at the emulator, not delivered", async () => {
    const delivered: string[] = [];
    emulator.setWebhookTarget(async ({ payload, signature }) => {
      delivered.push(JSON.parse(payload).type);
      return { status: (await postWebhook(payload, signature)).status };
    });
    try {
      const { orderId } = await paidAtStripe();
      await emulator.flushWebhooks();
      expect(delivered).toEqual(["payment_intent.succeeded"]);
      expect((await getOrder(orderId)).paymentStatus).toBe("paid");
    } finally {
      emulator.setWebhookTarget(null);
    }
    const created = emulator.events.slice(-3).map((event) => event.type);
    expect(created).toEqual(expect.arrayContaining(["charge.succeeded", "payment_intent.succeeded"]));
    expect(HANDLED_WEBHOOK_EVENTS).not.toContain("charge.succeeded");
  });

  it("tells the owner, in the README's production section, to subscribe the endpoint to exactly the events it handles", () => {
    const readme = readFileSync("README.md", "utf8");
    const section = readme.slice(readme.indexOf("## Mise en production"), readme.indexOf("## Passer à plusieurs serveurs"));
    const paragraph = section.slice(section.indexOf("**Le webhook Stripe**"));
    const listed = paragraph.slice(0, paragraph.indexOf("(ce que chacun fait")).match(/`[a-z_]+\.[a-z_.]+`/g) ?? [];
    expect(listed.map((name) => name.slice(1, -1)).sort()).toEqual([...HANDLED_WEBHOOK_EVENTS].sort());
  });

  it("frees an unpaid order whose subscription ended, so it can be paid again", async () => {
    const orderId = await createTestOrder();
    const response = await startAction(routeArgs(ownerRequest("/api/payments/start", { orderId, mode: "subscription" })));
    const { subscriptionId } = await response.json();
    expect((await getOrder(orderId)).stripeSubscriptionId).toBe(subscriptionId);
    const cancel = await fetch(`${emulator.url}/v1/subscriptions/${subscriptionId}`, {
      method: "DELETE",
      headers: { Authorization: `Bearer ${getConfig().stripe.secretKey}` },
    });
    expect(cancel.status).toBe(200);
    const deleted = emulator.events.find(
      (e) => e.type === "customer.subscription.deleted" && (e.data.object as { id: string }).id === subscriptionId,
    )!;
    expect(await (await replayEvent(emulator, deleted)).json()).toMatchObject({ outcome: "subscription_ended" });
    expect(await getOrder(orderId)).toMatchObject({ stripeSubscriptionId: null, isSubscription: false, paymentStatus: "unpaid" });
  });

  it("only answers POST", async () => {
    const response = await webhookLoader();
    expect(response.status).toBe(405);
    const viaAction = await webhookAction(
      routeArgs(new Request("http://localhost:3000/api/stripe/webhook", { method: "PUT", body: "{}" })),
    );
    expect(viaAction.status).toBe(405);
  });
});
