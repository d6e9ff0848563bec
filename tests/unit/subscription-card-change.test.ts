import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { emails } from "~/db/schema";
import { completeCardChange, startCardChange } from "~/services/payments/subscription-card.server";
import { getAdminSubscription } from "~/services/subscriptions/admin-view.server";
import { sendManagementLinkAsAdmin } from "~/services/subscriptions/manage-link.server";
import { getStripe, type StripeEmulatorHandle } from "~/services/stripe.server";
import { eq } from "drizzle-orm";
import {
  browserAuthenticateSetup,
  browserConfirmSetup,
  browserCreatePaymentMethod,
  CARDS,
  replayEvent,
  startTestEmulator,
  stopTestEmulator,
} from "./payments-fixtures";
import { FAILING_RENEWAL_CARD, subscriptionDriver, subscriptionOrders, subscriptionRecord } from "./subscription-fixtures";

/**
 * « Changer de carte »: a SetupIntent of the subscription's customer, confirmed by the browser
 * (through the demo proxy, as the Stripe.js stand-in does it), with 3-D Secure when the bank asks;
 * then the shop reads it back from Stripe, makes the card the default one and retries a renewal
 * left unpaid. Against the real emulator and the signed webhook route.
 */

let emulator: StripeEmulatorHandle;
const { subscribed, renew, switchToFailingCard, withWebhooks } = subscriptionDriver(() => emulator);
const customer = { kind: "customer" } as const;

beforeAll(async () => {
  emulator = await startTestEmulator();
});
afterAll(async () => {
  await stopTestEmulator();
});

async function changedEmails(subscriptionId: number) {
  return (await getDb().select().from(emails).where(eq(emails.kind, "subscription_changed"))).filter(
    (e) => (e.payload as { subscriptionId?: number } | null)?.subscriptionId === subscriptionId,
  );
}

/** The browser's side: a new card, confirmed against the SetupIntent's client secret. */
async function confirmNewCard(clientSecret: string, card: string) {
  const pm = await browserCreatePaymentMethod(card);
  return { pm, ...(await browserConfirmSetup(clientSecret, pm)) };
}

async function pastDue() {
  const subscription = await subscribed();
  await switchToFailingCard(subscription.subscriptionId);
  const invoice = await renew(subscription.subscriptionId);
  const record = await subscriptionRecord(subscription.record.id);
  expect(record).toMatchObject({ status: "past_due", unpaidInvoiceId: invoice.id });
  return { ...subscription, record, invoiceId: invoice.id! };
}

describe("changing the subscription's card", () => {
  it("4242: saved without a challenge, it becomes the subscription's and the customer's default card; history and email say which", async () => {
    const { record, subscriptionId } = await subscribed();
    const { clientSecret } = await startCardChange(record);
    const confirmed = await confirmNewCard(clientSecret, CARDS.success);
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ status: "succeeded", payment_method: confirmed.pm });

    const done = await withWebhooks(() => completeCardChange(record, confirmed.body.id, customer));
    expect(done).toMatchObject({ card: "Visa •••• 4242", changed: true, retry: null });
    expect(done.subscription).toMatchObject({ cardBrand: "visa", cardLast4: "4242" });
    const stripe = await getStripe();
    const sub = await stripe.subscriptions.retrieve(subscriptionId);
    expect(sub.default_payment_method).toBe(confirmed.pm);
    const stripeCustomer = await stripe.customers.retrieve(sub.customer as string);
    expect(stripeCustomer).toMatchObject({ invoice_settings: { default_payment_method: confirmed.pm } });
    const pm = await stripe.paymentMethods.retrieve(confirmed.pm);
    expect(pm.customer).toBe(sub.customer);

    const detail = await getAdminSubscription(record.id);
    expect(detail!.timeline.find((e) => e.kind === "change")?.label).toBe(
      "Par le client : carte de paiement changée (Visa •••• 4242).",
    );
    const [email] = await changedEmails(record.id);
    expect(email.payload).toMatchObject({
      action: "change_card",
      summary: "Carte enregistrée : Visa •••• 4242. Les prochains renouvellements seront prélevés sur cette carte.",
    });

    // The same answer posted again (a reload): nothing twice.
    const again = await completeCardChange(done.subscription, confirmed.body.id, customer);
    expect(again.changed).toBe(false);
    expect(await changedEmails(record.id)).toHaveLength(1);
  });

  it("3155: the bank's challenge first; refused, nothing changes; authorized, the card is saved and used", async () => {
    const { record, subscriptionId } = await subscribed();
    const { clientSecret, setupIntentId } = await startCardChange(record);
    const confirmed = await confirmNewCard(clientSecret, CARDS.authFirstPayment);
    expect(confirmed.body).toMatchObject({ status: "requires_action", next_action: { type: "use_stripe_sdk" } });
    // Not set up yet: the shop refuses to use it.
    await expect(completeCardChange(record, setupIntentId, customer)).rejects.toMatchObject({
      status: 409,
      code: "card_not_set_up",
    });
    const refused = await browserAuthenticateSetup(clientSecret, "refused");
    expect(refused.body).toMatchObject({
      status: "requires_payment_method",
      last_setup_error: { code: "setup_intent_authentication_failure" },
    });

    const retried = await confirmNewCard(clientSecret, CARDS.authFirstPayment);
    expect(retried.body.status).toBe("requires_action");
    const authorized = await browserAuthenticateSetup(clientSecret, "authorized");
    expect(authorized.body).toMatchObject({ status: "succeeded" });
    const done = await withWebhooks(() => completeCardChange(record, setupIntentId, customer));
    expect(done.card).toBe("Visa •••• 3155");
    expect((await (await getStripe()).subscriptions.retrieve(subscriptionId)).default_payment_method).toBe(retried.pm);
    const events = (await (await getStripe()).events.list({ type: "setup_intent.succeeded", limit: 100 })).data;
    expect(events.some((e) => (e.data.object as { id: string }).id === setupIntentId)).toBe(true);

    // Saved by an authenticated setup: the next renewal is charged on it without the customer.
    const invoice = await renew(subscriptionId);
    expect(invoice.status).toBe("paid");
    const charged = await (
      await getStripe()
    ).paymentIntents.retrieve(
      (await (await getStripe()).invoices.retrieve(invoice.id!, { expand: ["payments"] })).payments!.data[0].payment
        .payment_intent as string,
    );
    expect(charged.payment_method).toBe(retried.pm);
  });

  it("9995: declined by the bank, nothing is saved and the shop refuses the SetupIntent; another id or subscription is refused too", async () => {
    const { record } = await subscribed();
    const other = await subscribed();
    const { clientSecret, setupIntentId } = await startCardChange(record);
    const declined = await confirmNewCard(clientSecret, "4000000000009995");
    expect(declined.status).toBe(402);
    expect(declined.body.error).toMatchObject({ type: "card_error", code: "card_declined", decline_code: "insufficient_funds" });
    await expect(completeCardChange(record, setupIntentId, customer)).rejects.toMatchObject({ code: "card_not_set_up" });
    await expect(completeCardChange(other.record, setupIntentId, customer)).rejects.toMatchObject({
      status: 422,
      code: "unknown_setup_intent",
    });
    await expect(completeCardChange(record, "pi_forged", customer)).rejects.toMatchObject({ code: "unknown_setup_intent" });
    expect(await changedEmails(record.id)).toHaveLength(0);
  });
});

describe("a renewal left unpaid, retried on the new card", () => {
  it("is paid at once: its order is made once, the subscription is active; the page's summary and the email say so", async () => {
    const { record, subscriptionId, invoiceId } = await pastDue();
    const { clientSecret, setupIntentId } = await startCardChange(record);
    await confirmNewCard(clientSecret, CARDS.authFirstPayment);
    await browserAuthenticateSetup(clientSecret, "authorized");
    const done = await withWebhooks(() => completeCardChange(record, setupIntentId, customer));
    expect(done.retry).toEqual({ outcome: "paid", renewalNumber: 1, amountCents: 2590 });
    expect(done.summary).toBe(
      "Carte enregistrée : Visa •••• 3155. Les prochains renouvellements seront prélevés sur cette carte. Le renouvellement n°1 en attente (25,90€) a été réglé avec cette carte.",
    );
    expect((await (await getStripe()).invoices.retrieve(invoiceId)).status).toBe("paid");
    const after = await subscriptionRecord(record.id);
    expect(after).toMatchObject({ status: "active", unpaidInvoiceId: null, renewalCount: 1 });
    // The webhook's invoice.paid came too: still one order for this renewal.
    const renewals = (await subscriptionOrders(record.id)).filter((o) => o.renewalNumber !== null);
    expect(renewals).toHaveLength(1);
    expect(renewals[0]).toMatchObject({ renewalNumber: 1, totalCents: 2590, paymentStatus: "paid" });

    // The next renewal is charged on the new card.
    const next = await renew(subscriptionId);
    expect(next.status).toBe("paid");
    expect((await subscriptionOrders(record.id)).filter((o) => o.renewalNumber !== null)).toHaveLength(2);
  });

  it("still failing on the new card: the subscription stays past due, and the bank's reason is said in French", async () => {
    const { record } = await pastDue();
    const { clientSecret, setupIntentId } = await startCardChange(record);
    const confirmed = await confirmNewCard(clientSecret, FAILING_RENEWAL_CARD);
    expect(confirmed.body.status).toBe("succeeded");
    const done = await withWebhooks(() => completeCardChange(record, setupIntentId, customer));
    expect(done.retry).toMatchObject({ outcome: "failed", renewalNumber: 1, reason: "paiement refusé par la banque" });
    expect(done.summary).toContain(
      "Le renouvellement n°1 en attente (25,90€) n'a pas pu être prélevé sur cette carte (paiement refusé par la banque) : réglez-le avec une autre carte.",
    );
    expect(await subscriptionRecord(record.id)).toMatchObject({ status: "past_due", cardLast4: "0341" });
  });
});

describe("the setup_intent.succeeded webhook", () => {
  async function changeLines(recordId: number) {
    return (await getAdminSubscription(recordId))!.timeline.filter((e) => e.kind === "change").map((e) => e.label);
  }
  async function invoicePaidEvents(invoiceId: string) {
    const events = (await (await getStripe()).events.list({ type: "invoice.paid", limit: 100 })).data;
    return events.filter((e) => (e.data.object as { id: string }).id === invoiceId);
  }
  const saved =
    "Par le client : carte de paiement changée (Visa •••• 3155). Le renouvellement n°1 en attente (25,90€) a été réglé avec cette carte.";

  it("saves the card of a customer who closed the page after the bank's challenge; the page's post then does nothing twice", async () => {
    const { record, subscriptionId, invoiceId } = await pastDue();
    const { clientSecret, setupIntentId } = await startCardChange(record);
    const confirmed = await confirmNewCard(clientSecret, CARDS.authFirstPayment);
    expect(confirmed.body.status).toBe("requires_action");
    // Authorized at the bank, then the page is closed: only Stripe's webhook tells the shop.
    await withWebhooks(() => browserAuthenticateSetup(clientSecret, "authorized"));

    const stripe = await getStripe();
    expect((await stripe.subscriptions.retrieve(subscriptionId)).default_payment_method).toBe(confirmed.pm);
    expect(await subscriptionRecord(record.id)).toMatchObject({
      status: "active",
      unpaidInvoiceId: null,
      cardBrand: "visa",
      cardLast4: "3155",
    });
    expect((await stripe.invoices.retrieve(invoiceId)).status).toBe("paid");
    expect(await changeLines(record.id)).toEqual([saved]);
    const [email] = await changedEmails(record.id);
    expect(email.payload).toMatchObject({ action: "change_card", summary: expect.stringContaining("Visa •••• 3155") });

    // The page's post comes after all (the same tab, reloaded): nothing twice, and it says what was done.
    const page = await withWebhooks(() => completeCardChange(record, setupIntentId, customer));
    expect(page).toMatchObject({ changed: false, card: "Visa •••• 3155" });
    expect(page.summary).toContain("a été réglé avec cette carte");
    // Stripe sends the event again: recorded once.
    const [event] = (await stripe.events.list({ type: "setup_intent.succeeded", limit: 100 })).data.filter(
      (e) => (e.data.object as { id: string }).id === setupIntentId,
    );
    expect(await (await replayEvent(emulator, event)).json()).toMatchObject({ outcome: "duplicate" });

    expect(await changedEmails(record.id)).toHaveLength(1);
    expect(await changeLines(record.id)).toEqual([saved]);
    expect(await invoicePaidEvents(invoiceId)).toHaveLength(1);
    expect((await subscriptionOrders(record.id)).filter((o) => o.renewalNumber !== null)).toHaveLength(1);
  });

  it("the page's post and the webhook at the same time: one email, one history line, the unpaid renewal paid once", async () => {
    const { record, invoiceId } = await pastDue();
    const { clientSecret, setupIntentId } = await startCardChange(record);
    await confirmNewCard(clientSecret, CARDS.authFirstPayment);
    const page = await withWebhooks(async () => {
      await browserAuthenticateSetup(clientSecret, "authorized");
      // The browser posts its answer while the webhook is on its way.
      return await completeCardChange(record, setupIntentId, customer);
    });
    expect(page.card).toBe("Visa •••• 3155");
    expect(await changedEmails(record.id)).toHaveLength(1);
    expect(await changeLines(record.id)).toEqual([saved]);
    expect(await invoicePaidEvents(invoiceId)).toHaveLength(1);
    expect((await subscriptionOrders(record.id)).filter((o) => o.renewalNumber !== null)).toHaveLength(1);
    expect(await subscriptionRecord(record.id)).toMatchObject({ status: "active", cardLast4: "3155" });
  });

  it("leaves alone a SetupIntent that is not a card change", async () => {
    const { record } = await subscribed();
    const stripe = await getStripe();
    const sub = await stripe.subscriptions.retrieve(record.stripeSubscriptionId);
    const other = await stripe.setupIntents.create({ customer: sub.customer as string, usage: "off_session" });
    await withWebhooks(() => confirmNewCard(other.client_secret!, CARDS.success));
    expect((await stripe.subscriptions.retrieve(record.stripeSubscriptionId)).default_payment_method).toBe(
      sub.default_payment_method,
    );
    expect(await changedEmails(record.id)).toHaveLength(0);
  });
});

describe("the back office", () => {
  it("shows the card and sends the subscriber their page's link to change it (it never takes a card itself)", async () => {
    const { record } = await subscribed();
    expect((await getAdminSubscription(record.id))!.card).toBeNull();
    expect(await sendManagementLinkAsAdmin(record.id)).toBe(true);
    const links = (await getDb().select().from(emails).where(eq(emails.kind, "subscription_link"))).filter(
      (e) => (e.payload as { subscriptionId?: number } | null)?.subscriptionId === record.id,
    );
    expect(links).toHaveLength(1);
    expect(links[0].toAddress).toBe(record.customerEmail);
    await expect(sendManagementLinkAsAdmin(999_999)).rejects.toMatchObject({ status: 404 });
  });
});
