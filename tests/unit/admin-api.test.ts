import { asResponses } from "../helpers/route-response";
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { orders as ordersTable } from "~/db/schema";
import { createContactRequest } from "~/services/contacts.server";
import * as contactsApi from "~/routes/api.admin.contacts";
import * as contactApi from "~/routes/api.admin.contacts.$id";
import * as sessionApi from "~/routes/api.admin.session";
import * as ordersApi from "~/routes/api.orders";
import * as orderApi from "~/routes/api.orders.$id";
import * as orderItemsApi from "~/routes/api.orders.$id.items";
import * as productsApi from "~/routes/api.products";
import * as productApi from "~/routes/api.products.$id";
import * as publicContactsApi from "~/routes/api.public.contacts";
import * as settingsApi from "~/routes/api.settings";
import * as usersApi from "~/routes/api.users";
import { loader as usersPageRoute } from "~/routes/admin.users._index";
import { loader as userEditPageRoute } from "~/routes/admin.users.edit.$id";
import { getRequest, jsonRequest, routeArgs } from "../helpers/requests";
import { adminCookie, expectNoSecrets, insertOrder } from "./admin-helpers";

const usersPage = asResponses(usersPageRoute);
const userEditPage = asResponses(userEditPageRoute);

type Handler = (args: ReturnType<typeof routeArgs>) => Promise<Response> | Response;

describe("admin API without an admin session", () => {
  const orderId = 500_000_001;
  const cases: [string, Handler, Request, Record<string, string>?][] = [
    ["GET /api/admin/session", sessionApi.loader as Handler, getRequest("/api/admin/session")],
    ["GET /api/admin/contacts", contactsApi.loader as Handler, getRequest("/api/admin/contacts")],
    ["GET /api/admin/contacts/1", contactApi.loader as Handler, getRequest("/api/admin/contacts/1"), { id: "1" }],
    [
      "PATCH /api/admin/contacts/1",
      contactApi.action as Handler,
      jsonRequest("/api/admin/contacts/1", "PATCH", { status: "lu" }),
      { id: "1" },
    ],
    ["DELETE /api/admin/contacts/1", contactApi.action as Handler, jsonRequest("/api/admin/contacts/1", "DELETE"), { id: "1" }],
    ["GET /api/users", usersApi.loader as Handler, getRequest("/api/users")],
    [
      "POST /api/users",
      usersApi.action as Handler,
      jsonRequest("/api/users", "POST", {
        username: "pirate",
        email: "p@example.fr",
        password: "motdepasse-pirate",
        isAdmin: true,
      }),
    ],
    ["GET /api/orders", ordersApi.loader as Handler, getRequest("/api/orders")],
    [
      "GET /api/orders/{id}/items",
      orderItemsApi.loader as Handler,
      getRequest(`/api/orders/${orderId}/items`),
      { id: String(orderId) },
    ],
    [
      "PUT /api/orders/{id}",
      orderApi.action as Handler,
      jsonRequest(`/api/orders/${orderId}`, "PUT", { status: "shipped" }),
      { id: String(orderId) },
    ],
    ["PATCH /api/settings", settingsApi.action as Handler, jsonRequest("/api/settings", "PATCH", { siteName: "Piraté" })],
  ];

  it.each(cases)("%s answers 401 JSON", async (_name, handler, request, params) => {
    await createContactRequest({ name: "Léa", email: "lea@example.fr", subject: "Question", message: "Bonjour, une question." });
    const response = await handler(routeArgs(request, params));
    expect(response.status).toBe(401);
    expect(response.headers.get("Content-Type")).toMatch(/application\/json/);
    const body = await response.json();
    expect(body.error).toEqual(expect.any(String));
  });

  it("with a cookie signed by someone else, still 401", async () => {
    const forged = "__admin=eyJ1c2VySWQiOjF9.Zm9yZ2Vk";
    const response = await (usersApi.loader as Handler)(routeArgs(getRequest("/api/users", { Cookie: forged })));
    expect(response.status).toBe(401);
  });
});

describe("admin API with a session", () => {
  it("lists and creates users without ever returning a password or its hash", async () => {
    const cookie = await adminCookie();
    const created = await (usersApi.action as Handler)(
      routeArgs(
        jsonRequest(
          "/api/users",
          "POST",
          {
            username: "nadia",
            email: "nadia@example.fr",
            password: "motdepasse-nadia",
            firstName: "Nadia",
            lastName: "B",
            address: "1 rue A",
            city: "Nantes",
            postalCode: "44000",
            country: "France",
            isAdmin: false,
          },
          { Cookie: cookie },
        ),
      ),
    );
    expect(created.status).toBe(201);
    const body = await created.json();
    expect(body.id).toEqual(expect.any(Number));
    expectNoSecrets(body, ["motdepasse-nadia"]);

    const list = await (usersApi.loader as Handler)(routeArgs(getRequest("/api/users", { Cookie: cookie })));
    const { users } = await list.json();
    expect(users.map((u: { username: string }) => u.username)).toEqual(expect.arrayContaining(["admin", "nadia"]));
    expectNoSecrets(users);

    const session = await (sessionApi.loader as Handler)(routeArgs(getRequest("/api/admin/session", { Cookie: cookie })));
    expectNoSecrets(await session.json());

    const page = await usersPage(routeArgs(getRequest("/admin/users", { Cookie: cookie })));
    expectNoSecrets(await page.json());
    const edit = await userEditPage(
      routeArgs(getRequest(`/admin/users/edit/${body.id}`, { Cookie: cookie }), { id: String(body.id) }),
    );
    expectNoSecrets(await edit.json());
  });

  it("refuses a duplicate username with 409 and a weak password with 422", async () => {
    const cookie = await adminCookie();
    const dup = await (usersApi.action as Handler)(
      routeArgs(
        jsonRequest(
          "/api/users",
          "POST",
          { username: "ADMIN", email: "autre@example.fr", password: "motdepasse-long-1" },
          { Cookie: cookie },
        ),
      ),
    );
    expect(dup.status).toBe(409);
    expect((await dup.json()).error).toBe("Ce nom d'utilisateur est déjà utilisé.");
    const weak = await (usersApi.action as Handler)(
      routeArgs(
        jsonRequest(
          "/api/users",
          "POST",
          { username: "faible", email: "faible@example.fr", password: "court" },
          { Cookie: cookie },
        ),
      ),
    );
    expect(weak.status).toBe(422);
    const body = await weak.json();
    expect(body.issues).toContainEqual({ path: "password", message: "Le mot de passe doit contenir au moins 10 caractères." });
    expectNoSecrets(body, ["court"]);
  });

  it("reads and updates orders; refuses to mark an order paid, and any fulfilment step before the payment", async () => {
    const cookie = await adminCookie();
    const id = await insertOrder({ customerEmail: "api-order@example.fr" });
    // An unpaid checkout is not among the orders; view=unpaid (or the payment filter) lists it.
    const listed = async (query: string) =>
      (
        (await (
          await (ordersApi.loader as Handler)(routeArgs(getRequest(`/api/orders?${query}`, { Cookie: cookie })))
        ).json()) as {
          orders: { id: number }[];
        }
      ).orders;
    expect(await listed("q=api-order@example.fr")).toEqual([]);
    const unpaid = await listed("q=api-order@example.fr&view=unpaid");
    expect(unpaid).toHaveLength(1);
    expect(unpaid[0]).toMatchObject({ id, total: "25.90", status: "pending", paymentStatus: "unpaid" });
    expect((await listed("q=api-order@example.fr&payment=unpaid")).map((o) => o.id)).toEqual([id]);

    const items = await (orderItemsApi.loader as Handler)(
      routeArgs(getRequest(`/api/orders/${id}/items`, { Cookie: cookie }), { id: String(id) }),
    );
    expect(await items.json()).toEqual([
      expect.objectContaining({
        quantity: 1,
        price: "25.90",
        product: expect.objectContaining({ name: "Masque Hydrogel au Collagène" }),
      }),
    ]);

    const put = (body: unknown) =>
      (orderApi.action as Handler)(
        routeArgs(jsonRequest(`/api/orders/${id}`, "PUT", body, { Cookie: cookie }), { id: String(id) }),
      );
    // Unpaid: shipping, delivering and a tracking number are refused (409), with the reason in French.
    for (const body of [
      { status: "Expédiée" },
      { status: "delivered" },
      { status: "processing" },
      { trackingNumber: "6A12345678901" },
    ]) {
      const refused = await put(body);
      expect(refused.status, JSON.stringify(body)).toBe(409);
      const answer = await refused.json();
      expect(answer.code).toBe("order_not_paid");
      expect(answer.error).toMatch(/^Paiement non reçu : /);
      expect(answer.issues[0].path).toBe("status" in body ? "status" : "trackingNumber");
    }
    expect(await listed("q=api-order@example.fr&view=unpaid")).toEqual([
      expect.objectContaining({ status: "pending", trackingNumber: null }),
    ]);

    await getDb().update(ordersTable).set({ paymentStatus: "paid" }).where(eq(ordersTable.id, id));
    const shipped = await put({ status: "Expédiée", trackingNumber: "6A12345678901", trackingCarrier: "Chronopost" });
    expect(shipped.status).toBe(200);
    expect(await shipped.json()).toMatchObject({
      status: "shipped",
      trackingNumber: "6A12345678901",
      trackingCarrier: "chronopost",
      trackingUrl: "https://www.chronopost.fr/tracking-no-cms/suivi-page?listeNumerosLT=6A12345678901",
    });
    expect((await listed("q=api-order@example.fr")).map((o) => o.id)).toEqual([id]);
    const publicView = await (orderApi.loader as Handler)(routeArgs(getRequest(`/api/orders/${id}`), { id: String(id) }));
    expect(await publicView.json()).toMatchObject({
      status: "shipped",
      trackingNumber: "6A12345678901",
      trackingCarrierName: "Chronopost",
      progressLabel: "Expédiée",
    });
    expect((await put({ trackingCarrier: "UPS" })).status).toBe(422);

    const paid = await put({ status: "paid" });
    expect(paid.status).toBe(422);
    const payment = await put({ paymentStatus: "paid" });
    expect(payment.status).toBe(422);
    const missing = await (orderApi.action as Handler)(
      routeArgs(jsonRequest(`/api/orders/999999999`, "PUT", { status: "shipped" }, { Cookie: cookie }), { id: "999999999" }),
    );
    expect(missing.status).toBe(404);
  });

  it("changes a contact's status and deletes it", async () => {
    const cookie = await adminCookie();
    const contact = await createContactRequest({
      name: "Inès",
      email: "ines@example.fr",
      subject: "Livraison",
      message: "Bonjour, quand arrive mon colis ?",
    });
    const id = String(contact.id);
    const list = await (contactsApi.loader as Handler)(routeArgs(getRequest("/api/admin/contacts", { Cookie: cookie })));
    expect((await list.json()).contacts.some((c: { id: number }) => c.id === contact.id)).toBe(true);
    const patched = await (contactApi.action as Handler)(
      routeArgs(jsonRequest(`/api/admin/contacts/${id}`, "PATCH", { status: "en_cours" }, { Cookie: cookie }), { id }),
    );
    expect(await patched.json()).toMatchObject({ status: "en_cours" });
    const bad = await (contactApi.action as Handler)(
      routeArgs(jsonRequest(`/api/admin/contacts/${id}`, "PATCH", { status: "archivé" }, { Cookie: cookie }), { id }),
    );
    expect(bad.status).toBe(422);
    const deleted = await (contactApi.action as Handler)(
      routeArgs(jsonRequest(`/api/admin/contacts/${id}`, "DELETE", undefined, { Cookie: cookie }), { id }),
    );
    expect(deleted.status).toBe(204);
    const again = await (contactApi.action as Handler)(
      routeArgs(jsonRequest(`/api/admin/contacts/${id}`, "DELETE", undefined, { Cookie: cookie }), { id }),
    );
    expect(again.status).toBe(404);
  });

  it("refuses a cross-site DELETE even with the cookie", async () => {
    const cookie = await adminCookie();
    const contact = await createContactRequest({
      name: "Inès",
      email: "ines@example.fr",
      subject: "Livraison",
      message: "Bonjour, quand arrive mon colis ?",
    });
    const id = String(contact.id);
    const response = await (contactApi.action as Handler)(
      routeArgs(
        jsonRequest(`/api/admin/contacts/${id}`, "DELETE", undefined, { Cookie: cookie, Origin: "https://evil.example" }),
        { id },
      ),
    );
    expect(response.status).toBe(403);
  });

  it("updates settings partially and validates the result", async () => {
    const cookie = await adminCookie();
    const ok = await (settingsApi.action as Handler)(
      routeArgs(jsonRequest("/api/settings", "PATCH", { sitePhone: "01 23 45 67 89" }, { Cookie: cookie })),
    );
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ sitePhone: "01 23 45 67 89", siteName: "Maison Éclat" });
    const bad = await (settingsApi.action as Handler)(
      routeArgs(jsonRequest("/api/settings", "PATCH", { siteEmail: "pas-un-email" }, { Cookie: cookie })),
    );
    expect(bad.status).toBe(422);
    const publicView = await (settingsApi.loader as Handler)(routeArgs(getRequest("/api/settings")));
    expect(Object.keys(await publicView.json()).sort()).toEqual([
      "defaultCarrier",
      "emailContentRetentionDays",
      "hostAddress",
      "hostName",
      "hostPhone",
      "legalForm",
      "legalName",
      "mediatorAddress",
      "mediatorName",
      "mediatorUrl",
      "publicationDirector",
      "publicationDirectorRole",
      "rcsCity",
      "rcsNumber",
      "shareCapital",
      "siret",
      "siteAddress",
      "siteDescription",
      "siteEmail",
      "siteFooterText",
      "siteName",
      "sitePhone",
      "trialOfferEndsAt",
      "vatNumber",
    ]);
    const badSiret = await (settingsApi.action as Handler)(
      routeArgs(jsonRequest("/api/settings", "PATCH", { siret: "123" }, { Cookie: cookie })),
    );
    expect(badSiret.status).toBe(422);
    expect((await badSiret.json()).issues[0]).toMatchObject({
      path: "siret",
      message: "Le SIRET compte 14 chiffres (par exemple 921 458 303 00017).",
    });
    const siret = await (settingsApi.action as Handler)(
      routeArgs(jsonRequest("/api/settings", "PATCH", { siret: "92145830300025", defaultCarrier: "dpd" }, { Cookie: cookie })),
    );
    expect(await siret.json()).toMatchObject({ siret: "921 458 303 00025", defaultCarrier: "dpd" });
    // The trial offer's end: a Paris date and time, or an ISO instant; kept in UTC.
    const offer = await (settingsApi.action as Handler)(
      routeArgs(jsonRequest("/api/settings", "PATCH", { trialOfferEndsAt: "2026-12-24T18:00" }, { Cookie: cookie })),
    );
    expect(await offer.json()).toMatchObject({ trialOfferEndsAt: "2026-12-24T17:00:00.000Z", sitePhone: "01 23 45 67 89" });
    const wrong = await (settingsApi.action as Handler)(
      routeArgs(jsonRequest("/api/settings", "PATCH", { trialOfferEndsAt: "Noël" }, { Cookie: cookie })),
    );
    expect(wrong.status).toBe(422);
  });
});

describe("public endpoints", () => {
  it("GET /api/products/1 gives the catalog shape with decimal prices", async () => {
    const response = await (productApi.loader as Handler)(routeArgs(getRequest("/api/products/1"), { id: "1" }));
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toMatch(/^public, max-age=\d+$/);
    expect(await response.json()).toEqual({
      id: 1,
      name: "Masque Hydrogel au Collagène",
      images: expect.any(Array),
      price: "25.90",
      originalPrice: "31.80",
      sku: "ME-COLL-MASK-01",
      category: "Soin du visage",
      stock: expect.any(Number),
      saleWithoutPack: "unit",
      packs: [
        {
          id: 1,
          name: "3 masques d'essai",
          description: expect.any(String),
          masks: 3,
          price: "0.99",
          originalPrice: "15.99",
          popular: false,
          trial: true,
        },
        {
          id: 2,
          name: "6 masques + 2 offerts",
          description: expect.any(String),
          masks: 8,
          price: "25.90",
          originalPrice: "31.80",
          popular: false,
          trial: false,
        },
        {
          id: 3,
          name: "9 masques + 3 offerts",
          description: expect.any(String),
          masks: 12,
          price: "32.90",
          originalPrice: "47.70",
          popular: true,
          trial: false,
        },
      ],
    });
    const list = await (productsApi.loader as Handler)(routeArgs(getRequest("/api/products")));
    expect((await list.json())[0]).toMatchObject({ id: 1, price: "25.90" });
    const missing = await (productApi.loader as Handler)(routeArgs(getRequest("/api/products/99999"), { id: "99999" }));
    expect(missing.status).toBe(404);
    const bad = await (productApi.loader as Handler)(routeArgs(getRequest("/api/products/abc"), { id: "abc" }));
    expect(bad.status).toBe(400);
  });

  it("GET /api/public/contacts works in demo mode", async () => {
    const response = await (publicContactsApi.loader as Handler)(routeArgs(getRequest("/api/public/contacts")));
    expect(response.status).toBe(200);
    expect(Array.isArray(await response.json())).toBe(true);
  });
});
