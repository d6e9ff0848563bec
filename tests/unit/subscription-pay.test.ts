import { asResponses } from "../helpers/route-response";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { confirmationErrorNotice } from "~/lib/payment-messages";
import { loader as pageLoaderRoute } from "~/routes/abonnement.payer";
import { invoicePayKey } from "~/services/invoice-link.server";
import { cancelSubscriptionRecord } from "~/services/subscriptions/cancel.server";
import type { InvoicePaymentView } from "~/services/subscriptions/invoice-payment.server";
import type { StripeEmulatorHandle } from "~/services/stripe.server";
import { getRequest } from "../helpers/requests";
import {
  browserConfirm,
  browserCreatePaymentMethod,
  CARDS,
  routeArgs,
  startTestEmulator,
  stopTestEmulator,
} from "./payments-fixtures";
import { emailsOf, subscriptionDriver, subscriptionOrders, subscriptionRecord } from "./subscription-fixtures";

const loader = asResponses(pageLoaderRoute);

let emulator: StripeEmulatorHandle;
const { subscribed, renew, switchToFailingCard, withWebhooks } = subscriptionDriver(() => emulator);

beforeAll(async () => {
  emulator = await startTestEmulator();
});
afterAll(async () => {
  await stopTestEmulator();
});

async function openPayPage(invoiceId: string, key: string) {
  const response = await loader(
    routeArgs(getRequest(`/abonnement/payer?facture=${encodeURIComponent(invoiceId)}&cle=${encodeURIComponent(key)}`)),
  );
  const body = (await response.json()) as { view: InvoicePaymentView | null; unavailable: string | null };
  return { response, view: body.view };
}

/** A subscription whose first renewal failed (its card's charges fail): past due, with the invoice to pay. */
async function failedRenewal() {
  const subscription = await subscribed();
  await switchToFailingCard(subscription.subscriptionId);
  const invoice = await renew(subscription.subscriptionId);
  expect(invoice.status).toBe("open");
  expect(await subscriptionRecord(subscription.record.id)).toMatchObject({ status: "past_due", unpaidInvoiceId: invoice.id });
  return { ...subscription, invoiceId: invoice.id! };
}

describe("paying a failed renewal (/abonnement/payer)", () => {
  it("shows the amount and what it pays; paid with another card, the webhook makes one renewal order and the subscription is active again", async () => {
    const { orderId, record, invoiceId } = await failedRenewal();
    const { response, view } = await openPayPage(invoiceId, invoicePayKey(invoiceId));
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    expect(response.headers.get("Referrer-Policy")).toBe("no-referrer");
    expect(view).toMatchObject({
      kind: "payable",
      invoiceId,
      amountCents: 2590,
      packName: "Masque Hydrogel au Collagène – 6 masques + 2 offerts",
      renewalNumber: 1,
      customerEmail: "camille.martin@example.fr",
      billing: { firstName: "Camille", lastName: "Martin", postalCode: "75011" },
    });
    expect(view?.kind === "payable" && view.subscriptionPath).toMatch(
      new RegExp(`^/mon-abonnement\\?id=${record.id}&expire=\\d+&cle=`),
    );
    const clientSecret = view?.kind === "payable" ? view.clientSecret : "";
    expect(clientSecret).toMatch(/^pi_.+_secret_.+$/);

    // A declined card first: the checkout's message, nothing paid, no order.
    const declined = await browserCreatePaymentMethod(CARDS.declined);
    const refused = await withWebhooks(() => browserConfirm(clientSecret, declined));
    expect(refused.status).toBe(402);
    expect(confirmationErrorNotice(refused.body.error).title).toBe("Carte refusée");
    expect((await subscriptionOrders(record.id)).filter((o) => o.renewalNumber !== null)).toHaveLength(0);

    // Then a good card, as the browser does with Stripe.js: the order comes from invoice.paid.
    const good = await browserCreatePaymentMethod(CARDS.success);
    const paid = await withWebhooks(() => browserConfirm(clientSecret, good));
    expect(paid.body.status).toBe("succeeded");
    expect(await subscriptionRecord(record.id)).toMatchObject({ status: "active", unpaidInvoiceId: null, renewalCount: 1 });
    const renewals = (await subscriptionOrders(record.id)).filter((o) => o.renewalNumber !== null);
    expect(renewals).toMatchObject([{ stripeInvoiceId: invoiceId, renewalNumber: 1, paymentStatus: "paid", totalCents: 2590 }]);
    expect(await emailsOf("renewal_receipt", renewals[0].id)).toHaveLength(1);
    expect(await emailsOf("renewal_payment_failed", orderId)).toHaveLength(1);

    // The link again: already paid, nothing to pay.
    const after = await openPayPage(invoiceId, invoicePayKey(invoiceId));
    expect(after.response.status).toBe(200);
    expect(after.view).toMatchObject({ kind: "paid", amountCents: 2590 });
  });

  it("answers a wrong key, another invoice's key or an unknown invoice with a neutral 404", async () => {
    const { invoiceId } = await failedRenewal();
    const cases: Array<[string, string]> = [
      [invoiceId, "A".repeat(43)],
      [invoiceId, ""],
      [invoiceId, invoicePayKey("in_other")],
      ["in_unknown123", invoicePayKey("in_unknown123")],
      ["not-an-invoice", invoicePayKey("not-an-invoice")],
    ];
    for (const [id, key] of cases) {
      const { response, view } = await openPayPage(id, key);
      expect(response.status, `${id} ${key}`).toBe(404);
      expect(view).toEqual({ kind: "not_found" });
    }
  });

  it("no longer offers to pay once the subscription is cancelled", async () => {
    const { record, invoiceId } = await failedRenewal();
    await withWebhooks(async () => cancelSubscriptionRecord(await subscriptionRecord(record.id)));
    expect((await subscriptionRecord(record.id)).status).toBe("canceled");
    const { response, view } = await openPayPage(invoiceId, invoicePayKey(invoiceId));
    expect(response.status).toBe(200);
    expect(view).toMatchObject({ kind: "closed", invoiceId });
  });
});
