import { asResponses } from "../helpers/route-response";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { orders, products, users } from "~/db/schema";
import { loader as dashboardLoaderRoute } from "~/routes/admin.dashboard";
import { action as detailActionRoute, loader as detailLoaderRoute } from "~/routes/admin.orders.$id";
import { action as listActionRoute, loader as listLoaderRoute } from "~/routes/admin.orders._index";
import { loader as csvLoader } from "~/routes/admin.orders.export[.]csv";
import { countAwaitingPayment, getAdminOrder, listAdminOrders, updateAdminOrder } from "~/services/admin-orders.server";
import { formRequest, getRequest, routeArgs, thrown } from "../helpers/requests";
import { adminCookie, cookieFrom, insertOrder } from "./admin-helpers";

const dashboardLoader = asResponses(dashboardLoaderRoute);
const detailAction = asResponses(detailActionRoute);
const detailLoader = asResponses(detailLoaderRoute);
const listAction = asResponses(listActionRoute);
const listLoader = asResponses(listLoaderRoute);

describe("order list", () => {
  it("lists newest first, filters by status and payment, searches by number or email", async () => {
    const old = await insertOrder({
      createdAt: "2026-01-01T10:00:00.000Z",
      customerEmail: "ancienne@example.fr",
      paymentStatus: "paid",
    });
    const recent = await insertOrder({
      createdAt: "2026-03-01T10:00:00.000Z",
      customerEmail: "Recente@Example.fr",
      status: "shipped",
      paymentStatus: "paid",
    });
    const all = (await listAdminOrders({})).orders.map((o) => o.id);
    expect(all.indexOf(recent)).toBeLessThan(all.indexOf(old));
    expect((await listAdminOrders({ status: "shipped" })).orders.map((o) => o.id)).toContain(recent);
    expect((await listAdminOrders({ status: "shipped" })).orders.map((o) => o.id)).not.toContain(old);
    expect((await listAdminOrders({ payment: "unpaid" })).orders.map((o) => o.id)).not.toContain(recent);
    expect((await listAdminOrders({ q: "recente@example" })).orders.map((o) => o.id)).toEqual([recent]);
    expect((await listAdminOrders({ q: String(old) })).orders.map((o) => o.id)).toEqual([old]);
    expect((await listAdminOrders({ q: `#${old}` })).orders.map((o) => o.id)).toEqual([old]);
    // LIKE wildcards are taken literally.
    expect((await listAdminOrders({ q: "%" })).orders).toEqual([]);
  });

  it("paginates", async () => {
    for (let i = 0; i < 5; i++) await insertOrder({ customerEmail: `page-${i}@pagination.fr`, paymentStatus: "paid" });
    const first = await listAdminOrders({ q: "@pagination.fr" }, 2);
    expect(first).toMatchObject({ total: 5, page: 1, pageCount: 3 });
    const last = await listAdminOrders({ q: "@pagination.fr", page: 3 }, 2);
    expect(last.orders).toHaveLength(1);
    expect((await listAdminOrders({ q: "@pagination.fr", page: 99 }, 2)).page).toBe(3);
  });

  it("keeps the checkouts awaiting payment out of the orders, and lists them apart", async () => {
    const email = "apart@example.fr";
    const ids = {
      unpaid: await insertOrder({ customerEmail: email }),
      failed: await insertOrder({ customerEmail: email, paymentStatus: "failed" }),
      paid: await insertOrder({ customerEmail: email, paymentStatus: "paid" }),
      refunded: await insertOrder({ customerEmail: email, paymentStatus: "refunded" }),
    };
    const listed = async (filters: Parameters<typeof listAdminOrders>[0]) =>
      (await listAdminOrders({ q: email, ...filters })).orders.map((o) => o.id).sort();
    expect(await listed({})).toEqual([ids.paid, ids.refunded].sort());
    expect(await listed({ view: "unpaid" })).toEqual([ids.unpaid, ids.failed].sort());
    expect(await listed({ view: "all" })).toHaveLength(4);
    expect(await listed({ payment: "unpaid" })).toEqual([ids.unpaid]);
    expect(await countAwaitingPayment()).toBeGreaterThanOrEqual(2);
  });

  it("names an order without a customer 'Client inconnu'", async () => {
    const id = await insertOrder({ customerEmail: null, customerName: null, userId: null });
    expect((await getAdminOrder(id))?.customer).toBe("Client inconnu");
  });

  it("the page loader reads the filters from the URL and the mark-complete action sets delivered, unless the order is unpaid", async () => {
    const cookie = await adminCookie();
    const unpaid = await insertOrder({ customerEmail: "pas-paye@example.fr" });
    const refused = await listAction(
      routeArgs(
        formRequest(
          "/admin/orders?index",
          { intent: "complete", id: String(unpaid), redirectTo: "/admin/orders?view=unpaid" },
          { headers: { Cookie: cookie } },
        ),
      ),
    );
    expect(refused.headers.get("Location")).toBe("/admin/orders?view=unpaid");
    expect(cookieFrom(refused, "toast-session")).not.toBeNull();
    expect((await getDb().select({ s: orders.status }).from(orders).where(eq(orders.id, unpaid)).limit(1))[0]!.s).toBe("pending");

    const id = await insertOrder({ customerEmail: "complete@example.fr", paymentStatus: "paid" });
    const page = await listLoader(
      routeArgs(getRequest("/admin/orders?q=complete%40example.fr&status=bogus", { Cookie: cookie })),
    );
    const data = await page.json();
    expect(data.filters.status).toBeUndefined();
    expect(data.orders.map((o: { id: number }) => o.id)).toEqual([id]);
    const response = await listAction(
      routeArgs(
        formRequest(
          "/admin/orders?index",
          { intent: "complete", id: String(id), redirectTo: "/admin/orders?q=complete%40example.fr" },
          { headers: { Cookie: cookie } },
        ),
      ),
    );
    expect(response.headers.get("Location")).toBe("/admin/orders?q=complete%40example.fr");
    expect((await getDb().select({ s: orders.status }).from(orders).where(eq(orders.id, id)).limit(1))[0]!.s).toBe("delivered");
  });

  it("the row's quick action is the next step: a received order goes into preparation, not straight to delivered", async () => {
    const cookie = await adminCookie();
    const id = await insertOrder({ customerEmail: "preparer@example.fr", paymentStatus: "paid" });
    const prepare = (orderId: number) =>
      listAction(
        routeArgs(
          formRequest(
            "/admin/orders?index",
            { intent: "prepare", id: String(orderId), redirectTo: "/admin/orders" },
            { headers: { Cookie: cookie } },
          ),
        ),
      );
    const response = await prepare(id);
    expect(response.headers.get("Location")).toBe("/admin/orders");
    expect((await getDb().select({ s: orders.status }).from(orders).where(eq(orders.id, id)).limit(1))[0]!.s).toBe("processing");

    // An unpaid checkout is not prepared.
    const unpaid = await insertOrder({ customerEmail: "preparer-impaye@example.fr" });
    await prepare(unpaid);
    expect((await getDb().select({ s: orders.status }).from(orders).where(eq(orders.id, unpaid)).limit(1))[0]!.s).toBe("pending");
  });

  it("exports the filtered list as CSV, safe for spreadsheets", async () => {
    const cookie = await adminCookie();
    await insertOrder({ customerEmail: "csv@example.fr", customerName: '=HYPERLINK("x")', paymentStatus: "paid" });
    await insertOrder({ customerEmail: "autre-csv@example.org", paymentStatus: "paid" });
    // A checkout awaiting payment is not exported with the orders.
    await insertOrder({ customerEmail: "csv@example.fr", customerName: "Panier abandonné" });
    const response = await csvLoader(routeArgs(getRequest("/admin/orders/export.csv?q=csv%40example.fr", { Cookie: cookie })));
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toMatch(/^attachment; filename="commandes-\d{4}-\d{2}-\d{2}\.csv"$/);
    const text = await response.text();
    const lines = text.trim().split("\r\n");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('"\'=HYPERLINK(""x"")"');
    expect(lines[1]).toContain('"25,90"');
    expect(text).not.toContain("autre-csv");
    expect(text).not.toContain("Panier abandonné");
  });

  it("the CSV export needs a session", async () => {
    const response = await thrown(csvLoader(routeArgs(getRequest("/admin/orders/export.csv"))));
    expect(response.headers.get("Location")).toMatch(/^\/admin\/login\?redirectTo=/);
  });
});

describe("order detail", () => {
  it("loads only numeric ids (404 otherwise) and unknown orders are 404", async () => {
    const cookie = await adminCookie();
    for (const id of ["abc", "12a", "0", "-4"]) {
      const response = await thrown(detailLoader(routeArgs(getRequest(`/admin/orders/${id}`, { Cookie: cookie }), { id })));
      expect(response.status).toBe(404);
    }
    const missing = await thrown(detailLoader(routeArgs(getRequest("/admin/orders/123"), { id: "123" })));
    expect(missing.status).toBe(302); // no session: the login page first
  });

  it("shows items with 'Produit inconnu' when the product is gone, and the order's own shipping", async () => {
    const cookie = await adminCookie();
    const [gone] = await getDb()
      .insert(products)
      .values({ name: "Ancien", sku: "ME-GONE-01", priceCents: 500, stock: 0 })
      .returning();
    const id = await insertOrder({ shippingCents: 0 }, { productId: gone.id, productName: null });
    await getDb().delete(products).where(eq(products.id, gone.id));
    const data = await (
      await detailLoader(routeArgs(getRequest(`/admin/orders/${id}`, { Cookie: cookie }), { id: String(id) }))
    ).json();
    expect(data.order.items[0]).toMatchObject({ name: "Produit inconnu", image: null });
    expect(data.order.shippingCents).toBe(0);
  });

  it("shows the order's own first and last name on the customer card, never the linked account's; else the username", async () => {
    const cookie = await adminCookie();
    const [user] = await getDb()
      .insert(users)
      .values({ username: "client-42", email: "c42@example.fr", firstName: "Jeanne", lastName: "Durand", phone: "0601020304" })
      .returning();
    const detail = async (id: number) =>
      (await (await detailLoader(routeArgs(getRequest(`/admin/orders/${id}`, { Cookie: cookie }), { id: String(id) }))).json())
        .order;
    const own = await insertOrder({
      userId: user.id,
      customerName: "Julie Dumas",
      customerFirstName: "Julie",
      customerLastName: "Dumas",
    });
    expect(await detail(own)).toMatchObject({ customer: "Julie Dumas", phone: "0601020304", email: "camille@example.fr" });
    // An order from before the first/last name copy: its full name.
    const older = await insertOrder({ userId: user.id, customerName: "J. D." });
    expect(await detail(older)).toMatchObject({ customer: "J. D." });
    const nameless = await insertOrder({ userId: user.id, customerName: null, customerEmail: null });
    expect(await detail(nameless)).toMatchObject({ customer: "client-42", email: null });
  });

  it("refuses a fulfilment step or a tracking number on an unpaid order, with the French reason on the field", async () => {
    const cookie = await adminCookie();
    const id = await insertOrder();
    const detail = await (
      await detailLoader(routeArgs(getRequest(`/admin/orders/${id}`, { Cookie: cookie }), { id: String(id) }))
    ).json();
    expect(detail.fulfilmentRefusal).toMatch(/^Paiement non reçu : cette commande n'est pas encore payée\./);
    expect(detail.invoiceNumber).toBeNull();
    const attempts: Record<string, string>[] = [
      { status: "shipped" },
      { status: "delivered" },
      { status: "pending", trackingNumber: "6A1" },
    ];
    for (const fields of attempts) {
      const response = await detailAction(
        routeArgs(formRequest(`/admin/orders/${id}`, fields, { headers: { Cookie: cookie } }), { id: String(id) }),
      );
      expect(response.status).toBe(409);
      const body = await response.json();
      expect(body.toast).toMatchObject({ message: "Mise à jour refusée", type: "error" });
      const field = fields.status === "pending" ? "trackingNumber" : "status";
      expect(body.result.error?.[field]?.[0]).toMatch(/^Paiement non reçu : /);
    }
    expect(await getAdminOrder(id)).toMatchObject({ status: "pending", trackingNumber: null });
    await expect(updateAdminOrder(id, { status: "processing" })).rejects.toThrow(/Paiement non reçu/);
    // A refunded order is not prepared either.
    const refunded = await insertOrder({ paymentStatus: "refunded" });
    await expect(updateAdminOrder(refunded, { status: "shipped" })).rejects.toThrow(
      "Cette commande a été remboursée : elle ne peut plus être préparée, expédiée ni livrée.",
    );
  });

  it("updates status and tracking number, then redirects with the toast", async () => {
    const cookie = await adminCookie();
    const id = await insertOrder({ paymentStatus: "paid" });
    const response = await detailAction(
      routeArgs(
        formRequest(`/admin/orders/${id}`, { status: "shipped", trackingNumber: " 6A123 " }, { headers: { Cookie: cookie } }),
        { id: String(id) },
      ),
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`/admin/orders/${id}`);
    expect(await getAdminOrder(id)).toMatchObject({ status: "shipped", trackingNumber: "6A123" });
    const cleared = await detailAction(
      routeArgs(formRequest(`/admin/orders/${id}`, { status: "Livrée", trackingNumber: "" }, { headers: { Cookie: cookie } }), {
        id: String(id),
      }),
    );
    expect(cleared.status).toBe(302);
    expect(await getAdminOrder(id)).toMatchObject({ status: "delivered", trackingNumber: null });
  });

  it("refuses an unknown status with a French message", async () => {
    const cookie = await adminCookie();
    const id = await insertOrder();
    const response = await detailAction(
      routeArgs(formRequest(`/admin/orders/${id}`, { status: "paid" }, { headers: { Cookie: cookie } }), { id: String(id) }),
    );
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.result.error?.status?.[0]).toMatch(/^Choisissez un statut/);
    expect(body.toast.message).toBe("Erreur");
  });
});

describe("dashboard", () => {
  it("counts and shows the 5 most recent orders, never an unpaid checkout", async () => {
    const cookie = await adminCookie();
    const before = (await (await dashboardLoader(routeArgs(getRequest("/admin/dashboard", { Cookie: cookie })))).json()).counts;
    for (let i = 0; i < 6; i++)
      await insertOrder({ createdAt: `2027-01-0${i + 1}T10:00:00.000Z`, paymentStatus: i === 5 ? "refunded" : "paid" });
    const unpaid = await insertOrder({ createdAt: "2027-01-09T10:00:00.000Z" });
    const failed = await insertOrder({ createdAt: "2027-01-09T11:00:00.000Z", paymentStatus: "failed" });
    const data = await (await dashboardLoader(routeArgs(getRequest("/admin/dashboard", { Cookie: cookie })))).json();
    expect(data.orders).toHaveLength(5);
    expect(data.orders[0]).toMatchObject({ createdAt: "2027-01-06T10:00:00.000Z", paymentStatus: "refunded", status: "pending" });
    expect(data.orders.map((o: { id: number }) => o.id)).not.toContain(unpaid);
    expect(data.orders.map((o: { id: number }) => o.id)).not.toContain(failed);
    expect(data.counts.orders).toBe(before.orders + 6);
    expect(data.counts.awaitingPayment).toBe(before.awaitingPayment + 2);
    expect(data.counts).toMatchObject({
      products: expect.any(Number),
      users: expect.any(Number),
      unreadContacts: expect.any(Number),
    });
  });
});
