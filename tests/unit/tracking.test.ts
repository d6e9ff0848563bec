import { asResponses } from "../helpers/route-response";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { orders } from "~/db/schema";
import { loader as pageLoaderRoute } from "~/routes/track-order";
import { parseOrderNumber } from "~/schemas/tracking";
import { createOrderFromApi } from "~/services/orders/create.server";
import { action as postOrder } from "~/routes/api.orders";
import { getRequest, jsonRequest, routeArgs } from "../helpers/requests";
import { adminCookie, cookieFrom } from "./admin-helpers";
import { loader as getOrder } from "~/routes/api.orders.$id";
import { updateAdminOrder } from "~/services/admin-orders.server";
import { markOrderPaid } from "~/services/payments/payment-state.server";

const loader = asResponses(pageLoaderRoute);

type TrackingData = {
  result: { error?: Record<string, string[]> } | null;
  order: {
    trackingNumber: string | null;
    progressLabel: string;
    trackingUrl: string | null;
    owner: boolean;
    shippingAddress: string | null;
    customerName: string | null;
    shippingCity: string | null;
  } | null;
  outcome: string | null;
  withEmail: boolean;
};

async function track(query: string, headers: Record<string, string> = {}) {
  const response = await loader(routeArgs(getRequest(`/track-order${query}`, headers)));
  return { status: response.status, headers: response.headers, body: (await response.json()) as TrackingData };
}

const ORDER_BODY = {
  customerEmail: "suivi@example.fr",
  customerName: "Louise Petit",
  shippingAddress: "5 quai de la Loire",
  shippingPostalCode: "44000",
  shippingCity: "Nantes",
  items: [{ productId: 1, quantity: 1, packId: 3 }],
};

async function newOrder() {
  return await createOrderFromApi(ORDER_BODY);
}

describe("order number parsing", () => {
  it("accepts the ways people type a number and rejects the rest", () => {
    expect(parseOrderNumber("123456789")).toBe(123456789);
    expect(parseOrderNumber(" #123 456 789 ")).toBe(123456789);
    expect(parseOrderNumber("n° 123456789")).toBe(123456789);
    for (const bad of ["abc", "-1", "1.5", "0", "", "12ab", "9".repeat(5000), "1e9"])
      expect(parseOrderNumber(bad), bad).toBeNull();
  });
});

describe("/track-order loader", () => {
  it("shows the empty form when no number was asked", async () => {
    const response = await track("");
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ order: null, outcome: null });
  });

  it("requires a number: 'Le numéro de commande est requis'", async () => {
    const response = await track("?id=");
    expect(response.status).toBe(400);
    expect(response.body.result?.error).toEqual({ id: ["Le numéro de commande est requis"] });
    expect((await track("?id=%20%20")).body.result?.error?.id).toEqual(["Le numéro de commande est requis"]);
  });

  it("finds an order by its number, with status, progress data and address", async () => {
    const order = await newOrder();
    await getDb().update(orders).set({ status: "shipped", trackingNumber: "6A12345678901" }).where(eq(orders.id, order.id));
    const response = await track(`?id=${order.id}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    const body = response.body;
    expect(body.outcome).toBe("found");
    expect(body.order).toMatchObject({
      id: order.id,
      status: "shipped",
      trackingNumber: "6A12345678901",
      totalCents: 3290,
      shippingCity: "Nantes",
      shippingPostalCode: "44000",
    });
    // The number alone: neither the name, nor the street, nor the email.
    expect(body.order).toMatchObject({ owner: false, shippingAddress: null, customerName: null, customerEmail: null });
    expect(JSON.stringify(body)).not.toMatch(/suivi@example\.fr|quai de la Loire|Louise|Petit/);
  });

  it("with the order's email (any case), shows the name and the street too", async () => {
    const order = await newOrder();
    const response = await track(`?id=${order.id}&email=${encodeURIComponent(" Suivi@Example.fr ")}`);
    expect(response.status).toBe(200);
    expect(response.body.order).toMatchObject({
      owner: true,
      shippingAddress: "5 quai de la Loire",
      customerName: "Louise Petit",
      shippingCity: "Nantes",
    });
  });

  it("gives a wrong email the very answer of an unknown number", async () => {
    const order = await newOrder();
    const wrong = await track(`?id=${order.id}&email=autre@example.fr`);
    const unknown = await track(`?id=123456789&email=autre@example.fr`);
    expect(wrong.status).toBe(404);
    expect(unknown.status).toBe(404);
    const strip = (data: TrackingData) => ({
      order: data.order,
      outcome: data.outcome,
      withEmail: data.withEmail,
      error: data.result?.error ?? null,
    });
    expect(strip(wrong.body)).toEqual(strip(unknown.body));
    expect(strip(wrong.body)).toEqual({ order: null, outcome: "not-found", withEmail: true, error: null });
  });

  it("the buyer's own browser (orders cookie), the order token or an administrator see the full details without an email", async () => {
    const created = await postOrder(routeArgs(jsonRequest("/api/orders", "POST", { ...ORDER_BODY })));
    const { id, token } = (await created.json()) as { id: number; token: string };
    const ordersCookie = cookieFrom(created, "orders")!;
    expect(ordersCookie).toBeTruthy();
    for (const [label, query, headers] of [
      ["orders cookie", `?id=${id}`, { Cookie: ordersCookie }],
      ["token", `?id=${id}&token=${token}`, {}],
      ["admin", `?id=${id}`, { Cookie: await adminCookie() }],
    ] as const) {
      const response = await track(query, headers);
      expect(response.body.order, label).toMatchObject({
        owner: true,
        shippingAddress: "5 quai de la Loire",
        customerName: "Louise Petit",
      });
    }
    const stranger = await track(`?id=${id}&token=${"x".repeat(43)}`);
    expect(stranger.body.order).toMatchObject({ owner: false, shippingAddress: null });
  });

  it("says that the payment has not been received for an unpaid order, never 'Commande reçue'; the step and the carrier's link once paid", async () => {
    const order = await newOrder();
    const unpaid = await track(`?id=${order.id}`);
    expect(unpaid.body.order).toMatchObject({
      paymentStatus: "unpaid",
      progressLabel: "Paiement non reçu : cette commande n'est pas encore payée.",
    });
    const api = await (await getOrder(routeArgs(getRequest(`/api/orders/${order.id}`), { id: String(order.id) }))).json();
    expect(api.progressLabel).toBe("Paiement non reçu : cette commande n'est pas encore payée.");

    await markOrderPaid(order.id, { paymentIntentId: `pi_${order.id}` });
    expect((await track(`?id=${order.id}`)).body.order).toMatchObject({ progressLabel: "Commande reçue", trackingUrl: null });
    await updateAdminOrder(order.id, { status: "shipped", trackingNumber: "XW 1234 5678", trackingCarrier: "mondial_relay" });
    expect((await track(`?id=${order.id}`)).body.order).toMatchObject({
      progressLabel: "Expédiée",
      trackingNumber: "XW 1234 5678",
      trackingUrl: "https://www.mondialrelay.fr/suivi-de-colis/?numeroExpedition=XW12345678",
    });
    // Without a carrier chosen, the settings' default one (Colissimo in the demo data).
    const other = await newOrder();
    await markOrderPaid(other.id, { paymentIntentId: `pi_${other.id}` });
    await updateAdminOrder(other.id, { status: "shipped", trackingNumber: "6A999" });
    expect((await track(`?id=${other.id}`)).body.order).toMatchObject({
      trackingCarrier: "colissimo",
      trackingUrl: "https://www.laposte.fr/outils/suivre-vos-envois?code=6A999",
    });
  });

  it("hides a tracking number stored as 'null' or empty", async () => {
    const order = await newOrder();
    await getDb().update(orders).set({ status: "shipped", trackingNumber: "null" }).where(eq(orders.id, order.id));
    expect((await track(`?id=${order.id}`)).body.order?.trackingNumber).toBeNull();
  });

  it("answers 'Commande introuvable' (404) for unknown or malformed numbers, never a 500", async () => {
    for (const bad of ["123456789", "abc", "-1", "1.5", "9".repeat(5000)]) {
      const response = await track(`?id=${bad}`);
      expect(response.status, bad).toBe(404);
      expect(response.body).toMatchObject({ order: null, outcome: "not-found", withEmail: false });
    }
    // Control characters are refused like any bad input: 400 with the French message.
    const nul = await track("?id=%00");
    expect(nul.status).toBe(400);
    expect(nul.body.result?.error).toEqual({ id: ["Caractères non autorisés"] });
    const badEmail = await track("?id=123456789&email=pas-un-email");
    expect(badEmail.status).toBe(400);
    expect(badEmail.body.result?.error).toEqual({ email: ["Adresse email invalide"] });
  });
});
