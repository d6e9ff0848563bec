import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { orders, products, users } from "~/db/schema";
import { loader as dashboardLoader } from "~/routes/admin.dashboard";
import { action as detailAction, loader as detailLoader } from "~/routes/admin.orders.$id";
import { action as listAction, loader as listLoader } from "~/routes/admin.orders._index";
import { loader as csvLoader } from "~/routes/admin.orders.export[.]csv";
import { loader as invoiceLoader } from "~/routes/admin_.orders.$id.invoice";
import { isInProgress } from "~/services/admin-dashboard.server";
import { getAdminOrder, listAdminOrders } from "~/services/admin-orders.server";
import { formRequest, getRequest, routeArgs } from "../helpers/requests";
import { adminCookie, insertOrder } from "./admin-helpers";

async function thrown(promise: Promise<unknown>): Promise<Response> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Response) return error;
    throw error;
  }
  throw new Error("expected a thrown Response");
}

describe("order list", () => {
  it("lists newest first, filters by status and payment, searches by number or email", () => {
    const old = insertOrder({ createdAt: "2026-01-01T10:00:00.000Z", customerEmail: "ancienne@example.fr" });
    const recent = insertOrder({ createdAt: "2026-03-01T10:00:00.000Z", customerEmail: "Recente@Example.fr", status: "shipped", paymentStatus: "paid" });
    const all = listAdminOrders({}).orders.map((o) => o.id);
    expect(all.indexOf(recent)).toBeLessThan(all.indexOf(old));
    expect(listAdminOrders({ status: "shipped" }).orders.map((o) => o.id)).toContain(recent);
    expect(listAdminOrders({ status: "shipped" }).orders.map((o) => o.id)).not.toContain(old);
    expect(listAdminOrders({ payment: "unpaid" }).orders.map((o) => o.id)).not.toContain(recent);
    expect(listAdminOrders({ q: "recente@example" }).orders.map((o) => o.id)).toEqual([recent]);
    expect(listAdminOrders({ q: String(old) }).orders.map((o) => o.id)).toEqual([old]);
    expect(listAdminOrders({ q: `#${old}` }).orders.map((o) => o.id)).toEqual([old]);
    // LIKE wildcards are taken literally.
    expect(listAdminOrders({ q: "%" }).orders).toEqual([]);
  });

  it("paginates", () => {
    for (let i = 0; i < 5; i++) insertOrder({ customerEmail: `page-${i}@pagination.fr` });
    const first = listAdminOrders({ q: "@pagination.fr" }, 2);
    expect(first).toMatchObject({ total: 5, page: 1, pageCount: 3 });
    const last = listAdminOrders({ q: "@pagination.fr", page: 3 }, 2);
    expect(last.orders).toHaveLength(1);
    expect(listAdminOrders({ q: "@pagination.fr", page: 99 }, 2).page).toBe(3);
  });

  it("names an order without a customer 'Client inconnu'", () => {
    const id = insertOrder({ customerEmail: null, customerName: null, userId: null });
    expect(getAdminOrder(id)?.customer).toBe("Client inconnu");
  });

  it("the page loader reads the filters from the URL and the mark-complete action sets delivered", async () => {
    const cookie = await adminCookie();
    const id = insertOrder({ customerEmail: "complete@example.fr" });
    const page = await listLoader(routeArgs(getRequest("/admin/orders?q=complete%40example.fr&status=bogus", { Cookie: cookie })));
    const data = await page.json();
    expect(data.filters.status).toBeUndefined();
    expect(data.orders.map((o: { id: number }) => o.id)).toEqual([id]);
    const response = await listAction(
      routeArgs(formRequest("/admin/orders?index", { intent: "complete", id: String(id), redirectTo: "/admin/orders?q=complete%40example.fr" }, { headers: { Cookie: cookie } })),
    );
    expect(response.headers.get("Location")).toBe("/admin/orders?q=complete%40example.fr");
    expect(getDb().select({ s: orders.status }).from(orders).where(eq(orders.id, id)).get()!.s).toBe("delivered");
  });

  it("exports the filtered list as CSV, safe for spreadsheets", async () => {
    const cookie = await adminCookie();
    insertOrder({ customerEmail: "csv@example.fr", customerName: "=HYPERLINK(\"x\")" });
    insertOrder({ customerEmail: "autre-csv@example.org" });
    const response = await csvLoader(routeArgs(getRequest("/admin/orders/export.csv?q=csv%40example.fr", { Cookie: cookie })));
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toMatch(/^attachment; filename="commandes-\d{4}-\d{2}-\d{2}\.csv"$/);
    const text = await response.text();
    const lines = text.trim().split("\r\n");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('"\'=HYPERLINK(""x"")"');
    expect(lines[1]).toContain('"25,90"');
    expect(text).not.toContain("autre-csv");
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
    const gone = getDb().insert(products).values({ name: "Ancien", sku: "ME-GONE-01", priceCents: 500, stock: 0 }).returning().get();
    const id = insertOrder({ shippingCents: 0 }, { productId: gone.id, productName: null });
    getDb().delete(products).where(eq(products.id, gone.id)).run();
    const data = await (await detailLoader(routeArgs(getRequest(`/admin/orders/${id}`, { Cookie: cookie }), { id: String(id) }))).json();
    expect(data.order.items[0]).toMatchObject({ name: "Produit inconnu", image: null });
    expect(data.order.shippingCents).toBe(0);
  });

  it("shows the order's own first and last name on the customer card, never the linked account's; else the username", async () => {
    const cookie = await adminCookie();
    const user = getDb().insert(users).values({ username: "client-42", email: "c42@example.fr", firstName: "Jeanne", lastName: "Durand", phone: "0601020304" }).returning().get();
    const detail = async (id: number) => (await (await detailLoader(routeArgs(getRequest(`/admin/orders/${id}`, { Cookie: cookie }), { id: String(id) }))).json()).order;
    const own = insertOrder({ userId: user.id, customerName: "Julie Dumas", customerFirstName: "Julie", customerLastName: "Dumas" });
    expect(await detail(own)).toMatchObject({ customer: "Julie Dumas", phone: "0601020304", email: "camille@example.fr" });
    // An order from before the first/last name copy: its full name.
    const older = insertOrder({ userId: user.id, customerName: "J. D." });
    expect(await detail(older)).toMatchObject({ customer: "J. D." });
    const nameless = insertOrder({ userId: user.id, customerName: null, customerEmail: null });
    expect(await detail(nameless)).toMatchObject({ customer: "client-42", email: null });
  });

  it("updates status and tracking number, then redirects with the toast", async () => {
    const cookie = await adminCookie();
    const id = insertOrder();
    const response = await detailAction(
      routeArgs(formRequest(`/admin/orders/${id}`, { status: "shipped", trackingNumber: " 6A123 " }, { headers: { Cookie: cookie } }), { id: String(id) }),
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`/admin/orders/${id}`);
    expect(getAdminOrder(id)).toMatchObject({ status: "shipped", trackingNumber: "6A123" });
    const cleared = await detailAction(routeArgs(formRequest(`/admin/orders/${id}`, { status: "Livrée", trackingNumber: "" }, { headers: { Cookie: cookie } }), { id: String(id) }));
    expect(cleared.status).toBe(302);
    expect(getAdminOrder(id)).toMatchObject({ status: "delivered", trackingNumber: null });
  });

  it("refuses an unknown status with a French message", async () => {
    const cookie = await adminCookie();
    const id = insertOrder();
    const response = await detailAction(routeArgs(formRequest(`/admin/orders/${id}`, { status: "paid" }, { headers: { Cookie: cookie } }), { id: String(id) }));
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.result.error?.status?.[0]).toMatch(/^Choisissez un statut/);
    expect(body.toast.message).toBe("Erreur");
  });

  it("the invoice page needs a session and shows the order", async () => {
    const cookie = await adminCookie();
    const id = insertOrder();
    const data = await (await invoiceLoader(routeArgs(getRequest(`/admin/orders/${id}/invoice`, { Cookie: cookie }), { id: String(id) }))).json();
    expect(data.order.id).toBe(id);
    expect(data.seller.siteName).toBe("Maison Éclat");
    const anonymous = await thrown(invoiceLoader(routeArgs(getRequest(`/admin/orders/${id}/invoice`), { id: String(id) })));
    expect(anonymous.status).toBe(302);
  });
});

describe("dashboard", () => {
  it("counts and shows the 5 most recent orders", async () => {
    const cookie = await adminCookie();
    for (let i = 0; i < 6; i++) insertOrder({ createdAt: `2027-01-0${i + 1}T10:00:00.000Z` });
    const data = await (await dashboardLoader(routeArgs(getRequest("/admin/dashboard", { Cookie: cookie })))).json();
    expect(data.orders).toHaveLength(5);
    expect(data.orders[0].createdAt).toBe("2027-01-06T10:00:00.000Z");
    expect(data.counts).toMatchObject({ products: expect.any(Number), users: expect.any(Number), orders: expect.any(Number), unreadContacts: expect.any(Number) });
  });

  it("reads 'En traitement' only for an order waiting for its payment, never for a failed or refunded one", async () => {
    const cookie = await adminCookie();
    const ids = {
      unpaid: insertOrder({ createdAt: "2028-01-01T10:00:00.000Z", paymentStatus: "unpaid" }),
      paid: insertOrder({ createdAt: "2028-01-02T10:00:00.000Z", paymentStatus: "paid" }),
      failed: insertOrder({ createdAt: "2028-01-03T10:00:00.000Z", paymentStatus: "failed" }),
      refunded: insertOrder({ createdAt: "2028-01-04T10:00:00.000Z", paymentStatus: "refunded" }),
    };
    const data = await (await dashboardLoader(routeArgs(getRequest("/admin/dashboard", { Cookie: cookie })))).json();
    const shown = (id: number) => data.orders.find((o: { id: number }) => o.id === id);
    expect(shown(ids.unpaid)).toMatchObject({ paymentStatus: "unpaid", inProgress: true });
    expect(shown(ids.paid)).toMatchObject({ paymentStatus: "paid", inProgress: false });
    expect(shown(ids.failed)).toMatchObject({ paymentStatus: "failed", inProgress: false });
    expect(shown(ids.refunded)).toMatchObject({ paymentStatus: "refunded", inProgress: false });
    expect(isInProgress({ paymentStatus: "failed" })).toBe(false);
    expect(isInProgress({ paymentStatus: "refunded" })).toBe(false);
  });
});
