import { asResponses } from "../helpers/route-response";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { contactRequests, orderItems, orders, users } from "~/db/schema";
import { action as contactFormActionRoute } from "~/routes/contact";
import { action as cartPageActionRoute } from "~/routes/panier";
import { API_OPERATIONS } from "~/openapi/operations.server";
import { callOperation } from "../helpers/api-client";
import { adminCookie, cookieFrom } from "./admin-helpers";
import { formRequest, routeArgs } from "../helpers/requests";

const contactFormAction = asResponses(contactFormActionRoute);
const cartPageAction = asResponses(cartPageActionRoute);

/**
 * The JSON API and the web forms call the same services with the same schemas: what they
 * create cannot be told apart afterwards, and they refuse the same input with the same words.
 */

const op = (operationId: string) => {
  const found = API_OPERATIONS.find((o) => o.operationId === operationId);
  if (!found) throw new Error(operationId);
  return found;
};

/** A value without the fields that are unique to each record (ids, timestamps...). */
function without<T extends Record<string, unknown>>(row: T, keys: string[]) {
  return Object.fromEntries(Object.entries(row).filter(([k]) => !keys.includes(k)));
}

function withoutItemIds(items: Record<string, unknown>[]) {
  return items.map((i) => without(i, ["id"]));
}

// The same shopper typing the same (untidy) details in both places.
const SHOPPER = {
  firstName: "  Camille ",
  lastName: "Martin  ",
  address: " 12 rue des Lilas ",
  postalCode: "75011",
  city: " Paris",
};

async function orderThroughDeliveryForm(email: string): Promise<number> {
  const add = await cartPageAction(routeArgs(formRequest("/panier", { intent: "add", productId: "1", packId: "2" })));
  expect(add.status).toBe(200);
  const cookie = cookieFrom(add, "cart");
  expect(cookie).toBeTruthy();
  const delivery = await cartPageAction(
    routeArgs(formRequest("/panier", { intent: "delivery", ...SHOPPER, email }, { headers: { Cookie: cookie! } })),
  );
  expect(delivery.status).toBe(200);
  const data = (await delivery.json()) as { ok: boolean; orderId: number };
  expect(data.ok).toBe(true);
  return data.orderId;
}

async function orderThroughApi(email: string): Promise<number> {
  const created = await callOperation(op("createOrder"), {
    body: {
      customerEmail: email,
      customerName: `${SHOPPER.firstName}${SHOPPER.lastName}`,
      shippingAddress: SHOPPER.address,
      shippingPostalCode: SHOPPER.postalCode,
      shippingCity: SHOPPER.city,
      // What the original shop sends: the right amounts are accepted (checked, not used), the
      // status is ignored, the fallback user id 9999 names no client.
      total: "25.90",
      status: "paid",
      userId: 9999,
      items: [{ productId: 1, packId: 2, quantity: 1, price: "25.90" }],
    },
  });
  expect(created.status, created.text).toBe(201);
  return (created.body as { id: number }).id;
}

async function storedOrder(id: number) {
  const order = (await getDb().select().from(orders).where(eq(orders.id, id)).limit(1))[0]!;
  const items = await getDb().select().from(orderItems).where(eq(orderItems.orderId, id));
  const customer = (await getDb().select().from(users).where(eq(users.id, order.userId!)).limit(1))[0]!;
  return { order, items, customer };
}

describe("an order from POST /api/orders and one from the delivery form", () => {
  it("are indistinguishable afterwards: same stored order, items and customer, same API answers", async () => {
    const fromForm = await orderThroughDeliveryForm("Camille.Formulaire@Example.fr");
    const fromApi = await orderThroughApi("Camille.API@Example.fr");
    const form = await storedOrder(fromForm);
    const api = await storedOrder(fromApi);

    // Only the record's own identity differs (and the form's link to the cart it came from, for the payment step).
    // (and the API's order token, which the shop's own pages do without: they have the cart cookie).
    const own = ["id", "createdAt", "updatedAt", "userId", "customerEmail", "cartId", "checkoutKey", "tokenHash"];
    expect(without(api.order, own)).toEqual(without(form.order, own));
    expect(form.order).toMatchObject({
      status: "pending",
      paymentStatus: "unpaid",
      totalCents: 2590,
      customerName: "Camille Martin",
      shippingCity: "Paris",
    });
    expect([form.order.customerEmail, api.order.customerEmail]).toEqual([
      "camille.formulaire@example.fr",
      "camille.api@example.fr",
    ]);
    const itemOwn = ["id", "orderId", "createdAt", "updatedAt"];
    expect(api.items.map((i) => without(i, itemOwn))).toEqual(form.items.map((i) => without(i, itemOwn)));
    const customerOwn = ["id", "username", "email", "createdAt", "updatedAt"];
    expect(without(api.customer, customerOwn)).toEqual(without(form.customer, customerOwn));
    expect(api.customer).toMatchObject({
      passwordHash: null,
      isAdmin: false,
      firstName: "Camille",
      lastName: "Martin",
      country: "France",
    });

    // Public view (tracking and confirmation pages).
    const read = async (id: number) =>
      (await callOperation(op("getOrder"), { params: { id: String(id) } })).body as Record<string, unknown>;
    const [publicForm, publicApi] = [await read(fromForm), await read(fromApi)];
    expect({
      ...without(publicApi, ["id", "createdAt"]),
      items: withoutItemIds(publicApi.items as Record<string, unknown>[]),
    }).toEqual({
      ...without(publicForm, ["id", "createdAt"]),
      items: withoutItemIds(publicForm.items as Record<string, unknown>[]),
    });
    expect(publicApi).toMatchObject({ total: "25.90", status: "pending", paymentStatus: "unpaid" });

    // Back office view (both await their payment: the checkouts awaiting payment).
    const cookie = await adminCookie();
    const list = (
      (await callOperation(op("listOrders"), { query: "view=unpaid", headers: { Cookie: cookie } })).body as {
        orders: Record<string, unknown>[];
      }
    ).orders;
    const [adminForm, adminApi] = [list.find((o) => o.id === fromForm)!, list.find((o) => o.id === fromApi)!];
    expect(without(adminApi, ["id", "createdAt", "userId", "customerEmail"])).toEqual(
      without(adminForm, ["id", "createdAt", "userId", "customerEmail"]),
    );
    const items = async (id: number) =>
      withoutItemIds(
        (await callOperation(op("listOrderItems"), { params: { id: String(id) }, headers: { Cookie: cookie } })).body as Record<
          string,
          unknown
        >[],
      );
    expect(await items(fromApi)).toEqual(await items(fromForm));
  });

  it("refuse the same delivery details with the same French messages", async () => {
    const bad = { firstName: "C", lastName: "M", email: "pas-un-email", address: "rue", postalCode: "750", city: "P" };
    const add = await cartPageAction(routeArgs(formRequest("/panier", { intent: "add", productId: "1", packId: "2" })));
    const form = await cartPageAction(
      routeArgs(formRequest("/panier", { intent: "delivery", ...bad }, { headers: { Cookie: cookieFrom(add, "cart")! } })),
    );
    expect(form.status).toBe(400);
    const formErrors = ((await form.json()) as { result: { error: Record<string, string[]> } }).result.error;
    const api = await callOperation(op("createOrder"), {
      body: {
        customerEmail: bad.email,
        customerName: "Camille Martin",
        shippingAddress: bad.address,
        shippingPostalCode: bad.postalCode,
        shippingCity: bad.city,
        items: [{ productId: 1, packId: 2, quantity: 1 }],
      },
    });
    expect(api.status).toBe(422);
    const issues = new Map((api.body as { issues: { path: string; message: string }[] }).issues.map((i) => [i.path, i.message]));
    expect(issues.get("customerEmail")).toBe(formErrors.email[0]);
    expect(issues.get("shippingAddress")).toBe(formErrors.address[0]);
    expect(issues.get("shippingPostalCode")).toBe(formErrors.postalCode[0]);
    expect(issues.get("shippingCity")).toBe(formErrors.city[0]);
    expect(formErrors.address[0]).toBe("L'adresse doit contenir au moins 5 caractères");
  });
});

describe("a contact request from POST /api/contact and one from the contact form", () => {
  const message = {
    name: "  Camille Martin ",
    email: " camille@example.fr ",
    subject: " Ma commande ",
    message: "  Bonjour, quand ma commande sera-t-elle expédiée ?  ",
  };

  it("are indistinguishable afterwards: same stored request, same admin API answer", async () => {
    const count = async () => (await getDb().select().from(contactRequests)).length;
    const before = await count();
    const form = await contactFormAction(routeArgs(formRequest("/contact", message)));
    expect(form.status).toBe(200);
    expect(((await form.json()) as { outcome: string }).outcome).toBe("success");
    const formRow = (await getDb().select().from(contactRequests)).at(-1)!;

    const api = await callOperation(op("createContactRequest"), { body: message });
    expect(api.status).toBe(201);
    const apiId = (api.body as { id: number }).id;
    expect(await count()).toBe(before + 2);
    const apiRow = (await getDb().select().from(contactRequests).where(eq(contactRequests.id, apiId)).limit(1))[0]!;

    const own = ["id", "createdAt", "updatedAt"];
    expect(without(apiRow, own)).toEqual(without(formRow, own));
    expect(formRow).toMatchObject({
      name: "Camille Martin",
      email: "camille@example.fr",
      subject: "Ma commande",
      status: "non_lu",
    });

    const cookie = await adminCookie();
    const read = async (id: number) =>
      without(
        (await callOperation(op("getContactRequest"), { params: { id: String(id) }, headers: { Cookie: cookie } }))
          .body as Record<string, unknown>,
        own,
      );
    expect(await read(apiId)).toEqual(await read(formRow.id));
  });

  it("refuse the same input with the same French messages", async () => {
    const bad = { name: "C", email: "faux", subject: "x", message: "court" };
    const form = await contactFormAction(routeArgs(formRequest("/contact", bad)));
    expect(form.status).toBe(400);
    const formErrors = ((await form.json()) as { result: { error: Record<string, string[]> } }).result.error;
    const api = await callOperation(op("createContactRequest"), { body: bad });
    expect(api.status).toBe(422);
    const issues = Object.fromEntries(
      (api.body as { issues: { path: string; message: string }[] }).issues.map((i) => [i.path, [i.message]]),
    );
    expect(issues).toEqual(formErrors);
    expect(issues.name).toEqual(["Le nom doit contenir au moins 2 caractères."]);
  });
});
