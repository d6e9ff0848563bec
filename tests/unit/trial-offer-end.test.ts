import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { packs, siteSettings } from "~/db/schema";
import { trialOfferOver } from "~/lib/offer-banner";
import { landingLoader } from "~/pages/landing.server";
import { action as cartApiAction } from "~/routes/api.cart";
import { action as ordersApiAction } from "~/routes/api.orders";
import { action as startAction } from "~/routes/api.payments.start";
import { addToCart, CartError, putInCart, readCart } from "~/services/cart.server";
import { submitDelivery } from "~/services/checkout.server";
import { OrderError } from "~/services/orders/errors.server";
import { productOffer, shopPacks } from "~/services/packs.server";
import type { StripeEmulatorHandle } from "~/services/stripe.server";
import { jsonRequest, routeArgs } from "../helpers/requests";
import { createTestOrder, ownerRequest, startTestEmulator, stopTestEmulator } from "./payments-fixtures";

/**
 * The trial offer's end is real: once `trialOfferEndsAt` has passed, the 0,99€ trial pack is no
 * longer sold, in the storefront, the cart, the order API and the payment, each refusal in French.
 */

const ENDED_MESSAGE =
  "L'offre d'essai est terminée : le pack « 3 masques d'essai » n'est plus en vente. Choisissez un autre pack.";

const DELIVERY = {
  firstName: "Camille",
  lastName: "Martin",
  address: "8 rue des Fleurs",
  postalCode: "69003",
  city: "Lyon",
  address2: null,
  phone: null,
};

let emulator: StripeEmulatorHandle;
let seededEnd: string | null;
beforeAll(async () => {
  emulator = await startTestEmulator();
  seededEnd = (await getDb().select({ endsAt: siteSettings.trialOfferEndsAt }).from(siteSettings).limit(1))[0]!.endsAt;
});
afterAll(async () => {
  await stopTestEmulator();
  void emulator;
});
afterEach(async () => {
  await setOfferEnd(seededEnd);
});

async function setOfferEnd(endsAt: string | null) {
  await getDb().update(siteSettings).set({ trialOfferEndsAt: endsAt }).where(eq(siteSettings.id, 1));
}

async function trialPack() {
  const [pack] = await getDb().select().from(packs).where(eq(packs.trial, true)).limit(1);
  return pack!;
}

const endedAMinuteAgo = () => setOfferEnd(new Date(Date.now() - 60_000).toISOString());

describe("the trial offer's end", () => {
  it("is over only once a set end has passed", () => {
    const now = new Date("2026-11-25T12:00:00.000Z");
    expect(trialOfferOver(null, now)).toBe(false);
    expect(trialOfferOver("2026-11-25T12:00:01.000Z", now)).toBe(false);
    expect(trialOfferOver("2026-11-25T12:00:00.000Z", now)).toBe(true);
    expect(trialOfferOver("2026-11-25T11:00:00.000Z", now)).toBe(true);
  });

  it("takes the trial pack off the storefront: product page, landing page and pack picker", async () => {
    const trial = await trialPack();
    expect((await shopPacks(1)).map((p) => p.id)).toContain(trial.id);
    expect((await landingLoader()).trial).toMatchObject({ priceCents: 99 });

    await endedAMinuteAgo();
    const offer = await productOffer({ id: 1, priceCents: 2590, saleWithoutPack: "unit" });
    expect(offer.sold).toBe(true);
    expect(offer.packs.map((p) => p.name)).toEqual(["6 masques + 2 offerts", "9 masques + 3 offerts"]);
    expect((await landingLoader()).trial).toBeNull();

    // No end set: the trial pack stays on sale.
    await setOfferEnd(null);
    expect((await shopPacks(1)).map((p) => p.id)).toContain(trial.id);
  });

  it("refuses the trial pack in the cart, and a cart that still holds it says why and cannot be checked out", async () => {
    const trial = await trialPack();
    const cartId = crypto.randomUUID();
    await addToCart(cartId, { productId: 1, packId: trial.id });

    await endedAMinuteAgo();
    const refused = await putInCart(crypto.randomUUID(), { productId: 1, packId: trial.id }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(CartError);
    expect(refused).toMatchObject({ code: "trial_ended", message: ENDED_MESSAGE });

    const cart = await readCart(cartId);
    expect(cart.lines[0]).toMatchObject({ packId: trial.id, quantityNote: ENDED_MESSAGE });
    const delivery = await submitDelivery(cartId, { ...DELIVERY, email: "camille.fin-essai@example.fr" }).catch(
      (e: unknown) => e,
    );
    expect(delivery).toBeInstanceOf(OrderError);
    expect(delivery).toMatchObject({ status: 422, code: "trial_ended", message: ENDED_MESSAGE });
  });

  it("answers the API with a 422 and the French reason: cart, order, and the payment of an order made before the end", async () => {
    const trial = await trialPack();
    const before = await createTestOrder({ packId: trial.id, unitPriceCents: 99, email: "camille.avant@example.fr" });
    await endedAMinuteAgo();

    const cart = await cartApiAction(routeArgs(jsonRequest("/api/cart", "POST", { productId: 1, packId: trial.id })));
    expect(cart.status).toBe(422);
    expect(await cart.json()).toMatchObject({
      error: "Offre d'essai terminée",
      issues: [{ path: "packId", message: ENDED_MESSAGE }],
    });

    const order = await ordersApiAction(
      routeArgs(
        jsonRequest("/api/orders", "POST", {
          customerEmail: "camille.api@example.fr",
          customerName: "Camille Martin",
          shippingAddress: "12 rue des Lilas",
          shippingPostalCode: "75011",
          shippingCity: "Paris",
          items: [{ productId: 1, packId: trial.id, quantity: 1 }],
        }),
      ),
    );
    expect(order.status).toBe(422);
    expect(JSON.stringify(await order.json())).toContain(ENDED_MESSAGE);

    const start = await startAction(routeArgs(ownerRequest("/api/payments/start", { orderId: before })));
    expect(start.status).toBe(422);
    expect(JSON.stringify(await start.json())).toContain(ENDED_MESSAGE);
  });
});
