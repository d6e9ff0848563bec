import { asResponses } from "../helpers/route-response";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { action as pageActionRoute, loader as pageLoaderRoute } from "~/routes/mon-abonnement";
import { loader as confirmationLoaderRoute } from "~/routes/order-confirmation.$id";
import type { OrderSubscriptionView } from "~/services/subscriptions/confirmation.server";
import { renderEmail } from "~/services/email/render.server";
import type { SubscriptionPageView } from "~/services/subscriptions/customer-page.server";
import { getStripe, type StripeEmulatorHandle } from "~/services/stripe.server";
import { subscriptionLink, subscriptionLinkQuery } from "~/services/subscription-link.server";
import { requestWithdrawal } from "~/services/withdrawals.server";
import { getRequest, formRequest } from "../helpers/requests";
import { getOrder, routeArgs, startTestEmulator, stopTestEmulator, TEST_ORDER_TOKEN } from "./payments-fixtures";
import { emailsOf, subscriptionDriver, subscriptionOrders, subscriptionRecord } from "./subscription-fixtures";

const action = asResponses(pageActionRoute);
const loader = asResponses(pageLoaderRoute);
const confirmationLoader = asResponses(confirmationLoaderRoute);

let emulator: StripeEmulatorHandle;
const { subscribed, renew, switchToFailingCard } = subscriptionDriver(() => emulator);

beforeAll(async () => {
  emulator = await startTestEmulator();
});
afterAll(async () => {
  await stopTestEmulator();
});

const DAY_MS = 86_400_000;

function pagePath(id: number, now = new Date()) {
  return `/mon-abonnement?${subscriptionLinkQuery(subscriptionLink(id, now))}`;
}

async function openPage(path: string) {
  const response = await loader(routeArgs(getRequest(path)));
  const body = (await response.json()) as { problem: "invalid" | "expired" | null; subscription: SubscriptionPageView | null };
  return { response, body };
}

function post(path: string, fields: Record<string, string>) {
  return action(routeArgs(formRequest(path, fields)));
}

const NEW_ADDRESS = { firstName: "Léa", lastName: "Martin", address: "4 avenue Jean Jaurès", postalCode: "69007", city: "Lyon" };

describe("the subscription's private page", () => {
  it("shows the subscription to the holder of its link, privately, with the first order and the renewals", async () => {
    const { orderId, subscriptionId, record } = await subscribed();
    await renew(subscriptionId);
    const { response, body } = await openPage(pagePath(record.id));
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    expect(response.headers.get("Referrer-Policy")).toBe("same-origin");

    const view = body.subscription!;
    const updated = await subscriptionRecord(record.id);
    expect(view).toMatchObject({
      id: record.id,
      state: "active",
      variantName: "6 masques + 2 offerts",
      amountCents: 2590,
      nextRenewalAt: updated.currentPeriodEnd,
      address: { firstName: "Camille", lastName: "Martin", address: "12 rue des Lilas", postalCode: "75011", city: "Paris" },
      payPath: null,
      canCancel: true,
    });
    const renewal = (await subscriptionOrders(record.id)).find((o) => o.renewalNumber === 1)!;
    expect(view.orders.map((o) => [o.id, o.renewalNumber, o.totalCents, o.status])).toEqual([
      [orderId, null, 2590, "pending"],
      [renewal.id, 1, 2590, "pending"],
    ]);
    expect(view.orders[1].trackingPath).toMatch(new RegExp(`^/track-order\\?id=${renewal.id}&cle=[A-Za-z0-9_-]{43}$`));
    // Each order with its invoice, opened with the order's own key (no account), and where it stands.
    for (const order of view.orders) {
      expect(order.invoiceNumber).toMatch(/^F\d{4}-\d{6}$/);
      expect(order.invoicePath).toMatch(new RegExp(`^/facture/${order.id}\\?cle=[A-Za-z0-9_-]{43}$`));
      expect(order.progressLabel).toBe("Commande reçue");
    }
    expect(view.unpaidRenewal).toBeNull();

    // The renewal withdrawn by its customer: its one final state, never « Commande reçue ».
    const customerEmail = (await getOrder(renewal.id))!.customerEmail!;
    expect((await requestWithdrawal({ orderId: renewal.id, email: customerEmail })).outcome).toBe("recorded");
    const after = (await openPage(pagePath(record.id))).body.subscription!;
    expect(after.orders.map((o) => o.progressLabel)).toEqual(["Commande reçue", "Rétractation enregistrée"]);
  });

  it("answers a forged, altered or unknown link with a neutral 404, and an expired one with 410, showing nothing", async () => {
    const { record } = await subscribed();
    const good = new URL(`http://x${pagePath(record.id)}`).searchParams;
    const variants = [
      `/mon-abonnement?id=${record.id}`,
      `/mon-abonnement?id=${record.id + 1}&expire=${good.get("expire")}&cle=${good.get("cle")}`,
      `/mon-abonnement?id=${record.id}&expire=${Number(good.get("expire")) + 1}&cle=${good.get("cle")}`,
      `/mon-abonnement?id=${record.id}&expire=${good.get("expire")}&cle=${"A".repeat(43)}`,
      pagePath(999_999), // signed, but no such subscription
    ];
    for (const path of variants) {
      const { response, body } = await openPage(path);
      expect(response.status, path).toBe(404);
      expect(body).toEqual({ problem: "invalid", subscription: null });
    }
    // No link at all: the page that sends a new one.
    expect((await openPage("/mon-abonnement")).body).toEqual({ problem: "missing", subscription: null });
    const expired = await openPage(pagePath(record.id, new Date(Date.now() - 8 * DAY_MS)));
    expect(expired.response.status).toBe(410);
    expect(expired.body).toEqual({ problem: "expired", subscription: null });
    expect(expired.response.headers.get("Cache-Control")).toBe("private, no-store");

    // Nor can a bad link change anything.
    const refused = await post(`/mon-abonnement?id=${record.id}&expire=${good.get("expire")}&cle=${"A".repeat(43)}`, {
      intent: "cancel",
    });
    expect(refused.status).toBe(404);
    expect((await subscriptionRecord(record.id)).status).toBe("active");
  });

  it("delivers the next renewal to the new address, while the orders already made keep theirs", async () => {
    const { orderId, subscriptionId, record } = await subscribed();
    await renew(subscriptionId);
    const path = pagePath(record.id);

    const invalid = await post(path, { intent: "address", ...NEW_ADDRESS, postalCode: "69" });
    expect(invalid.status).toBe(400);
    expect(JSON.stringify(await invalid.json())).toContain("Le code postal doit contenir au moins 5 caractères");
    expect((await subscriptionRecord(record.id)).shippingCity).toBe("Paris");

    const saved = await post(path, { intent: "address", ...NEW_ADDRESS });
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toBe(path);
    expect(saved.headers.get("Set-Cookie")).toContain("toast-session");
    expect(await subscriptionRecord(record.id)).toMatchObject({
      shippingName: "Léa Martin",
      shippingAddress: "4 avenue Jean Jaurès",
      shippingPostalCode: "69007",
      shippingCity: "Lyon",
      shippingCountry: "France",
    });
    expect((await openPage(path)).body.subscription!.address).toMatchObject({
      firstName: "Léa",
      address: "4 avenue Jean Jaurès",
      city: "Lyon",
    });

    await renew(subscriptionId);
    const made = await subscriptionOrders(record.id);
    const second = made.find((o) => o.renewalNumber === 2)!;
    expect(second).toMatchObject({
      customerName: "Léa Martin",
      shippingAddress: "4 avenue Jean Jaurès",
      shippingPostalCode: "69007",
      shippingCity: "Lyon",
    });
    // The orders already made keep their own address.
    expect(made.find((o) => o.renewalNumber === 1)).toMatchObject({ shippingAddress: "12 rue des Lilas", shippingCity: "Paris" });
    expect(await getOrder(orderId)).toMatchObject({ shippingAddress: "12 rue des Lilas", shippingCity: "Paris" });
  });

  it("cancels from the page: ended at Stripe, one email, and a second click changes nothing", async () => {
    const { orderId, subscriptionId, record } = await subscribed();
    const path = pagePath(record.id);

    const first = await post(path, { intent: "cancel" });
    expect(first.status).toBe(302);
    // Back to the page's top, where its state says it ended (a phone was on the cancel button, at the bottom).
    expect(first.headers.get("Location")).toBe(`${path}#etat`);
    const ended = await subscriptionRecord(record.id);
    expect(ended.status).toBe("canceled");
    expect(ended.canceledAt).not.toBeNull();
    expect((await getOrder(orderId)).subscriptionCanceledAt).toBe(ended.canceledAt);
    expect((await (await getStripe()).subscriptions.retrieve(subscriptionId)).status).toBe("canceled");
    expect(await emailsOf("subscription_canceled", orderId)).toHaveLength(1);
    expect((await emailsOf("subscription_canceled", orderId))[0].payload).toMatchObject({ canceledBy: "customer" });

    const again = await post(path, { intent: "cancel" });
    expect(again.status).toBe(302);
    expect(await emailsOf("subscription_canceled", orderId)).toHaveLength(1);
    expect((await subscriptionRecord(record.id)).canceledAt).toBe(ended.canceledAt);

    const { body } = await openPage(path);
    expect(body.subscription).toMatchObject({
      state: "canceled",
      endsAt: ended.canceledAt,
      nextRenewalAt: null,
      canCancel: false,
      canChangeAddress: false,
    });
    // An ended subscription has no next delivery to move.
    const refused = await post(path, { intent: "address", ...NEW_ADDRESS });
    expect(refused.status).toBe(409);
    expect((await subscriptionRecord(record.id)).shippingCity).toBe("Paris");
  });

  it("offers to pay a failed renewal, with the invoice's signed pay link", async () => {
    const { subscriptionId, record } = await subscribed();
    await switchToFailingCard(subscriptionId);
    const invoice = await renew(subscriptionId);
    expect(invoice.status).toBe("open");
    const { body } = await openPage(pagePath(record.id));
    expect(body.subscription!.state).toBe("past_due");
    expect(body.subscription!.payPath).toMatch(
      new RegExp(`^/abonnement/payer\\?facture=${invoice.id}&expire=\\d+&cle=[A-Za-z0-9_-]{43}$`),
    );
    // What is owed, never the unpaid renewal's date announced as a renewal to come.
    const dueAt = (await subscriptionRecord(record.id)).currentPeriodEnd!;
    expect(body.subscription).toMatchObject({
      nextRenewalAt: null,
      unpaidRenewal: {
        renewalNumber: 1,
        dueAt,
        amountCents: 2590,
        nextAfterPaymentAt: new Date(new Date(dueAt).getTime() + 28 * 86_400_000).toISOString(),
      },
    });
  });

  it("is linked from every subscription email, and the link opens this subscription's page", async () => {
    const { orderId, subscriptionId, record } = await subscribed();
    const paidRenewal = await renew(subscriptionId);
    await switchToFailingCard(subscriptionId);
    await renew(subscriptionId);
    await post(pagePath(record.id), { intent: "cancel" });
    const renewalOrder = (await subscriptionOrders(record.id)).find((o) => o.stripeInvoiceId === paidRenewal.id)!;
    const sent = [
      ...(await emailsOf("order_confirmation", orderId)),
      ...(await emailsOf("renewal_receipt", renewalOrder.id)),
      ...(await emailsOf("renewal_payment_failed", orderId)),
      ...(await emailsOf("subscription_canceled", orderId)),
    ];
    expect(sent.map((e) => e.kind)).toEqual([
      "order_confirmation",
      "renewal_receipt",
      "renewal_payment_failed",
      "subscription_canceled",
    ]);
    for (const email of sent) {
      const rendered = await renderEmail(email);
      const url = rendered.text.match(/https?:\/\/\S+\/mon-abonnement\?\S+/)?.[0];
      expect(url, email.kind).toBeDefined();
      expect(rendered.html).toContain(url!.replaceAll("&", "&amp;"));
      const link = new URL(url!);
      expect(link.searchParams.get("id")).toBe(String(record.id));
      const { response } = await openPage(`${link.pathname}${link.search}`);
      expect(response.status, email.kind).toBe(200);
    }
  });
});

describe("the order confirmation page of a subscription", () => {
  async function confirmation(orderId: number, headers: Record<string, string> = {}) {
    const response = await confirmationLoader(
      routeArgs(getRequest(`/order-confirmation/${orderId}`, headers), { id: String(orderId) }),
    );
    return ((await response.json()) as { subscription: OrderSubscriptionView | null }).subscription;
  }

  it("says it is active, what it charges, when next, and where to cancel; the private page's link for the owner only", async () => {
    const { orderId, record } = await subscribed();
    const mine = await confirmation(orderId, { "X-Order-Token": TEST_ORDER_TOKEN });
    expect(mine).toMatchObject({
      state: "active",
      amountCents: record.amountCents,
      nextChargeAt: record.currentPeriodEnd,
      cancelPath: `/abonnement/resilier?commande=${orderId}`,
      confirmationEmail: { to: (await getOrder(orderId)).customerEmail },
    });
    // Day 30 after the payment.
    const days = (new Date(mine!.nextChargeAt!).getTime() - new Date((await getOrder(orderId)).paidAt!).getTime()) / DAY_MS;
    expect(Math.round(days)).toBe(30);
    const opened = await openPage(mine!.managePath!);
    expect(opened.body.subscription).toMatchObject({ id: record.id, state: "active" });

    // The order number alone: no private link, no email address.
    const anyone = await confirmation(orderId);
    expect(anyone).toMatchObject({ state: "active", managePath: null, cancelPath: `/abonnement/resilier?commande=${orderId}` });
    expect(anyone!.confirmationEmail?.to ?? null).toBeNull();

    // Cancelled: no next charge, the date it ended.
    await post(pagePath(record.id), { intent: "cancel" });
    expect(await confirmation(orderId, { "X-Order-Token": TEST_ORDER_TOKEN })).toMatchObject({
      state: "canceled",
      nextChargeAt: null,
      endsAt: expect.any(String),
    });
  });
});
