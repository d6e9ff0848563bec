import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { orders } from "~/db/schema";
import { loader } from "~/routes/track-order";
import { parseOrderNumber } from "~/schemas/tracking";
import { createOrderFromApi } from "~/services/orders.server";
import { getRequest, routeArgs } from "../helpers/requests";

type TrackingData = {
  result: { error?: Record<string, string[]> } | null;
  order: { trackingNumber: string | null } | null;
  outcome: string | null;
};

async function track(query: string) {
  const response = await loader(routeArgs(getRequest(`/track-order${query}`)));
  return { status: response.status, headers: response.headers, body: (await response.json()) as TrackingData };
}

function newOrder() {
  return createOrderFromApi({
    customerEmail: "suivi@example.fr",
    customerName: "Louise Petit",
    shippingAddress: "5 quai de la Loire",
    shippingPostalCode: "44000",
    shippingCity: "Nantes",
    items: [{ productId: 1, quantity: 1, packId: 3 }],
  });
}

describe("order number parsing", () => {
  it("accepts the ways people type a number and rejects the rest", () => {
    expect(parseOrderNumber("123456789")).toBe(123456789);
    expect(parseOrderNumber(" #123 456 789 ")).toBe(123456789);
    expect(parseOrderNumber("n° 123456789")).toBe(123456789);
    for (const bad of ["abc", "-1", "1.5", "0", "", "12ab", "9".repeat(5000), "1e9"]) expect(parseOrderNumber(bad), bad).toBeNull();
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
    const order = newOrder();
    getDb().update(orders).set({ status: "shipped", trackingNumber: "6A12345678901" }).where(eq(orders.id, order.id)).run();
    const response = await track(`?id=${order.id}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    const body = response.body;
    expect(body.outcome).toBe("found");
    expect(body.order).toMatchObject({ id: order.id, status: "shipped", trackingNumber: "6A12345678901", totalCents: 3290, shippingCity: "Nantes" });
    expect(JSON.stringify(body)).not.toMatch(/suivi@example\.fr/);
  });

  it("hides a tracking number stored as 'null' or empty", async () => {
    const order = newOrder();
    getDb().update(orders).set({ status: "shipped", trackingNumber: "null" }).where(eq(orders.id, order.id)).run();
    expect((await track(`?id=${order.id}`)).body.order?.trackingNumber).toBeNull();
  });

  it("answers 'Commande introuvable' (404) for unknown or malformed numbers, never a 500", async () => {
    for (const bad of ["123456789", "abc", "-1", "1.5", "9".repeat(5000), "%00"]) {
      const response = await track(`?id=${bad}`);
      expect(response.status, bad).toBe(404);
      expect(response.body).toMatchObject({ order: null, outcome: "not-found" });
    }
  });
});
