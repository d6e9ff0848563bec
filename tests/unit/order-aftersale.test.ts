import { asResponses } from "../helpers/route-response";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { emails, withdrawalRequests } from "~/db/schema";
import { action as detailActionRoute, loader as detailLoaderRoute } from "~/routes/admin.orders.$id";
import * as orderApi from "~/routes/api.orders.$id";
import { loader as trackLoaderRoute } from "~/routes/track-order";
import { getAdminOrder, updateAdminOrder } from "~/services/admin-orders.server";
import { renderEmail } from "~/services/email/render.server";
import { formRequest, getRequest, jsonRequest, routeArgs } from "../helpers/requests";
import { adminCookie, insertOrder } from "./admin-helpers";

const detailAction = asResponses(detailActionRoute);
const detailLoader = asResponses(detailLoaderRoute);
const trackLoader = asResponses(trackLoaderRoute);
type Handler = (args: unknown) => Promise<Response>;

async function emailsOf(orderId: number, kind: "order_shipped" | "order_tracking_number") {
  return await getDb()
    .select()
    .from(emails)
    .where(and(eq(emails.orderId, orderId), eq(emails.kind, kind)))
    .orderBy(emails.id);
}

function post(id: number, fields: Record<string, string>, cookie: string) {
  return detailAction(routeArgs(formRequest(`/admin/orders/${id}`, fields, { headers: { Cookie: cookie } }), { id: String(id) }));
}

describe("shipping and its tracking number", () => {
  it("asks for a confirmation before shipping with no number, then sends the number once it is given", async () => {
    const cookie = await adminCookie();
    const id = await insertOrder({ paymentStatus: "paid", customerEmail: "suivi@example.fr" });

    // No number: a question, not a shipment; nothing sent.
    const asked = await post(id, { status: "shipped", trackingNumber: "", trackingCarrier: "colissimo" }, cookie);
    expect(asked.status).toBe(409);
    expect((await asked.json()).confirmShipping).toMatch(/^Aucun numéro de suivi saisi : /);
    expect(await getAdminOrder(id)).toMatchObject({ status: "pending" });
    expect(await emailsOf(id, "order_shipped")).toHaveLength(0);

    // Confirmed: shipped, and the shipping email says a number may follow (never « non communiqué »).
    const confirmed = await post(
      id,
      { status: "shipped", trackingNumber: "", trackingCarrier: "colissimo", confirmWithoutTracking: "1" },
      cookie,
    );
    expect(confirmed.status).toBe(302);
    const [shipped] = await emailsOf(id, "order_shipped");
    const shippedEmail = await renderEmail(shipped);
    for (const part of [shippedEmail.html, shippedEmail.text]) {
      expect(part).not.toContain("non communiqué");
      expect(part).toContain("Si votre colis reçoit un numéro de suivi, nous vous l");
    }

    // The number added later: « Votre numéro de suivi », with the carrier's link.
    expect((await post(id, { status: "shipped", trackingNumber: "6A 1234", trackingCarrier: "colissimo" }, cookie)).status).toBe(
      302,
    );
    // Saved again unchanged: no second email.
    expect((await post(id, { status: "shipped", trackingNumber: "6A 1234", trackingCarrier: "colissimo" }, cookie)).status).toBe(
      302,
    );
    const [numberEmail, ...others] = await emailsOf(id, "order_tracking_number");
    expect(others).toHaveLength(0);
    expect(numberEmail.toAddress).toBe("suivi@example.fr");
    const rendered = await renderEmail(numberEmail);
    expect(rendered.subject).toBe(`Votre numéro de suivi pour la commande n°${id}`);
    expect(rendered.text).toContain("Numéro de suivi : 6A 1234");
    expect(rendered.text).toContain(
      "Suivre le colis sur le site de Colissimo : https://www.laposte.fr/outils/suivre-vos-envois?code=6A1234",
    );
    expect(rendered.html).toContain("https://www.laposte.fr/outils/suivre-vos-envois?code=6A1234");

    // Changed (a new carrier and number), even once delivered: the new one is sent.
    await updateAdminOrder(id, { status: "delivered", trackingNumber: "XW99", trackingCarrier: "mondial_relay" });
    const all = await emailsOf(id, "order_tracking_number");
    expect(all).toHaveLength(2);
    expect((await renderEmail(all[1])).text).toContain("https://www.mondialrelay.fr/suivi-de-colis/?numeroExpedition=XW99");
    // Shipped with a number at once: the shipping email carries it, no second email.
    const direct = await insertOrder({ paymentStatus: "paid" });
    await updateAdminOrder(direct, { status: "shipped", trackingNumber: "6A777" });
    expect(await emailsOf(direct, "order_shipped")).toHaveLength(1);
    expect(await emailsOf(direct, "order_tracking_number")).toHaveLength(0);
  });

  it("applies the same rules through PUT /api/orders/{id}", async () => {
    const cookie = await adminCookie();
    const id = await insertOrder({ paymentStatus: "paid" });
    const put = (body: unknown) =>
      (orderApi.action as Handler)(
        routeArgs(jsonRequest(`/api/orders/${id}`, "PUT", body, { Cookie: cookie }), { id: String(id) }),
      );
    const refused = await put({ status: "shipped" });
    expect(refused.status).toBe(409);
    const answer = await refused.json();
    expect(answer).toMatchObject({ code: "tracking_number_missing", issues: [{ path: "trackingNumber" }] });
    expect(answer.error).toMatch(/^Aucun numéro de suivi saisi : /);
    expect((await put({ status: "shipped", confirmWithoutTracking: "oui" })).status).toBe(422);
    const shipped = await put({ status: "shipped", confirmWithoutTracking: true });
    expect(shipped.status).toBe(200);
    expect(await shipped.json()).toMatchObject({ status: "shipped", trackingNumber: null, closure: null });
    expect((await put({ trackingNumber: "6A555", trackingCarrier: "dpd" })).status).toBe(200);
    expect(await emailsOf(id, "order_tracking_number")).toHaveLength(1);
  });
});

describe("a refunded or withdrawn order has one final state", () => {
  it("shows « Remboursée » alone on the tracking page, in the API and in the back office, which cannot move it", async () => {
    const cookie = await adminCookie();
    const id = await insertOrder({ paymentStatus: "refunded", status: "pending" });

    const tracked = await (await trackLoader(routeArgs(getRequest(`/track-order?id=${id}`)))).json();
    expect(tracked.order).toMatchObject({
      progressLabel: "Remboursée",
      closure: "refunded",
      closureText: "Cette commande a été remboursée en totalité : elle ne sera pas expédiée. Son suivi s'arrête ici.",
    });
    const api = await (orderApi.loader as Handler)(routeArgs(getRequest(`/api/orders/${id}`), { id: String(id) }));
    expect(await api.json()).toMatchObject({ closure: "refunded", progressLabel: "Remboursée" });

    const detail = await (
      await detailLoader(routeArgs(getRequest(`/admin/orders/${id}`, { Cookie: cookie }), { id: String(id) }))
    ).json();
    expect(detail).toMatchObject({ closure: "refunded" });
    const refused = await post(id, { status: "processing", trackingNumber: "" }, cookie);
    expect(refused.status).toBe(409);
    expect((await refused.json()).result.error.status[0]).toBe(
      "Cette commande a été remboursée : elle ne peut plus être préparée, expédiée ni livrée.",
    );
    const put = await (orderApi.action as Handler)(
      routeArgs(jsonRequest(`/api/orders/${id}`, "PUT", { trackingNumber: "6A1" }, { Cookie: cookie }), { id: String(id) }),
    );
    expect(put.status).toBe(409);
    expect(await put.json()).toMatchObject({ code: "order_closed", issues: [{ path: "trackingNumber" }] });
    expect(await getAdminOrder(id)).toMatchObject({ status: "pending", trackingNumber: null });
  });

  it("closes a withdrawn order until its refund: « Rétractation enregistrée », no step taken", async () => {
    const id = await insertOrder({ paymentStatus: "paid", status: "processing" });
    await getDb()
      .insert(withdrawalRequests)
      .values({ orderId: id, requestedAt: "2026-12-01T09:00:00.000Z", email: "camille@example.fr" });
    await expect(updateAdminOrder(id, { status: "shipped", trackingNumber: "6A2" })).rejects.toMatchObject({
      status: 409,
      code: "order_closed",
      message:
        "Le client s'est rétracté le 01/12/2026 : cette commande ne peut plus être préparée, expédiée ni livrée. Remboursez-la dans les 14 jours suivant la demande.",
    });
    const tracked = await (await trackLoader(routeArgs(getRequest(`/track-order?id=${id}`)))).json();
    expect(tracked.order).toMatchObject({ progressLabel: "Rétractation enregistrée", closure: "withdrawn" });
    expect(tracked.order.closureText).toMatch(/elle ne sera pas expédiée\. Son remboursement suit/);
    const cookie = await adminCookie();
    const api = await (orderApi.loader as Handler)(
      routeArgs(getRequest(`/api/orders/${id}`, { Cookie: cookie }), { id: String(id) }),
    );
    expect(await api.json()).toMatchObject({ closure: "withdrawn", withdrawal: { reason: null } });
  });
});
