import { asResponses } from "../helpers/route-response";
import { and, eq } from "drizzle-orm";
import type Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { emails, invoices, refunds } from "~/db/schema";
import { action as refundsApiAction, loader as refundsApiLoader } from "~/routes/api.admin.orders.$id.refunds";
import { action as orderPageActionRoute, loader as orderPageLoaderRoute } from "~/routes/admin.orders.$id";
import { renderEmail } from "~/services/email/render.server";
import { findInvoice } from "~/services/invoices.server";
import { refundOrder, type RefundActor } from "~/services/payments/refunds.server";
import { handleStripeEvent } from "~/services/payments/webhook.server";
import { getConfig } from "~/config.server";
import { getStripe } from "~/services/stripe.server";
import { loader as customerInvoiceLoaderRoute } from "~/routes/facture.$id";
import { loader as customerCreditNoteLoaderRoute } from "~/routes/avoir.$id";
import { orderLinkKey } from "~/services/orders/link.server";
import { ordersCsv } from "~/services/orders/export.server";
import { newRefundableOrderId } from "../helpers/api-fixtures";
import { formRequest, getRequest, jsonRequest } from "../helpers/requests";
import { adminCookie } from "./admin-helpers";
import { setUpTestEmulator } from "./emulator-fixtures";
import { createTestOrder, getOrder, replayEvent, routeArgs } from "./payments-fixtures";

const orderPageAction = asResponses(orderPageActionRoute);
const orderPageLoader = asResponses(orderPageLoaderRoute);
const customerInvoiceLoader = asResponses(customerInvoiceLoaderRoute);
const customerCreditNoteLoader = asResponses(customerCreditNoteLoaderRoute);

const { emulator, withWebhooks } = setUpTestEmulator();

const ADMIN: RefundActor = { userId: null, name: "Claire Admin" };
let keys = 0;
const newKey = () => `test-key-${Date.now()}-${keys++}`;

async function refundRows(orderId: number) {
  return await getDb().select().from(refunds).where(eq(refunds.orderId, orderId)).orderBy(refunds.id);
}

async function creditNotes(orderId: number) {
  return await getDb()
    .select()
    .from(invoices)
    .where(and(eq(invoices.orderId, orderId), eq(invoices.kind, "credit_note")))
    .orderBy(invoices.id);
}

async function refundEmails(orderId: number) {
  return await getDb()
    .select()
    .from(emails)
    .where(and(eq(emails.orderId, orderId), eq(emails.kind, "order_refunded")))
    .orderBy(emails.id);
}

/** The refunds Stripe holds for the order's payment. */
async function stripeRefunds(orderId: number) {
  const stripe = await getStripe();
  return (await stripe.refunds.list({ payment_intent: (await getOrder(orderId)).stripePaymentIntentId! })).data;
}

/** A refund made in Stripe's dashboard: Stripe's API called directly with the secret key, no metadata. */
async function refundFromDashboard(orderId: number, amount?: number): Promise<Stripe.Refund> {
  const response = await fetch(`${emulator().url}/v1/refunds`, {
    method: "POST",
    headers: { Authorization: `Bearer ${getConfig().stripe.secretKey}`, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      payment_intent: (await getOrder(orderId)).stripePaymentIntentId!,
      ...(amount ? { amount: String(amount) } : {}),
    }),
  });
  expect(response.status).toBe(200);
  return response.json();
}

async function eventsAbout(orderId: number) {
  const pi = (await getOrder(orderId)).stripePaymentIntentId;
  return emulator().events.filter(
    (e) =>
      (e.type === "charge.refunded" || e.type.startsWith("refund.")) &&
      (e.data.object as { payment_intent?: string }).payment_intent === pi,
  );
}

describe("refunds from the back office", () => {
  it("refunds an order in full from the order page: Stripe refunds it once, one credit note, one email, and the order reads « Remboursée »", async () => {
    const orderId = await newRefundableOrderId();
    const cookie = await adminCookie();
    const page = await (
      await orderPageLoader(routeArgs(getRequest(`/admin/orders/${orderId}`, { Cookie: cookie }), { id: String(orderId) }))
    ).json();
    expect(page.refunds).toMatchObject({ refundable: true, remainingCents: 2590, refundedCents: 0, refunds: [] });
    expect(page.refundKey).toMatch(/^[0-9a-f-]{36}$/);

    const response = await withWebhooks(() =>
      orderPageAction(
        routeArgs(
          formRequest(
            `/admin/orders/${orderId}`,
            { intent: "refund", amount: "25,90", reason: "Colis perdu", idempotencyKey: page.refundKey, confirm: "on" },
            { headers: { Cookie: cookie } },
          ),
          { id: String(orderId) },
        ),
      ),
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`/admin/orders/${orderId}`);

    expect((await getOrder(orderId)).paymentStatus).toBe("refunded");
    const [row] = await refundRows(orderId);
    expect(await refundRows(orderId)).toHaveLength(1);
    expect(row).toMatchObject({
      amountCents: 2590,
      reason: "Colis perdu",
      status: "succeeded",
      actorName: "Administrateur",
      stripeRefundId: expect.stringMatching(/^re_/),
    });
    expect(await stripeRefunds(orderId)).toHaveLength(1);
    // Our own refund came back through the webhook (refund.created, charge.refunded): matched, not counted twice.
    expect((await eventsAbout(orderId)).map((e) => e.type)).toEqual(["refund.created", "charge.refunded"]);

    const invoice = (await findInvoice(orderId, "invoice"))!;
    const notes = await creditNotes(orderId);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ refundId: row.id, creditedInvoiceId: invoice.id, totalIncludingCents: 2590 });
    expect(notes[0].document.lines).toEqual(invoice.document.lines);

    const mail = await refundEmails(orderId);
    expect(mail).toHaveLength(1);
    const rendered = await renderEmail(mail[0]);
    expect(rendered.subject).toBe(`Remboursement de votre commande n°${orderId}`);
    expect(rendered.text).toContain("Montant remboursé : 25,90€");
    expect(rendered.text).not.toContain("Montant restant payé");
    expect(rendered.text).toContain("carte utilisée pour le paiement, sous quelques jours");
    expect(rendered.text).toContain(`/avoir/${orderId}?cle=`);
    expect(rendered.text).toContain(`numero=${notes[0].number}`);

    // Nothing remains: no form, and a further refund is refused.
    const after = await (
      await orderPageLoader(routeArgs(getRequest(`/admin/orders/${orderId}`, { Cookie: cookie }), { id: String(orderId) }))
    ).json();
    expect(after.refunds).toMatchObject({ refundable: false, refundedCents: 2590 });
    expect(after.order.refundedCents).toBe(2590);
    await expect(refundOrder({ orderId, reason: "Encore", actor: ADMIN, idempotencyKey: newKey() })).rejects.toMatchObject({
      status: 409,
      message: "Cette commande est déjà entièrement remboursée : il n'y a plus rien à rembourser.",
    });
  });

  it("a partial refund, then one made in Stripe's dashboard, add up; replayed webhooks change nothing", async () => {
    const orderId = await newRefundableOrderId();
    const first = await withWebhooks(() =>
      refundOrder({ orderId, amountCents: 1000, reason: "Un masque abîmé", actor: ADMIN, idempotencyKey: newKey() }),
    );
    expect(first.refund).toMatchObject({ amountCents: 1000, status: "succeeded" });
    expect((await getOrder(orderId)).paymentStatus).toBe("partially_refunded");
    const partialMail = await renderEmail((await refundEmails(orderId))[0]);
    expect(partialMail.text).toContain("Montant remboursé : 10,00€");
    expect(partialMail.text).toContain("Montant restant payé : 15,90€");

    const dashboard = await withWebhooks(() => refundFromDashboard(orderId));
    expect(dashboard.amount).toBe(1590);
    const rows = await refundRows(orderId);
    expect(rows.map((r) => [r.amountCents, r.status, r.actorName, r.reason])).toEqual([
      [1000, "succeeded", "Claire Admin", "Un masque abîmé"],
      [1590, "succeeded", "Stripe", "Remboursement effectué depuis Stripe"],
    ]);
    expect(rows[1].stripeRefundId).toBe(dashboard.id);
    expect((await getOrder(orderId)).paymentStatus).toBe("refunded");

    // One credit note per refund, for its own amount, numbered one after the other.
    const notes = await creditNotes(orderId);
    expect(notes.map((n) => [n.refundId, n.totalIncludingCents])).toEqual([
      [rows[0].id, 1000],
      [rows[1].id, 1590],
    ]);
    expect(notes[1].document.totals).toEqual({ excludingCents: 1325, vatCents: 265, includingCents: 1590 });
    expect(Number(notes[1].number.slice(-6))).toBe(Number(notes[0].number.slice(-6)) + 1);
    expect(await refundEmails(orderId)).toHaveLength(2);

    // The customer's invoice lists both refunds, each with its credit note, which opens by its number.
    const key = orderLinkKey(orderId);
    const page = await (
      await customerInvoiceLoader(routeArgs(getRequest(`/facture/${orderId}?cle=${key}`), { id: String(orderId) }))
    ).json();
    expect(
      page.refunds.map((r: { amountCents: number; creditNoteNumber: string }) => [r.amountCents, r.creditNoteNumber]),
    ).toEqual([
      [1000, notes[0].number],
      [1590, notes[1].number],
    ]);
    const firstNote = await (
      await customerCreditNoteLoader(routeArgs(getRequest(page.refunds[0].creditNotePath!), { id: String(orderId) }))
    ).json();
    expect(firstNote.document).toMatchObject({ kind: "credit_note", number: notes[0].number });

    // The CSV export gives the refunded amount and the refund state.
    const csv = await ordersCsv({ q: String(orderId) });
    expect(csv.split("\r\n")[0]).toContain('"Total";"Remboursé";"Remboursement"');
    expect(csv).toContain('"25,90";"25,90";"Total"');

    // Every refund event again (as Stripe retries), and the charge's event under a new id: nothing more.
    for (const event of await eventsAbout(orderId))
      expect((await (await replayEvent(emulator(), event)).json()).outcome).toBe("duplicate");
    const charge = [...(await eventsAbout(orderId))].reverse().find((e) => e.type === "charge.refunded")!;
    expect((await handleStripeEvent({ ...charge, id: `${charge.id}_again` } as unknown as Stripe.Event)).outcome).toBe("ignored");
    expect(await refundRows(orderId)).toHaveLength(2);
    expect(await creditNotes(orderId)).toHaveLength(2);
    expect(await refundEmails(orderId)).toHaveLength(2);
    expect(await stripeRefunds(orderId)).toHaveLength(2);
  });

  it("refuses more than what remains, in French, and sends nothing to Stripe", async () => {
    const orderId = await newRefundableOrderId();
    await refundOrder({ orderId, amountCents: 1000, reason: "Geste commercial", actor: ADMIN, idempotencyKey: newKey() });
    await expect(
      refundOrder({ orderId, amountCents: 1591, reason: "Trop", actor: ADMIN, idempotencyKey: newKey() }),
    ).rejects.toMatchObject({
      status: 422,
      code: "amount_too_large",
      field: "amount",
      message: "Le montant dépasse ce qu'il reste à rembourser (15,90€).",
    });
    await expect(
      refundOrder({ orderId, amountCents: 500, reason: "  ", actor: ADMIN, idempotencyKey: newKey() }),
    ).rejects.toMatchObject({ status: 422, field: "reason" });
    expect(await stripeRefunds(orderId)).toHaveLength(1);
    expect(await refundRows(orderId)).toHaveLength(1);

    // The page answers inline, the form's values kept.
    const cookie = await adminCookie();
    const fields = { intent: "refund", amount: "16", reason: "Trop", idempotencyKey: newKey(), confirm: "on" };
    const response = await orderPageAction(
      routeArgs(formRequest(`/admin/orders/${orderId}`, fields, { headers: { Cookie: cookie } }), { id: String(orderId) }),
    );
    expect(response.status).toBe(422);
    const body = await response.json();
    expect(body.refundResult.error.amount).toEqual(["Le montant dépasse ce qu'il reste à rembourser (15,90€)."]);
    const unconfirmed = await orderPageAction(
      routeArgs(
        formRequest(`/admin/orders/${orderId}`, { ...fields, amount: "5", confirm: "" }, { headers: { Cookie: cookie } }),
        { id: String(orderId) },
      ),
    );
    expect(unconfirmed.status).toBe(400);
    expect((await unconfirmed.json()).refundResult.error.confirm).toEqual(["Cochez la case pour confirmer le remboursement."]);
    expect(await stripeRefunds(orderId)).toHaveLength(1);
  });

  it("refuses to refund an unpaid order", async () => {
    const orderId = await createTestOrder();
    await expect(refundOrder({ orderId, reason: "Erreur", actor: ADMIN, idempotencyKey: newKey() })).rejects.toMatchObject({
      status: 409,
      code: "order_not_paid",
      message: "Cette commande n'a pas été payée : il n'y a rien à rembourser.",
    });
    expect(await refundRows(orderId)).toHaveLength(0);
  });

  it("a double submit with the same key refunds once at Stripe", async () => {
    const orderId = await newRefundableOrderId();
    const key = newKey();
    const request = { orderId, amountCents: 700, reason: "Double clic", actor: ADMIN, idempotencyKey: key };
    const [a, b] = await Promise.all([refundOrder(request), refundOrder(request)]);
    expect(a.refund.id).toBe(b.refund.id);
    expect([a.replayed, b.replayed].sort()).toEqual([false, true]);
    const again = await refundOrder(request);
    expect(again).toMatchObject({ replayed: true, refund: { id: a.refund.id, status: "succeeded" } });
    expect(await stripeRefunds(orderId)).toHaveLength(1);
    expect(await refundRows(orderId)).toHaveLength(1);
    expect((await getOrder(orderId)).paymentStatus).toBe("partially_refunded");
  });

  it("a refund that fails at the bank gives its amount back", async () => {
    const orderId = await newRefundableOrderId();
    const { refund } = await withWebhooks(() =>
      refundOrder({ orderId, amountCents: 1200, reason: "Retour", actor: ADMIN, idempotencyKey: newKey() }),
    );
    expect((await getOrder(orderId)).paymentStatus).toBe("partially_refunded");
    await withWebhooks(async () => {
      const response = await fetch(`${emulator().url}/v1/test_helpers/emulator/refunds/${refund.stripeRefundId}/fail`, {
        method: "POST",
        headers: { Authorization: `Bearer ${getConfig().stripe.secretKey}` },
      });
      expect(response.status).toBe(200);
    });
    expect((await refundRows(orderId))[0]).toMatchObject({
      status: "failed",
      failureMessage: expect.stringContaining("expired_or_canceled_card"),
    });
    expect((await getOrder(orderId)).paymentStatus).toBe("paid");
    // The amount can be refunded again.
    const again = await refundOrder({ orderId, reason: "Retour", actor: ADMIN, idempotencyKey: newKey() });
    expect(again.refund.amountCents).toBe(2590);
    expect((await getOrder(orderId)).paymentStatus).toBe("refunded");
  });
});

describe("POST /api/admin/orders/{id}/refunds", () => {
  const post = async (orderId: number, body: unknown, headers: Record<string, string> = {}) =>
    refundsApiAction(
      routeArgs(jsonRequest(`/api/admin/orders/${orderId}/refunds`, "POST", body, { Cookie: await adminCookie(), ...headers }), {
        id: String(orderId),
      }),
    );

  it("refunds in euros, gives the order's new state, and replays an Idempotency-Key", async () => {
    const orderId = await newRefundableOrderId();
    const response = await post(orderId, { amount: "5.90", reason: "Geste commercial" }, { "Idempotency-Key": "api-key-123456" });
    expect(response.status).toBe(201);
    const body = await response.json();
    expect(body).toMatchObject({
      amount: "5.90",
      status: "succeeded",
      by: "Administrateur",
      replayed: false,
      remaining: "20.00",
      order: { id: orderId, paymentStatus: "partially_refunded", total: "25.90", refunded: "5.90" },
    });
    expect(body.creditNoteNumber).toMatch(/^A\d{4}-\d{6}$/);
    const replay = await post(orderId, { amount: "5.90", reason: "Geste commercial" }, { "Idempotency-Key": "api-key-123456" });
    expect(replay.status).toBe(200);
    expect(await replay.json()).toMatchObject({ id: body.id, replayed: true });
    expect(await stripeRefunds(orderId)).toHaveLength(1);

    const list = await (
      await refundsApiLoader(
        routeArgs(getRequest(`/api/admin/orders/${orderId}/refunds`, { Cookie: await adminCookie() }), { id: String(orderId) }),
      )
    ).json();
    expect(list).toMatchObject({ remaining: "20.00", refunds: [{ id: body.id, amount: "5.90" }] });
  });

  it("answers its refusals in French JSON", async () => {
    const orderId = await newRefundableOrderId();
    const tooMuch = await post(orderId, { amount: "30,00", reason: "Trop" });
    expect(tooMuch.status).toBe(422);
    expect(await tooMuch.json()).toEqual({
      error: "Le montant dépasse ce qu'il reste à rembourser (25,90€).",
      issues: [{ path: "amount", message: "Le montant dépasse ce qu'il reste à rembourser (25,90€)." }],
      code: "amount_too_large",
    });
    const invalid = await post(orderId, { amount: "douze", reason: "" });
    expect(invalid.status).toBe(422);
    expect((await invalid.json()).issues.map((i: { path: string }) => i.path).sort()).toEqual(["amount", "reason"]);
    const unpaid = await post(await createTestOrder(), { reason: "Erreur" });
    expect(unpaid.status).toBe(409);
    expect(await unpaid.json()).toMatchObject({
      code: "order_not_paid",
      error: "Cette commande n'a pas été payée : il n'y a rien à rembourser.",
    });
    const anonymous = await refundsApiAction(
      routeArgs(jsonRequest(`/api/admin/orders/${orderId}/refunds`, "POST", { reason: "x" }), { id: String(orderId) }),
    );
    expect(anonymous.status).toBe(401);
    expect(await stripeRefunds(orderId)).toHaveLength(0);
  });
});
