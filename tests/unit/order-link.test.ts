import { asResponses } from "../helpers/route-response";
import { beforeEach, describe, expect, it } from "vitest";
import { getConfig } from "~/config.server";
import { loader as confirmationLoaderRoute } from "~/routes/order-confirmation.$id";
import { loader as trackLoaderRoute } from "~/routes/track-order";
import { deliverySchema } from "~/schemas/delivery";
import { addToCart } from "~/services/cart.server";
import { submitDelivery } from "~/services/checkout.server";
import { resetAllRateLimits } from "~/services/limits.server";
import { canViewOrder, holdsOrder } from "~/services/orders/access.server";
import {
  ORDER_LINK_KEY_PATTERN,
  orderLinkExpiresAt,
  orderLinkKey,
  orderLinkKeyMatches,
  orderTrackingUrl,
} from "~/services/orders/link.server";
import { findOrder } from "~/services/orders/find.server";
import { getRequest, routeArgs } from "../helpers/requests";

const confirmationLoader = asResponses(confirmationLoaderRoute);
const trackLoader = asResponses(trackLoaderRoute);

beforeEach(async () => await resetAllRateLimits());

/** The read-only link of the emails: `?cle=` shows the name and the street of that order only. */

async function newOrder(street: string) {
  const cartId = crypto.randomUUID();
  await addToCart(cartId, { productId: 1, packId: 2 });
  const delivery = {
    firstName: "Noémie",
    lastName: "Roux",
    email: `noemie.${crypto.randomUUID().slice(0, 8)}@example.fr`,
    address: street,
    postalCode: "31000",
    city: "Toulouse",
  };
  return (await submitDelivery(cartId, deliverySchema.parse(delivery))).orderId;
}

type Seen = {
  order: { shippingAddress: string | null; customerName: string | null; shippingCity: string | null; owner: boolean } | null;
};

async function track(query: string) {
  const response = await trackLoader(routeArgs(getRequest(`/track-order?${query}`)));
  return { status: response.status, ...((await response.json()) as Seen) };
}

async function confirmation(id: number, query: string) {
  const response = await confirmationLoader(routeArgs(getRequest(`/order-confirmation/${id}?${query}`), { id: String(id) }));
  return { status: response.status, ...((await response.json()) as Seen) };
}

describe("the key of an order's read-only link", () => {
  it("is deterministic, base64url, different for each order", async () => {
    const [a, b] = [await newOrder("1 rue Alpha"), await newOrder("2 rue Beta")];
    const [orderA, orderB] = [(await findOrder(a))!, (await findOrder(b))!];
    expect(orderLinkKey(a)).toBe(orderLinkKey(a));
    expect(orderLinkKey(a)).toMatch(ORDER_LINK_KEY_PATTERN);
    expect(orderLinkKey(a)).not.toBe(orderLinkKey(b));
    expect(orderLinkKeyMatches(orderA, orderLinkKey(a))).toBe(true);
    expect(orderLinkKeyMatches(orderB, orderLinkKey(a))).toBe(false);
    expect(orderLinkKeyMatches(orderA, "")).toBe(false);
    expect(orderLinkKeyMatches(orderA, null)).toBe(false);
    expect(orderTrackingUrl(a)).toBe(`${getConfig().publicUrl}/track-order?id=${a}&cle=${orderLinkKey(a)}`);
  });

  it("still opens after the session secret is rotated (SESSION_SECRET=new,old)", async () => {
    const id = await newOrder("3 rue Gamma");
    const order = (await findOrder(id))!;
    const key = orderLinkKey(id);
    const secrets = getConfig().sessionSecrets;
    const saved = [...secrets];
    try {
      secrets.splice(0, secrets.length, "un-tout-nouveau-secret-de-session-0123456789", ...saved);
      expect(orderLinkKey(id)).not.toBe(key);
      expect(orderLinkKeyMatches(order, key)).toBe(true);
      secrets.splice(0, secrets.length, "un-tout-nouveau-secret-de-session-0123456789");
      expect(orderLinkKeyMatches(order, key)).toBe(false);
    } finally {
      secrets.splice(0, secrets.length, ...saved);
    }
  });

  it("grants viewing only: never paying or changing the order", async () => {
    const id = await newOrder("4 rue Delta");
    const order = {
      id,
      cartId: "autre-panier",
      tokenHash: null,
      customerEmail: "x@example.fr",
      createdAt: new Date().toISOString(),
    };
    expect(canViewOrder(order, { linkKey: orderLinkKey(id) })).toBe(true);
    expect(holdsOrder(order, { linkKey: orderLinkKey(id) })).toBe(false);
  });

  it("works for 10 years after the order was made, the links already sent included, then no more", async () => {
    const id = await newOrder("5 rue Epsilon");
    const order = (await findOrder(id))!;
    const key = orderLinkKey(id);
    const expires = orderLinkExpiresAt(order.createdAt);
    expect(expires.getUTCFullYear() - new Date(order.createdAt).getUTCFullYear()).toBe(10);
    expect(orderLinkKeyMatches(order, key, new Date(expires.getTime() - 60_000))).toBe(true);
    expect(orderLinkKeyMatches(order, key, expires)).toBe(false);
    // An order of 2015: its emails' links (the same key as ever) have expired; one of 2020 still opens.
    expect(orderLinkKeyMatches({ id, createdAt: "2015-06-01T10:00:00.000Z" }, key)).toBe(false);
    expect(orderLinkKeyMatches({ id, createdAt: "2020-06-01T10:00:00.000Z" }, key, new Date("2026-11-27T10:00:00Z"))).toBe(true);
    const viewer = { ...order, cartId: "autre-panier", tokenHash: null };
    expect(canViewOrder(viewer, { linkKey: key }, new Date(expires.getTime() + 1000))).toBe(false);
  });
});

describe("/track-order and /order-confirmation with ?cle=", () => {
  it("show the name and the street with the order's key", async () => {
    const id = await newOrder("12 impasse des Roses");
    const key = orderLinkKey(id);
    const tracked = await track(`id=${id}&cle=${key}`);
    expect(tracked.status).toBe(200);
    expect(tracked.order).toMatchObject({ owner: true, shippingAddress: "12 impasse des Roses", customerName: "Noémie Roux" });
    const confirmed = await confirmation(id, `cle=${key}`);
    expect(confirmed.order).toMatchObject({ owner: true, shippingAddress: "12 impasse des Roses", customerName: "Noémie Roux" });
  });

  it("show the public view with another order's key, a tampered key or no key", async () => {
    const id = await newOrder("14 impasse des Roses");
    const other = await newOrder("16 impasse des Roses");
    const key = orderLinkKey(id);
    const tampered = `${key.slice(0, 10)}${key[10] === "A" ? "B" : "A"}${key.slice(11)}`;
    const lastCharTampered = `${key.slice(0, -1)}${key.at(-1) === "A" ? "B" : "A"}`;
    for (const query of [
      `cle=${orderLinkKey(other)}`,
      `cle=${tampered}`,
      `cle=${lastCharTampered}`,
      `cle=${key.slice(0, -1)}`,
      "cle=",
      "",
    ]) {
      const tracked = await track(`id=${id}&${query}`);
      expect(tracked.status, query).toBe(200);
      expect(tracked.order, query).toMatchObject({
        owner: false,
        shippingAddress: null,
        customerName: null,
        shippingCity: "Toulouse",
      });
      const confirmed = await confirmation(id, query);
      expect(confirmed.order, query).toMatchObject({ owner: false, shippingAddress: null, customerName: null });
    }
  });
});
