import { asResponses } from "../helpers/route-response";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { confirmationErrorNotice } from "~/lib/payment-messages";
import { createHmac } from "node:crypto";
import { getConfig } from "~/config.server";
import { action as pageActionRoute, loader as pageLoaderRoute } from "~/routes/abonnement.payer";
import { checkInvoicePayLink, invoicePayQuery, INVOICE_PAY_LINK_DAYS } from "~/services/invoice-link.server";
import { resetAllRateLimits } from "~/services/limits.server";
import { cancelSubscriptionRecord } from "~/services/subscriptions/cancel.server";
import type { InvoicePaymentView } from "~/services/subscriptions/invoice-payment.server";
import type { StripeEmulatorHandle } from "~/services/stripe.server";
import { formRequest, fromAddress, getRequest } from "../helpers/requests";
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
const action = asResponses(pageActionRoute);
const DAY_MS = 86_400_000;

let emulator: StripeEmulatorHandle;
const { subscribed, renew, switchToFailingCard, withWebhooks } = subscriptionDriver(() => emulator);

beforeAll(async () => {
  emulator = await startTestEmulator();
});
afterAll(async () => {
  await stopTestEmulator();
});

/** The key of a pay link as the shop made them before their expiry was signed (`invoice-pay:<id>`): the links already sent. */
function legacyKey(invoiceId: string) {
  return createHmac("sha256", getConfig().sessionSecrets[0]).update(`invoice-pay:${invoiceId}`, "utf8").digest("base64url");
}

function legacyQuery(invoiceId: string) {
  return `facture=${encodeURIComponent(invoiceId)}&cle=${encodeURIComponent(legacyKey(invoiceId))}`;
}

async function openPayPage(query: string) {
  const response = await loader(routeArgs(getRequest(`/abonnement/payer?${query}`)));
  const text = await response.text();
  const body = JSON.parse(text) as { view: InvoicePaymentView | null; unavailable: string | null };
  return { response, view: body.view, text };
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
    const { response, view, text } = await openPayPage(invoicePayQuery(invoiceId));
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    // It pays its invoice, and leads nowhere else: no link to the subscription's page.
    expect(text).not.toContain("/mon-abonnement");
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
    const after = await openPayPage(invoicePayQuery(invoiceId));
    expect(after.response.status).toBe(200);
    expect(after.view).toEqual({ kind: "paid", invoiceId, amountCents: 2590 });
    expect(after.text).not.toContain("/mon-abonnement");
    // A legacy link (no expiry) too: paid, nothing to pay, no way to the subscription's page.
    const legacy = await openPayPage(legacyQuery(invoiceId));
    expect(legacy.view).toEqual({ kind: "paid", invoiceId, amountCents: 2590 });
    expect(legacy.text).not.toContain("/mon-abonnement");
  });

  it("answers a wrong key, another invoice's key or an unknown invoice with a neutral 404", async () => {
    const { invoiceId } = await failedRenewal();
    const good = new URLSearchParams(invoicePayQuery(invoiceId));
    const other = new URLSearchParams(invoicePayQuery("in_other"));
    const cases = [
      `facture=${invoiceId}&cle=${"A".repeat(43)}`,
      `facture=${invoiceId}&cle=`,
      `facture=${invoiceId}&expire=${good.get("expire")}&cle=${"A".repeat(43)}`,
      // The expiry moved: the key no longer matches.
      `facture=${invoiceId}&expire=${Number(good.get("expire")) + 86_400}&cle=${good.get("cle")}`,
      // Another invoice's key, new or legacy.
      `facture=${invoiceId}&expire=${other.get("expire")}&cle=${other.get("cle")}`,
      `facture=${invoiceId}&cle=${legacyKey("in_other")}`,
      // A legacy key with an expiry added.
      `facture=${invoiceId}&expire=${good.get("expire")}&cle=${legacyKey(invoiceId)}`,
      invoicePayQuery("in_unknown123"),
      `facture=not-an-invoice&cle=${legacyKey("not-an-invoice")}`,
    ];
    for (const query of cases) {
      const { response, view } = await openPayPage(query);
      expect(response.status, query).toBe(404);
      expect(view).toEqual({ kind: "not_found" });
    }
  });

  it("no longer offers to pay once the subscription is cancelled", async () => {
    const { record, invoiceId } = await failedRenewal();
    await withWebhooks(async () => cancelSubscriptionRecord(await subscriptionRecord(record.id)));
    expect((await subscriptionRecord(record.id)).status).toBe("canceled");
    for (const query of [invoicePayQuery(invoiceId), legacyQuery(invoiceId)]) {
      const { response, view, text } = await openPayPage(query);
      expect(response.status).toBe(200);
      expect(view).toEqual({ kind: "closed", invoiceId });
      expect(text).not.toContain("/mon-abonnement");
    }
  });
});

describe("the pay link's lifetime", () => {
  it("carries a signed expiry of 30 days; a legacy link without one still pays its open invoice", async () => {
    const { invoiceId } = await failedRenewal();
    const now = new Date();
    const params = new URLSearchParams(invoicePayQuery(invoiceId, now));
    expect(Number(params.get("expire"))).toBe(Math.floor(now.getTime() / 1000) + INVOICE_PAY_LINK_DAYS * 86_400);
    expect(INVOICE_PAY_LINK_DAYS).toBe(30);
    expect(checkInvoicePayLink(params, new Date(now.getTime() + 29 * DAY_MS))).toEqual({ ok: true, invoiceId, legacy: false });
    expect(checkInvoicePayLink(params, new Date(now.getTime() + 31 * DAY_MS))).toEqual({
      ok: false,
      reason: "expired",
      invoiceId,
    });

    const legacy = await openPayPage(legacyQuery(invoiceId));
    expect(legacy.response.status).toBe(200);
    expect(legacy.view).toMatchObject({ kind: "payable", invoiceId, amountCents: 2590 });
  });

  it("expired: says so, reads nothing, shows no subscription link, and « Recevoir un nouveau lien » emails the subscription's address", async () => {
    await resetAllRateLimits();
    const { orderId, invoiceId, record } = await failedRenewal();
    const query = invoicePayQuery(invoiceId, new Date(Date.now() - 31 * DAY_MS));
    const { response, view, text } = await openPayPage(query);
    expect(response.status).toBe(200);
    expect(view).toEqual({ kind: "expired", invoiceId });
    expect(text).not.toContain("/mon-abonnement");

    const before = await emailsOf("subscription_link", orderId);
    const asked = await action(
      routeArgs(formRequest(`/abonnement/payer?${query}`, { intent: "manage-link" }), {}, fromAddress("10.40.0.1")),
    );
    expect(asked.status).toBe(302);
    expect(asked.headers.get("Location")).toBe(`/abonnement/payer?${query}`);
    const sent = await emailsOf("subscription_link", orderId);
    expect(sent).toHaveLength(before.length + 1);
    expect(sent.at(-1)).toMatchObject({ toAddress: record.customerEmail, payload: { subscriptionId: record.id } });

    // A forged pay link sends nothing, and answers the same.
    const forged = `facture=${invoiceId}&expire=${new URLSearchParams(query).get("expire")}&cle=${"A".repeat(43)}`;
    const refused = await action(
      routeArgs(formRequest(`/abonnement/payer?${forged}`, { intent: "manage-link" }), {}, fromAddress("10.40.0.2")),
    );
    expect(refused.status).toBe(302);
    expect(await emailsOf("subscription_link", orderId)).toHaveLength(before.length + 1);
  });
});
