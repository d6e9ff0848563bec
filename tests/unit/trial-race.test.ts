import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { emails, packs, refunds } from "~/db/schema";
import { action as startAction } from "~/routes/api.payments.start";
import { loader as confirmationLoader } from "~/routes/order-confirmation.$id";
import { confirmOrderPayment } from "~/services/payments/confirm.server";
import { TRIAL_DUPLICATE_REFUND_REASON } from "~/services/payments/payment-state.server";
import type { StripeEmulatorHandle } from "~/services/stripe.server";
import {
  browserPay,
  CARDS,
  createTestOrder,
  getOrder,
  ownerRequest,
  startTestEmulator,
  stopTestEmulator,
  TEST_ORDER_TOKEN,
} from "./payments-fixtures";
import { getRequest, routeArgs } from "../helpers/requests";

/**
 * The trial pack, once per email: two payments started with one email before either was paid.
 * The rule is checked again when an order is marked paid; the second one is refunded at Stripe.
 */

let emulator: StripeEmulatorHandle;
beforeAll(async () => {
  emulator = await startTestEmulator();
});
afterAll(async () => {
  await stopTestEmulator();
});

async function trialPack() {
  const [pack] = await getDb().select().from(packs).where(eq(packs.trial, true)).limit(1);
  return pack!;
}

async function startedTrialOrder(email: string) {
  const pack = await trialPack();
  const orderId = await createTestOrder({ packId: pack.id, unitPriceCents: pack.priceCents, email });
  const response = await startAction(routeArgs(ownerRequest("/api/payments/start", { orderId })));
  expect(response.status).toBe(200);
  return { orderId, started: (await response.json()) as { clientSecret: string; paymentIntentId: string } };
}

describe("the trial pack bought twice with one email", () => {
  it("both payments started before either was paid: the second order is refunded automatically, and says so", async () => {
    const email = `essai.${Date.now()}@example.fr`;
    const first = await startedTrialOrder(email);
    // Both starts pass the rule: nothing is paid yet.
    const second = await startedTrialOrder(email);
    await browserPay(first.started.clientSecret, CARDS.success);
    await browserPay(second.started.clientSecret, CARDS.success);

    expect(await confirmOrderPayment(first.orderId)).toEqual({ paid: true });
    expect(await confirmOrderPayment(second.orderId)).toEqual({ paid: true });

    expect((await getOrder(first.orderId)).paymentStatus).toBe("paid");
    const refunded = await getOrder(second.orderId);
    expect(refunded.paymentStatus).toBe("refunded");
    // At Stripe: the second payment's charge is refunded in full.
    const pi = emulator.getObject(second.started.paymentIntentId)!;
    const charge = emulator.getObject(pi.latest_charge as string)!;
    expect(charge).toMatchObject({ refunded: true, amount_refunded: refunded.totalCents });
    expect(emulator.getObject(emulator.getObject(first.started.paymentIntentId)!.latest_charge as string)).toMatchObject({
      refunded: false,
    });

    // In the back office: the refund, its reason and who made it.
    const rows = await getDb().select().from(refunds).where(eq(refunds.orderId, second.orderId));
    expect(rows).toEqual([
      expect.objectContaining({ status: "succeeded", reason: TRIAL_DUPLICATE_REFUND_REASON, amountCents: refunded.totalCents }),
    ]);
    // The shopper's email says why.
    const [mail] = await getDb()
      .select()
      .from(emails)
      .where(and(eq(emails.orderId, second.orderId), eq(emails.kind, "order_refunded")));
    expect(JSON.stringify(mail.payload)).toContain("le pack d'essai avait déjà été acheté avec cette adresse email");

    // The confirmation page says so too.
    const page = await confirmationLoader(
      routeArgs(getRequest(`/order-confirmation/${second.orderId}`, { "X-Order-Token": TEST_ORDER_TOKEN }), {
        id: String(second.orderId),
      }),
    );
    expect((page as unknown as { data: { trialRefund: string | null } }).data.trialRefund).toBe(TRIAL_DUPLICATE_REFUND_REASON);

    // Asked again (another confirmation, a webhook): nothing more is refunded.
    expect(await confirmOrderPayment(second.orderId)).toEqual({ paid: true });
    expect(await getDb().select().from(refunds).where(eq(refunds.orderId, second.orderId))).toHaveLength(1);
  });

  it("a single trial order of an email is not refunded", async () => {
    const only = await startedTrialOrder(`seul.${Date.now()}@example.fr`);
    await browserPay(only.started.clientSecret, CARDS.success);
    await confirmOrderPayment(only.orderId);
    expect((await getOrder(only.orderId)).paymentStatus).toBe("paid");
    expect(await getDb().select().from(refunds).where(eq(refunds.orderId, only.orderId))).toEqual([]);
  });
});
