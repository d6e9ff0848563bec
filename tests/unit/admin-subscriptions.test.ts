import { asResponses } from "../helpers/route-response";
import { and, eq, isNotNull } from "drizzle-orm";
import { getToast } from "remix-toast";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { emails, orders, subscriptions } from "~/db/schema";
import { action as createSubscriptionAction } from "~/routes/api.create-subscription";
import { loader as apiDetailLoader } from "~/routes/api.admin.subscriptions.$id";
import { action as apiCancelAction } from "~/routes/api.admin.subscriptions.$id.cancel";
import { loader as apiListLoader } from "~/routes/api.admin.subscriptions";
import { loader as apiOrdersLoader } from "~/routes/api.orders";
import { action as pageActionRoute, loader as pageLoaderRoute } from "~/routes/admin.subscriptions.$id";
import { loader as listPageLoaderRoute } from "~/routes/admin.subscriptions._index";
import { readSubscriptionFilters } from "~/schemas/admin-subscription";
import { getAdminSubscription, listAdminSubscriptions } from "~/services/subscriptions/admin-view.server";
import { cancelSubscriptionAsAdmin, undoScheduledCancellation } from "~/services/subscriptions/admin-cancel.server";
import { awaitRenewalOutcome, simulateNextRenewal, subscriptionTestClock } from "~/services/subscriptions/test-clock.server";
import { getStripe } from "~/services/stripe.server";
import { formRequest, getRequest, jsonRequest } from "../helpers/requests";
import { adminCookie, cookieFrom, insertOrder } from "./admin-helpers";
import { browserPay, CARDS, createTestOrder, ownerRequest, routeArgs } from "./payments-fixtures";
import { setUpTestEmulator } from "./emulator-fixtures";

const pageAction = asResponses(pageActionRoute);
const pageLoader = asResponses(pageLoaderRoute);
const listPageLoader = asResponses(listPageLoaderRoute);

const { withWebhooks } = setUpTestEmulator();

/** A subscription taken out as a shopper does (card 4242), its webhooks delivered: its record. */
async function subscribed(card: string = CARDS.success) {
  const orderId = await createTestOrder();
  const response = await createSubscriptionAction(routeArgs(ownerRequest("/api/create-subscription", { orderId })));
  const created = (await response.json()) as { subscriptionId: string; clientSecret: string };
  await withWebhooks(() => browserPay(created.clientSecret, card));
  const record = (
    await getDb().select().from(subscriptions).where(eq(subscriptions.stripeSubscriptionId, created.subscriptionId)).limit(1)
  )[0]!;
  expect(record).toMatchObject({ status: "active", firstOrderId: orderId });
  return record;
}

async function emailsOfKind(kind: "subscription_canceled" | "renewal_receipt", orderIds: number[]) {
  return (await getDb().select().from(emails).where(eq(emails.kind, kind))).filter(
    (e) => e.orderId !== null && orderIds.includes(e.orderId),
  );
}

let nextFirstOrder = 0;

/** A subscription record written directly (the list's filters need no Stripe). */
async function insertSubscription(values: Partial<typeof subscriptions.$inferInsert>) {
  const firstOrderId = await insertOrder({
    isSubscription: true,
    paymentStatus: "paid",
    customerEmail: values.customerEmail ?? null,
  });
  return (
    await getDb()
      .insert(subscriptions)
      .values({
        stripeSubscriptionId: `sub_filter_${++nextFirstOrder}_${Math.random().toString(36).slice(2)}`,
        amountCents: 2590,
        status: "active",
        firstOrderId,
        ...values,
      })
      .returning()
  )[0].id;
}

async function apiGet(loader: typeof apiListLoader, path: string, params: Record<string, string> = {}) {
  const response = await loader({ request: getRequest(path, { Cookie: await adminCookie() }), params, context: {} });
  return { status: response.status, body: await response.json() };
}

describe("the subscription list's filters", () => {
  const ids: Record<string, number> = {};
  beforeAll(async () => {
    ids.lea = await insertSubscription({
      customerEmail: "lea.dupont@filtre.example",
      customerName: "Léa Dupont",
      packId: 2,
      variantName: "6 masques + 2 offerts",
      amountCents: 2590,
      status: "active",
      startedAt: "2026-03-05T09:00:00.000Z",
      currentPeriodEnd: "2026-04-02T09:00:00.000Z",
      renewalCount: 0,
    });
    ids.marc = await insertSubscription({
      customerEmail: "marc@filtre.example",
      customerName: "Marc Petit",
      packId: 3,
      variantName: "9 masques + 3 offerts",
      amountCents: 3590,
      status: "past_due",
      startedAt: "2026-01-10T09:00:00.000Z",
      currentPeriodEnd: "2026-03-05T09:00:00.000Z",
      renewalCount: 2,
      unpaidInvoiceId: "in_unpaid",
    });
    ids.ines = await insertSubscription({
      customerEmail: "ines@filtre.example",
      customerName: "Inès Moreau",
      packId: 2,
      amountCents: 2590,
      status: "canceled",
      startedAt: "2025-12-01T09:00:00.000Z",
      currentPeriodEnd: "2026-01-26T09:00:00.000Z",
      canceledAt: "2026-01-20T09:00:00.000Z",
      renewalCount: 1,
    });
  });

  const found = async (query: string) => {
    const search = new URLSearchParams(query);
    if (!search.has("q")) search.set("q", "filtre.example");
    const { filters, issues } = readSubscriptionFilters(new URL(`http://localhost/admin/subscriptions?${search}`));
    expect(issues).toEqual([]);
    return (await listAdminSubscriptions(filters)).subscriptions.map((s) => s.id).sort((a, b) => a - b);
  };

  it("filters by status, customer, pack, amount, dates and number of renewals", async () => {
    expect(await found("")).toEqual([ids.lea, ids.marc, ids.ines].sort((a, b) => a - b));
    expect(await found("status=past_due")).toEqual([ids.marc]);
    expect(await found("q=DUPONT")).toEqual([ids.lea]); // the name, any case
    expect(await found("q=marc@filtre")).toEqual([ids.marc]); // the email
    expect(await found("pack=2")).toEqual([ids.lea, ids.ines].sort((a, b) => a - b));
    expect(await found("minAmount=30,00")).toEqual([ids.marc]);
    expect(await found("maxAmount=25.90")).toEqual([ids.lea, ids.ines].sort((a, b) => a - b));
    expect(await found("startedFrom=2026-01-10&startedTo=2026-03-05")).toEqual([ids.lea, ids.marc].sort((a, b) => a - b));
    expect(await found("renewsFrom=2026-04-02&renewsTo=2026-04-02")).toEqual([ids.lea]);
    expect(await found("minRenewals=1")).toEqual([ids.marc, ids.ines].sort((a, b) => a - b));
    expect(await found("minRenewals=1&maxRenewals=1")).toEqual([ids.ines]);
    // A canceled subscription has no next renewal.
    expect((await listAdminSubscriptions({ q: "ines@filtre" })).subscriptions[0]).toMatchObject({
      status: "canceled",
      nextRenewalAt: null,
      pack: "6 masques + 2 offerts",
    });
  });

  it("GET /api/admin/subscriptions applies the same filters, and refuses an unreadable one with French details (400)", async () => {
    const ok = await apiGet(apiListLoader, "/api/admin/subscriptions?q=filtre.example&status=active&pack=2&minAmount=25,90");
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ limit: 50, nextCursor: null });
    expect(ok.body.subscriptions).toMatchObject([
      { id: ids.lea, customerName: "Léa Dupont", amount: "25.90", status: "active", renewalCount: 0 },
    ]);

    const bad = await apiGet(
      apiListLoader,
      "/api/admin/subscriptions?status=paused&startedFrom=05/03/2026&minAmount=beaucoup&minRenewals=-1&pack=9",
    );
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe("Filtres invalides");
    const paths = (bad.body.issues as { path: string; message: string }[]).map((i) => i.path).sort();
    expect(paths).toEqual(["minAmount", "minRenewals", "pack", "startedFrom", "status"]);
    expect(bad.body.issues).toContainEqual({
      path: "startedFrom",
      message: "Date attendue au format AAAA-MM-JJ (ex. 2026-03-05).",
    });

    const reversed = await apiGet(apiListLoader, "/api/admin/subscriptions?minAmount=40&maxAmount=20");
    expect(reversed).toMatchObject({
      status: 400,
      body: { issues: [{ path: "maxAmount", message: "Le montant minimum dépasse le montant maximum." }] },
    });

    const anonymous = await apiListLoader({ request: getRequest("/api/admin/subscriptions"), params: {}, context: {} });
    expect(anonymous.status).toBe(401);
  });

  it("the page keeps the filters it can read and names the one it ignored", () => {
    const { filters, issues } = readSubscriptionFilters(
      new URL("http://localhost/admin/subscriptions?status=active&renewsTo=2026-02-30"),
    );
    expect(filters).toEqual({ status: "active" });
    expect(issues).toEqual([{ path: "renewsTo", message: "Date attendue au format AAAA-MM-JJ (ex. 2026-03-05)." }]);
  });
});

describe("a subscription's detail", () => {
  it("has its facts, address, Stripe ids, orders and a date-sorted timeline (API too)", async () => {
    const record = await subscribed();
    const detail = (await getAdminSubscription(record.id))!;
    expect(detail).toMatchObject({
      id: record.id,
      customer: "Camille Martin",
      email: "camille.martin@example.fr",
      status: "active",
      renewalCount: 0,
      stripeSubscriptionId: record.stripeSubscriptionId,
      stripeCustomerId: expect.stringMatching(/^cus_/),
      shipping: { address: expect.any(String), city: expect.any(String) },
      orders: [{ id: record.firstOrderId, renewalNumber: null, paymentStatus: "paid" }],
    });
    expect(detail.timeline.map((e) => e.kind)).toEqual(expect.arrayContaining(["started", "first_order", "email"]));
    const dates = detail.timeline.map((e) => e.at ?? "");
    expect(dates).toEqual([...dates].sort());

    const api = await apiGet(apiDetailLoader, `/api/admin/subscriptions/${record.id}`, { id: String(record.id) });
    expect(api.status).toBe(200);
    expect(api.body).toMatchObject({
      id: record.id,
      amount: "25.90",
      orders: [{ id: record.firstOrderId, renewalNumber: null, total: "25.90" }],
    });
    expect((await apiGet(apiDetailLoader, "/api/admin/subscriptions/999999", { id: "999999" })).status).toBe(404);
    expect((await apiGet(apiDetailLoader, "/api/admin/subscriptions/abc", { id: "abc" })).status).toBe(400);
  });
});

describe("the admin's cancellations", () => {
  it("now: ended at Stripe and here, one cancellation email; a second time is a 409", async () => {
    const record = await subscribed();
    const stripe = await getStripe();
    await withWebhooks(() => cancelSubscriptionAsAdmin(record.id, { when: "now" }));
    expect((await stripe.subscriptions.retrieve(record.stripeSubscriptionId)).status).toBe("canceled");
    expect(await getAdminSubscription(record.id)).toMatchObject({
      status: "canceled",
      canceledAt: expect.any(String),
      nextRenewalAt: null,
    });
    expect(await emailsOfKind("subscription_canceled", [record.firstOrderId!])).toHaveLength(1);
    expect((await getAdminSubscription(record.id))!.timeline.at(-1)?.kind).toMatch(/canceled|email/);

    await expect(cancelSubscriptionAsAdmin(record.id, { when: "now" })).rejects.toMatchObject({
      status: 409,
      code: "subscription_canceled",
    });
    const response = await apiCancelAction({
      request: jsonRequest(
        `/api/admin/subscriptions/${record.id}/cancel`,
        "POST",
        { when: "now" },
        { Cookie: await adminCookie() },
      ),
      params: { id: String(record.id) },
      context: {},
    });
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({
      error: expect.stringMatching(/^Cet abonnement est déjà résilié le \d{2}\/\d{2}\/\d{4}\.$/),
      code: "subscription_canceled",
    });
    expect(await emailsOfKind("subscription_canceled", [record.firstOrderId!])).toHaveLength(1);
  });

  it("at the end of the period (API): Stripe's cancel_at_period_end, recorded by the webhook, can be undone; then the subscription ends at the next period", async () => {
    const record = await subscribed();
    const stripe = await getStripe();
    const cookie = await adminCookie();
    const bad = await apiCancelAction({
      request: jsonRequest(`/api/admin/subscriptions/${record.id}/cancel`, "POST", { when: "demain" }, { Cookie: cookie }),
      params: { id: String(record.id) },
      context: {},
    });
    expect(bad.status).toBe(422);
    expect((await bad.json()).issues[0]).toMatchObject({ path: "when", message: expect.stringContaining("now") });

    const response = await withWebhooks(() =>
      apiCancelAction({
        request: jsonRequest(`/api/admin/subscriptions/${record.id}/cancel`, "POST", { when: "period_end" }, { Cookie: cookie }),
        params: { id: String(record.id) },
        context: {},
      }),
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id: record.id, status: "active", cancelAtPeriodEnd: true });
    expect((await stripe.subscriptions.retrieve(record.stripeSubscriptionId)).cancel_at_period_end).toBe(true);

    // The webhook alone records it too (as when the change comes from Stripe's dashboard).
    await getDb().update(subscriptions).set({ cancelAtPeriodEnd: false }).where(eq(subscriptions.id, record.id));
    await withWebhooks(async () => {
      await undoScheduledCancellation(record.id).catch(() => undefined); // not planned here any more: refused
      await stripe.subscriptions.update(record.stripeSubscriptionId, { cancel_at_period_end: true });
    });
    expect(await getAdminSubscription(record.id)).toMatchObject({ cancelAtPeriodEnd: true });

    await withWebhooks(() => undoScheduledCancellation(record.id));
    expect(await getAdminSubscription(record.id)).toMatchObject({ cancelAtPeriodEnd: false, status: "active" });
    expect((await stripe.subscriptions.retrieve(record.stripeSubscriptionId)).cancel_at_period_end).toBe(false);
    await expect(undoScheduledCancellation(record.id)).rejects.toMatchObject({ status: 409, code: "no_cancellation_planned" });

    await withWebhooks(() => cancelSubscriptionAsAdmin(record.id, { when: "period_end" }));
    expect(await emailsOfKind("subscription_canceled", [record.firstOrderId!])).toHaveLength(0);
    const simulated = await withWebhooks(() => simulateNextRenewal(record.id, { pollMs: 10 }));
    expect(await awaitRenewalOutcome(simulated, { timeoutMs: 1000 })).toMatchObject({ outcome: "ended" });
    expect((await stripe.subscriptions.retrieve(record.stripeSubscriptionId)).status).toBe("canceled");
    expect(await getAdminSubscription(record.id)).toMatchObject({ status: "canceled", renewalCount: 0 });
    expect(await emailsOfKind("subscription_canceled", [record.firstOrderId!])).toHaveLength(1);
    await expect(simulateNextRenewal(record.id)).rejects.toMatchObject({ status: 409, code: "subscription_canceled" });
  });
});

describe("simulating the next renewal with the test clock", () => {
  it("three times in a row: three paid renewal orders numbered 1, 2, 3, 'Commande reçue', each with its receipt email", async () => {
    const record = await subscribed();
    const clock = await subscriptionTestClock(record.id);
    expect(clock).toMatchObject({ id: expect.stringMatching(/^clock_/), status: "ready" });

    const created: number[] = [];
    for (const expected of [1, 2, 3]) {
      const simulated = await withWebhooks(() => simulateNextRenewal(record.id, { pollMs: 10 }));
      expect(simulated.renewalNumber).toBe(expected);
      const outcome = await awaitRenewalOutcome(simulated, { timeoutMs: 1000 });
      expect(outcome).toMatchObject({ outcome: "order_created", renewalNumber: expected });
      if (outcome.outcome === "order_created") created.push(outcome.orderId);
    }

    const renewals = (
      await getDb()
        .select()
        .from(orders)
        .where(and(eq(orders.subscriptionId, record.id), isNotNull(orders.renewalNumber)))
    ).sort((a, b) => a.renewalNumber! - b.renewalNumber!);
    expect(renewals.map((o) => [o.id, o.renewalNumber, o.paymentStatus, o.status])).toEqual(
      created.map((id, i) => [id, i + 1, "paid", "pending"]),
    );
    expect(await emailsOfKind("renewal_receipt", created)).toHaveLength(3);
    const detail = (await getAdminSubscription(record.id))!;
    expect(detail).toMatchObject({ renewalCount: 3, status: "active" });
    expect(detail.timeline.filter((e) => e.kind === "renewal").map((e) => e.orderId)).toEqual(created);
    // The clock moved past each period: the next renewal is after its time.
    expect(Date.parse(detail.nextRenewalAt!)).toBeGreaterThan(Date.parse((await subscriptionTestClock(record.id))!.frozenTime));

    // The admin order API says which subscription and which renewal an order is.
    const response = await apiOrdersLoader({
      request: getRequest(`/api/orders?q=${created[2]}`, { Cookie: await adminCookie() }),
      params: {},
      context: {},
    });
    expect(await response.json()).toMatchObject({ orders: [{ id: created[2], subscriptionId: record.id, renewalNumber: 3 }] });
  });

  it("refuses a subscription without a clock, or not found, in French", async () => {
    // Taken out before the clocks: a customer without one.
    const stripe = await getStripe();
    await stripe.products.create({ id: "clockless-product", name: "Pack de masques" }).catch(() => undefined);
    const customer = await stripe.customers.create({ email: "ancien@example.fr" });
    const sub = await stripe.subscriptions.create({
      customer: customer.id,
      items: [
        {
          price_data: {
            currency: "eur",
            product: "clockless-product",
            unit_amount: 2590,
            recurring: { interval: "week", interval_count: 4 },
          },
        },
      ],
      payment_behavior: "default_incomplete",
    });
    const id = await insertSubscription({ customerEmail: "ancien@example.fr", stripeSubscriptionId: sub.id });
    await expect(simulateNextRenewal(id)).rejects.toMatchObject({
      status: 409,
      message: expect.stringContaining("ne peut pas être simulé"),
    });
    expect(await subscriptionTestClock(id)).toBeNull();
    await expect(simulateNextRenewal(999_999)).rejects.toMatchObject({ status: 404, message: "Abonnement introuvable" });
  });
});

describe("the admin pages", () => {
  async function toastOf(response: Response) {
    const cookie = cookieFrom(response, "toast-session");
    expect(cookie).not.toBeNull();
    return (await getToast(getRequest("/admin/subscriptions", { Cookie: cookie! }))).toast;
  }

  it("the list names an ignored filter in French and applies the others", async () => {
    const response = await listPageLoader({
      request: getRequest("/admin/subscriptions?status=active&minAmount=abc", { Cookie: await adminCookie() }),
      params: {},
      context: {},
    });
    const data = await response.json();
    expect(data.issues).toEqual([
      { path: "minAmount", label: "Montant minimum", message: "Montant invalide : un nombre d'euros est attendu (ex. 25,90)." },
    ]);
    expect(data.values).toMatchObject({ status: "active", minAmount: "abc" });
    expect(data.subscriptions.every((s: { status: string }) => s.status === "active")).toBe(true);
  });

  it("the detail's button simulates the next renewal and says which order it created; cancel now then refuses a second time", async () => {
    const record = await subscribed();
    const cookie = await adminCookie();
    const loaded = await (
      await pageLoader({
        request: getRequest(`/admin/subscriptions/${record.id}`, { Cookie: cookie }),
        params: { id: String(record.id) },
        context: {},
      })
    ).json();
    expect(loaded).toMatchObject({
      clocks: true,
      clock: { id: expect.stringMatching(/^clock_/) },
      subscription: { id: record.id },
    });

    const post = (intent: string) =>
      pageAction({
        request: formRequest(`/admin/subscriptions/${record.id}`, { intent }, { headers: { Cookie: cookie } }),
        params: { id: String(record.id) },
        context: {},
      });
    const simulated = await withWebhooks(() => post("simulate_renewal"));
    expect(simulated.status).toBe(302);
    const order = (
      await getDb()
        .select()
        .from(orders)
        .where(and(eq(orders.subscriptionId, record.id), eq(orders.renewalNumber, 1)))
        .limit(1)
    )[0]!;
    expect(await toastOf(simulated)).toMatchObject({
      type: "success",
      description: `Renouvellement n°1 simulé : commande #${order.id} créée.`,
    });

    expect(await toastOf(await withWebhooks(() => post("cancel_now")))).toMatchObject({
      type: "success",
      message: "Abonnement résilié",
    });
    expect(await toastOf(await post("cancel_now"))).toMatchObject({
      type: "error",
      description: expect.stringMatching(/^Cet abonnement est déjà résilié/),
    });
    expect(await toastOf(await post("simulate_renewal"))).toMatchObject({
      type: "error",
      description: expect.stringContaining("résilié"),
    });
  });
});
