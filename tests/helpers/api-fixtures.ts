import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { emails, promotions, subscriptions, users } from "~/db/schema";
import { openAdminSession } from "~/services/admin-sessions.server";
import { getCartCookie } from "~/services/cart-session.server";
import { addToCart, readCart } from "~/services/cart.server";
import { createProduct } from "~/services/catalog.server";
import { createContactRequest } from "~/services/contacts.server";
import { createOrderFromApi } from "~/services/orders/create.server";
import { markOrderPaid } from "~/services/payments/payment-state.server";
import { startOneOffPayment } from "~/services/payments/one-off.server";
import { createOrderSubscription } from "~/services/payments/subscription.server";
import type { StripeEmulatorHandle } from "~/services/stripe.server";
import { findOrCreateCustomer } from "~/services/customers/accounts.server";
import { adminCookie, insertOrder } from "../unit/admin-helpers";
import {
  browserCreatePaymentMethod,
  browserPay,
  CARDS,
  createTestOrder,
  TEST_ACCESS,
  TEST_ORDER_TOKEN,
} from "../unit/payments-fixtures";
import type { ApiCall } from "./api-client";
import { cancelSubscriptionAsAdmin } from "~/services/subscriptions/admin-cancel.server";
import { changeSubscriptionById, pauseSubscription, skipNextDelivery } from "~/services/subscriptions/self-service.server";

/** A promotion code of its own for a contract request. */
async function newPromotionId(): Promise<number> {
  const [row] = await getDb()
    .insert(promotions)
    .values({ code: `FIXTURE${randomUUID().slice(0, 8).toUpperCase()}`, kind: "percent", value: 10, appliesTo: "one_off" })
    .returning({ id: promotions.id });
  return row.id;
}

/**
 * One valid request per operation of the OpenAPI document (by operationId), built against
 * the test database: the contract test sends it and expects the documented success.
 * The same request without the admin cookie must give the documented 401.
 */

export type FixtureContext = { emulator: StripeEmulatorHandle };

/** The spec's own order payload (section 7): no email or name yet, the pack named by its price. */
export const SPEC_ORDER_BODY = {
  total: "25.90",
  status: "pending",
  userId: 3,
  shippingAddress: "12 rue des Lilas",
  shippingCity: "Paris",
  shippingPostalCode: "75011",
  shippingCountry: "France",
  items: [{ productId: 1, quantity: 1, price: "25.90" }],
};

export const VALID_ORDER_BODY = {
  customerEmail: "camille.contrat@example.fr",
  customerName: "Camille Contrat",
  shippingAddress: "12 rue des Lilas",
  shippingPostalCode: "75011",
  shippingCity: "Paris",
  items: [{ productId: 1, packId: 2, quantity: 1 }],
};

export const VALID_CONTACT_BODY = {
  name: "Camille Martin",
  email: "camille@example.fr",
  subject: "Ma commande",
  message: "Bonjour, quand ma commande sera-t-elle expédiée ?",
};

export async function cartCookieFor(cartId: string) {
  return (await getCartCookie().serialize(cartId)).split(";")[0];
}

/** A new visitor's cart holding pack 2, with its Cookie header and line id. */
export async function newCart() {
  const cartId = randomUUID();
  await addToCart(cartId, { productId: 1, packId: 2 });
  return { cartId, cookie: await cartCookieFor(cartId), lineId: String((await readCart(cartId)).lines[0].id) };
}

async function newOrderId() {
  return (await createOrderFromApi({ ...VALID_ORDER_BODY, items: [{ productId: 1, packId: 2, quantity: 1 }] })).id;
}

/** A paid order: the fulfilment steps are refused before the payment. */
async function newPaidOrderId() {
  const id = await newOrderId();
  await markOrderPaid(id, { paymentIntentId: `pi_fixture_${id}` });
  return id;
}

async function newContactId() {
  return (await createContactRequest(VALID_CONTACT_BODY)).id;
}

let customerKey = 0;

/** A checkout customer with a delivered order, a contact request and its emails: nothing stands in the way of an erasure. */
async function newCustomerId() {
  const email = `client.contrat.${++customerKey}@example.fr`;
  const customer = await findOrCreateCustomer(getDb(), {
    email,
    firstName: "Camille",
    lastName: "Contrat",
    address: "12 rue des Lilas",
    postalCode: "75011",
    city: "Paris",
    country: "France",
  });
  await insertOrder({
    userId: customer.id,
    customerEmail: email,
    paymentStatus: "paid",
    status: "delivered",
    paidAt: new Date().toISOString(),
  });
  await createContactRequest({ ...VALID_CONTACT_BODY, email });
  return customer.id;
}

let emailKey = 0;

/** An outbox row written directly (the outbox service queues them in the shop): sent by default. */
export async function newEmailId(overrides: Partial<typeof emails.$inferInsert> = {}) {
  return (
    await getDb()
      .insert(emails)
      .values({
        kind: "contact_ack",
        dedupeKey: `contract:${++emailKey}:${randomUUID()}`,
        toAddress: "camille@example.fr",
        status: "sent",
        attempts: 1,
        subject: "Nous avons bien reçu votre message",
        html: "<p>Bonjour Camille,</p>",
        text: "Bonjour Camille,",
        transport: "demo",
        messageId: `<${randomUUID()}@maison-eclat.fr>`,
        sentAt: new Date().toISOString(),
        attachments: [{ filename: "cgv.txt", contentType: "text/plain", content: Buffer.from("CGV").toString("base64") }],
        ...overrides,
      })
      .returning({ id: emails.id })
  )[0].id;
}

/** A subscription paid with the success card at the emulator, recorded as the webhook would: its record's id. */
const REASON = "Demande du client par téléphone";
const SHOP = { kind: "admin", reason: REASON } as const;

export async function newSubscriptionId(): Promise<number> {
  const orderId = await createTestOrder();
  const started = await createOrderSubscription(orderId, {}, TEST_ACCESS);
  await browserPay(started.clientSecret, CARDS.success);
  await markOrderPaid(orderId, { subscriptionId: started.subscriptionId });
  return (
    await getDb()
      .select({ id: subscriptions.id })
      .from(subscriptions)
      .where(eq(subscriptions.stripeSubscriptionId, started.subscriptionId))
      .limit(1)
  )[0]!.id;
}

/** A one-off order paid with the success card at the emulator (so it can be refunded there). */
export async function newRefundableOrderId(): Promise<number> {
  const orderId = await createTestOrder();
  const started = await startOneOffPayment(orderId, TEST_ACCESS);
  if (!("clientSecret" in started) || !started.clientSecret) throw new Error("No client secret for the test payment.");
  await browserPay(started.clientSecret, CARDS.success);
  await markOrderPaid(orderId, { paymentIntentId: started.paymentIntentId });
  return orderId;
}

let loginAddress = 0;

const seededAdminId = async () =>
  (await getDb().select({ id: users.id }).from(users).where(eq(users.username, "admin")).limit(1))[0]!.id;

type Fixture = (ctx: FixtureContext) => Promise<ApiCall>;

const admin = async (call: ApiCall = {}): Promise<ApiCall> => ({
  ...call,
  headers: { ...call.headers, Cookie: await adminCookie() },
});

export const VALID_REQUESTS: Record<string, Fixture> = {
  listProducts: async () => ({}),
  getProduct: async () => ({ params: { id: "1" } }),
  updateProduct: async () => {
    const sku = `SERUM-CONTRAT-${randomUUID().slice(0, 8)}`;
    const product = await createProduct({
      name: "Sérum contrat",
      sku,
      priceCents: 2990,
      originalPriceCents: null,
      category: "",
      description: "",
      stock: 5,
      images: [],
    });
    return admin({
      params: { id: String(product.id) },
      body: {
        name: "Sérum contrat",
        sku,
        price: "29,90",
        stock: 5,
        saleWithoutPack: "unit",
        packs: [{ name: "Duo de sérums", masks: 2, price: "49,90", position: 1 }],
      },
    });
  },

  addToCart: async () => ({ body: { productId: 1, packId: 2 } }),
  getCart: async () => {
    const cart = await newCart();
    return { params: { id: cart.cartId }, headers: { Cookie: cart.cookie } };
  },
  setCartItemQuantity: async () => {
    const cart = await newCart();
    return { params: { id: cart.lineId }, body: { quantity: 2 }, headers: { Cookie: cart.cookie } };
  },
  removeCartItem: async () => {
    const cart = await newCart();
    return { params: { id: cart.lineId }, headers: { Cookie: cart.cookie } };
  },
  clearCart: async () => {
    const cart = await newCart();
    return { params: { userId: cart.cartId }, headers: { Cookie: cart.cookie } };
  },

  listOrders: async () => {
    await newOrderId();
    return admin({ query: "payment=unpaid" });
  },
  createOrder: async () => ({ body: SPEC_ORDER_BODY }),
  getOrder: async () => ({ params: { id: String(await newOrderId()) } }),
  updateOrder: async () =>
    admin({
      params: { id: String(await newPaidOrderId()) },
      body: { status: "En préparation", trackingNumber: "6A12345678901" },
    }),
  listOrderItems: async () => admin({ params: { id: String(await newOrderId()) } }),

  startPayment: async () => ({ body: { orderId: await createTestOrder(), mode: "one_off", token: TEST_ORDER_TOKEN } }),
  confirmPayment: async () => ({ body: { orderId: await createTestOrder(), token: TEST_ORDER_TOKEN } }),
  createSubscription: async () => ({
    body: { orderId: await createTestOrder(), customerEmail: "camille.martin@example.fr", token: TEST_ORDER_TOKEN },
  }),
  attachPaymentMethod: async () => {
    const orderId = await createTestOrder();
    const sub = await createOrderSubscription(orderId, {}, TEST_ACCESS);
    const paymentMethodId = await browserCreatePaymentMethod(CARDS.success);
    return {
      body: { subscriptionId: sub.subscriptionId, paymentMethodId, customerEmail: "camille.martin@example.fr", orderId },
      headers: { "X-Order-Token": TEST_ORDER_TOKEN },
    };
  },
  stripeWebhook: async ({ emulator }) => {
    const { payload, signature } = emulator.signEvent({
      id: `evt_contract_${randomUUID().replace(/-/g, "")}`,
      object: "event",
      type: "customer.created",
      created: Math.floor(Date.now() / 1000),
      data: { object: { id: "cus_contract", object: "customer" } },
    });
    return { rawBody: payload, headers: { "Stripe-Signature": signature, Origin: "" } };
  },

  createContactRequest: async () => ({ body: VALID_CONTACT_BODY }),
  createWithdrawalRequest: async () => ({
    body: { orderId: "123456789", email: "camille@example.fr", reason: "Changement d'avis" },
  }),

  adminLogin: async () => ({
    body: { username: "admin", password: "motdepasse-test-1" },
    headers: { "X-Forwarded-For": `198.51.100.${++loginAddress}` },
  }),
  adminLogout: async () => admin(),
  adminSession: async () => admin(),
  listAdminSessions: async () => admin(),
  // Another session of the same administrator, opened elsewhere.
  revokeAdminSession: async () =>
    admin({
      params: {
        id: (
          await openAdminSession(await seededAdminId(), {
            userAgent: "Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0",
            address: "192.0.2.10",
          })
        ).id,
      },
    }),
  listPromotions: async () => {
    await newPromotionId();
    return admin();
  },
  createPromotion: async () =>
    admin({
      body: { code: `CONTRAT${randomUUID().slice(0, 6)}`, kind: "amount", value: "5.00", appliesTo: "every_payment", cycles: 2 },
    }),
  getPromotion: async () => admin({ params: { id: String(await newPromotionId()) } }),
  updatePromotion: async () => admin({ params: { id: String(await newPromotionId()) }, body: { active: false, maxUses: 10 } }),
  deletePromotion: async () => admin({ params: { id: String(await newPromotionId()) } }),
  listContactRequests: async () => {
    await newContactId();
    return admin();
  },
  getContactRequest: async () => admin({ params: { id: String(await newContactId()) } }),
  setContactRequestStatus: async () => admin({ params: { id: String(await newContactId()) }, body: { status: "en_cours" } }),
  deleteContactRequest: async () => admin({ params: { id: String(await newContactId()) } }),
  listContactRequestsDemo: async () => {
    await newContactId();
    return {};
  },
  listEmails: async () => {
    await newEmailId();
    return admin({ query: "status=sent&to=camille" });
  },
  getEmail: async () => admin({ params: { id: String(await newEmailId()) } }),
  resendEmail: async () =>
    admin({
      params: { id: String(await newEmailId({ status: "failed", attempts: 5, lastError: "Connexion refusée", sentAt: null })) },
    }),
  listSubscriptions: async () => {
    await newSubscriptionId();
    return admin({ query: "status=active&q=camille&minAmount=1,00&startedFrom=2020-01-01&maxRenewals=0" });
  },
  getAnalytics: async () => admin({ query: "from=2026-01-01&to=2026-03-31" }),
  runCartReminders: async () => admin({ body: { at: "2026-03-01T12:00:00Z" } }),
  getSubscription: async () => admin({ params: { id: String(await newSubscriptionId()) } }),
  cancelSubscription: async () => admin({ params: { id: String(await newSubscriptionId()) }, body: { when: "period_end" } }),
  skipSubscriptionDelivery: async () => admin({ params: { id: String(await newSubscriptionId()) }, body: { reason: REASON } }),
  unskipSubscriptionDelivery: async () => {
    const id = await newSubscriptionId();
    await changeSubscriptionById(id, (record) => skipNextDelivery(record, SHOP));
    return admin({ params: { id: String(id) }, body: { reason: REASON } });
  },
  pauseSubscription: async () =>
    admin({ params: { id: String(await newSubscriptionId()) }, body: { cycles: 2, reason: REASON } }),
  resumeSubscription: async () => {
    const id = await newSubscriptionId();
    await changeSubscriptionById(id, (record) => pauseSubscription(record, { cycles: 1 }, SHOP));
    return admin({ params: { id: String(id) }, body: { reason: REASON } });
  },
  changeSubscriptionPack: async () =>
    admin({ params: { id: String(await newSubscriptionId()) }, body: { packId: 3, reason: REASON } }),
  changeSubscriptionFrequency: async () =>
    admin({ params: { id: String(await newSubscriptionId()) }, body: { intervalWeeks: 6, reason: REASON } }),
  reactivateSubscription: async () => {
    const id = await newSubscriptionId();
    await cancelSubscriptionAsAdmin(id, { when: "period_end" });
    return admin({ params: { id: String(id) }, body: { reason: REASON } });
  },
  getCustomer: async () => admin({ params: { id: String(await newCustomerId()) } }),
  exportCustomer: async () => admin({ params: { id: String(await newCustomerId()) } }),
  eraseCustomer: async () => admin({ params: { id: String(await newCustomerId()) } }),
  listOrderRefunds: async () => admin({ params: { id: String(await newRefundableOrderId()) } }),
  refundOrder: async () =>
    admin({ params: { id: String(await newRefundableOrderId()) }, body: { amount: "10,00", reason: "Geste commercial" } }),
  listUsers: async () => admin(),
  createUser: async () =>
    admin({
      body: {
        username: `contrat.${randomUUID().slice(0, 8)}`,
        email: `contrat.${randomUUID().slice(0, 8)}@example.fr`,
        password: "motdepasse-contrat-1",
        firstName: "Claire",
        isAdmin: false,
      },
    }),

  getSettings: async () => ({}),
  updateSettings: async () => admin({ body: { siteName: "Maison Éclat", sitePhone: "01 84 60 12 34" } }),
  getNotificationSettings: async () => admin(),
  updateNotificationSettings: async () => admin({ body: { notifyContact: true } }),

  getOpenApiDocument: async () => ({}),
};

/** The same request without the admin session cookie. */
export function withoutAdmin(call: ApiCall): ApiCall {
  const headers = { ...call.headers };
  delete headers.Cookie;
  return { ...call, headers };
}
