import { and, eq } from "drizzle-orm";
import type Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { getConfig } from "~/config.server";
import { getDb } from "~/db/client.server";
import { emails, orders, subscriptions } from "~/db/schema";
import { action as createSubscriptionAction } from "~/routes/api.create-subscription";
import { renderEmail } from "~/services/email/render.server";
import { getStripe } from "~/services/stripe.server";
import { setUpTestEmulator } from "./emulator-fixtures";
import {
  browserAuthenticate,
  browserConfirm,
  browserCreatePaymentMethod,
  CARDS,
  createTestOrder,
  ownerRequest,
  replayEvent,
  routeArgs,
} from "./payments-fixtures";

/**
 * A renewal the bank asks the customer to authenticate (3-D Secure, card 4000 0027 6000 3184):
 * the emulator's renewal fails with authentication_required and sends
 * invoice.payment_action_required then invoice.payment_failed; the shop handles each once.
 */

const { emulator, withWebhooks } = setUpTestEmulator();

/** A subscription paid in the browser with `card` (its challenge authorized), the card its default one. */
async function subscribedWith(card: string) {
  const orderId = await createTestOrder();
  const response = await createSubscriptionAction(routeArgs(ownerRequest("/api/create-subscription", { orderId })));
  const created = (await response.json()) as { subscriptionId: string; clientSecret: string };
  const pm = await browserCreatePaymentMethod(card);
  expect((await browserConfirm(created.clientSecret, pm)).body.status).toBe("requires_action");
  const authorized = await withWebhooks(() => browserAuthenticate(created.clientSecret, "authorized"));
  expect(authorized.body.status).toBe("succeeded");
  await (await getStripe()).subscriptions.update(created.subscriptionId, { default_payment_method: pm });
  return { orderId, subscriptionId: created.subscriptionId };
}

async function renew(subscriptionId: string): Promise<Stripe.Invoice> {
  const response = await fetch(`${emulator().url}/v1/test_helpers/emulator/subscriptions/${subscriptionId}/renew`, {
    method: "POST",
    headers: { Authorization: `Bearer ${getConfig().stripe.secretKey}` },
  });
  return (await response.json()) as Stripe.Invoice;
}

async function record(subscriptionId: string) {
  return (await getDb().select().from(subscriptions).where(eq(subscriptions.stripeSubscriptionId, subscriptionId)).limit(1))[0];
}

async function emailsOf(kind: (typeof emails.$inferSelect)["kind"], orderId: number) {
  return await getDb()
    .select()
    .from(emails)
    .where(and(eq(emails.kind, kind), eq(emails.orderId, orderId)));
}

async function renewalOrders(recordId: number) {
  return (await getDb().select().from(orders).where(eq(orders.subscriptionId, recordId))).filter((o) => o.renewalNumber !== null);
}

function eventFor(type: string, objectId: string) {
  const event = emulator().events.find((e) => e.type === type && (e.data.object as { id: string }).id === objectId);
  if (!event) throw new Error(`no ${type} for ${objectId}`);
  return event;
}

describe("a renewal that needs the customer (3-D Secure)", () => {
  it("3155 saved by the first payment: the renewal is paid without the customer", async () => {
    const { subscriptionId } = await subscribedWith(CARDS.authFirstPayment);
    const invoice = await withWebhooks(() => renew(subscriptionId));
    expect(invoice.status).toBe("paid");
    const row = (await record(subscriptionId))!;
    expect(row).toMatchObject({ status: "active", renewalCount: 1, actionRequiredAt: null });
  });

  it("3184: past due with the date, one « Action requise » email, replays change nothing; authorized on the pay page, one paid renewal order", async () => {
    const { orderId, subscriptionId } = await subscribedWith(CARDS.authAlways);
    const invoice = await withWebhooks(() => renew(subscriptionId));
    expect(invoice.status).toBe("open");

    const row = (await record(subscriptionId))!;
    expect(row).toMatchObject({ status: "past_due", unpaidInvoiceId: invoice.id, renewalCount: 0 });
    expect(row.actionRequiredAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(await renewalOrders(row.id)).toHaveLength(0);

    // Each event replayed twice: the same delivery again (a duplicate), and a new event of the same kind (a retry).
    for (const type of ["invoice.payment_action_required", "invoice.payment_failed"]) {
      const event = eventFor(type, invoice.id!);
      const first = await replayEvent(emulator(), event);
      expect(await first.json()).toMatchObject({ received: true, outcome: "duplicate" });
      const retry = { ...structuredClone(event), id: `${event.id}_retry` };
      expect((await replayEvent(emulator(), retry)).status).toBe(200);
    }
    const asked = await emailsOf("renewal_action_required", orderId);
    expect(asked).toHaveLength(1);
    // The "payment failed" email is not sent too: the customer has one thing to do.
    expect(await emailsOf("renewal_payment_failed", orderId)).toHaveLength(0);
    // The shop is told once too, that the renewal waits for the customer.
    const owner = await emailsOf("owner_renewal_problem", orderId);
    expect(owner).toHaveLength(1);
    expect(owner[0].toAddress).toBe("contact@maison-eclat.fr");
    const told = await renderEmail(owner[0]);
    expect(told.subject).toMatch(/^Renouvellement à confirmer par le client \(3-D Secure\) : abonnement de /);
    expect(told.text).toContain("Rien n'est débité tant que le client ne l'a pas confirmé.");
    expect(told.text).toContain(`/admin/subscriptions/${row.id}`);
    expect((await record(subscriptionId))!.actionRequiredAt).toBe(row.actionRequiredAt);

    const payload = asked[0].payload as { payUrl: string; amountCents: number };
    expect(payload.amountCents).toBe(2590);
    const link = new URL(payload.payUrl);
    expect(link.pathname).toBe("/abonnement/payer");
    expect(link.searchParams.get("facture")).toBe(invoice.id);
    const rendered = await renderEmail(asked[0]);
    expect(rendered.subject).toBe("Action requise : confirmez le paiement de votre abonnement");
    expect(rendered.text).toContain("25,90€");
    expect(rendered.text).toContain("Votre banque demande une confirmation");
    expect(rendered.text).toContain(payload.payUrl);

    // The pay page: the card again, the bank's challenge, authorized.
    const open = await (await getStripe()).invoices.retrieve(invoice.id!, { expand: ["confirmation_secret"] });
    const secret = open.confirmation_secret!.client_secret;
    const pm = await browserCreatePaymentMethod(CARDS.authAlways);
    expect((await browserConfirm(secret, pm)).body.status).toBe("requires_action");
    const paid = await withWebhooks(() => browserAuthenticate(secret, "authorized"));
    expect(paid.body.status).toBe("succeeded");

    expect(await record(subscriptionId)).toMatchObject({
      status: "active",
      unpaidInvoiceId: null,
      actionRequiredAt: null,
      renewalCount: 1,
    });
    const made = await renewalOrders(row.id);
    expect(made).toMatchObject([{ stripeInvoiceId: invoice.id, renewalNumber: 1, paymentStatus: "paid" }]);
    expect(await emailsOf("renewal_receipt", made[0].id)).toHaveLength(1);
  });

  it("ignores the authentication asked for a first payment: the customer is on the payment step", async () => {
    const orderId = await createTestOrder();
    const response = await createSubscriptionAction(routeArgs(ownerRequest("/api/create-subscription", { orderId })));
    const created = (await response.json()) as { subscriptionId: string; clientSecret: string };
    const sub = await (await getStripe()).subscriptions.retrieve(created.subscriptionId, { expand: ["latest_invoice"] });
    const invoice = sub.latest_invoice as Stripe.Invoice;
    const event = {
      id: `evt_first_action_${invoice.id}`,
      object: "event",
      type: "invoice.payment_action_required",
      created: Math.floor(Date.now() / 1000),
      data: { object: invoice },
    };
    expect(await (await replayEvent(emulator(), event)).json()).toMatchObject({ outcome: "ignored" });
    expect(await emailsOf("renewal_action_required", orderId)).toHaveLength(0);
  });
});
