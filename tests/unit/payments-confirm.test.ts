import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { action as confirmAction } from "~/routes/api.payments.confirm";
import { action as startAction } from "~/routes/api.payments.start";
import { LIMITS } from "~/services/limits.server";
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
import { fromAddress, jsonRequest, routeArgs } from "../helpers/requests";

/** POST /api/payments/confirm answers the order's owner only, and counts the misses per address. */

beforeAll(async () => {
  await startTestEmulator();
});
afterAll(async () => {
  await stopTestEmulator();
});

let nextAddress = 1;
const newAddress = () => `192.0.2.${nextAddress++}`;

async function confirm(body: Record<string, unknown>, address: string, headers: Record<string, string> = {}) {
  const response = await confirmAction(
    routeArgs(jsonRequest("/api/payments/confirm", "POST", body, headers), {}, fromAddress(address)),
  );
  return { status: response.status, body: await response.json() };
}

/** An order paid at Stripe by its buyer's browser, not yet confirmed by the shop. */
async function paidAtStripe() {
  const orderId = await createTestOrder();
  const started = await (await startAction(routeArgs(ownerRequest("/api/payments/start", { orderId })))).json();
  await browserPay(started.clientSecret, CARDS.success);
  return orderId;
}

describe("POST /api/payments/confirm", () => {
  it("refuses an order without its proof with the 404 of an unknown order, and changes nothing", async () => {
    const orderId = await paidAtStripe();
    const address = newAddress();
    const unknown = await confirm({ orderId: 999_999_998 }, address);
    const stranger = await confirm({ orderId }, address);
    const wrongToken = await confirm({ orderId, token: "x".repeat(43) }, address);
    for (const answer of [unknown, stranger, wrongToken]) {
      expect(answer).toEqual({ status: 404, body: { error: "Commande introuvable", issues: [] } });
    }
    // Nobody learnt whether it was paid, and the shop did not ask Stripe for them.
    expect((await getOrder(orderId)).paymentStatus).toBe("unpaid");

    const owner = await confirm({ orderId, token: TEST_ORDER_TOKEN }, address);
    expect(owner).toEqual({ status: 200, body: { paid: true, orderId, paymentStatus: "paid" } });
    const byHeader = await confirm({ orderId }, address, { "X-Order-Token": TEST_ORDER_TOKEN });
    expect(byHeader.body).toMatchObject({ paid: true });
  });

  it("counts the misses with the order-lookup limit: past it, a French 429 whatever the order", async () => {
    const orderId = await paidAtStripe();
    const address = newAddress();
    const { max } = LIMITS.orderLookupMissesPerAddress;
    for (let i = 0; i < max; i++) expect((await confirm({ orderId }, address)).status).toBe(404);
    const limited = await confirm({ orderId, token: TEST_ORDER_TOKEN }, address);
    expect(limited.status).toBe(429);
    expect(limited.body.error).toMatch(/^Trop de numéros de commande introuvables ont été essayés\. Réessayez dans /);
    expect((await getOrder(orderId)).paymentStatus).toBe("unpaid");
    // Another shopper is not concerned.
    expect((await confirm({ orderId, token: TEST_ORDER_TOKEN }, newAddress())).body).toMatchObject({ paid: true });
  });
});
