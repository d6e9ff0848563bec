import { and, desc, eq, gte, inArray, lt, notInArray, sql, type SQL } from "drizzle-orm";
import { getDb, type DbOrTx } from "~/db/client.server";
import { lockRows } from "~/db/locks.server";
import { queueOrderShippedEmail, queueTrackingNumberEmail } from "./email/notifications.server";
import {
  dialect,
  orderItems,
  orders,
  products,
  refunds,
  users,
  withdrawalRequests,
  type FulfilmentStatus,
  type PaymentStatus,
} from "~/db/schema";
import { formatDate } from "~/lib/dates";
import { orderClosure, visibleTrackingNumber } from "~/lib/order-status";
import { carrierTrackingUrl, type Carrier } from "~/lib/carriers";
import { parseIdOrNull } from "~/lib/ids";
import { ShopError } from "~/lib/shop-error";
import { centsToDecimal } from "~/lib/money";
import { displayName } from "~/lib/names";
import type { AdminOrderUpdate, OrderFilters } from "~/schemas/admin-order";
import { getSettings } from "./settings.server";
import type { PageQuery } from "~/schemas/page";
import { decodeCursor, pageOf, type CursorKey } from "./pagination/cursor.server";
import { withdrawalsToApi } from "./withdrawals.server";

/**
 * The back office's view of orders: reading, filtering, and the fields an administrator
 * changes (fulfilment status, tracking number and its carrier). Orders are created by the
 * checkout (orders/create.server.ts); payment state is written only by the payment flow.
 *
 * An unpaid checkout (every delivery form submitted makes one) is not an order yet: the lists
 * show the orders, paid or since refunded, unless asked for the checkouts awaiting payment
 * (`view: "unpaid"`), and no fulfilment step can be taken before the payment is received.
 */

/** The payment states of an order proper, and of a checkout awaiting its payment. */
export const ORDER_PAYMENT_STATUSES: PaymentStatus[] = ["paid", "partially_refunded", "refunded"];
export const AWAITING_PAYMENT_STATUSES: PaymentStatus[] = ["unpaid", "failed"];

const UNKNOWN_CUSTOMER = "Client inconnu";
const UNKNOWN_PRODUCT = "Produit inconnu";
const ORDERS_PAGE_SIZE = 20;

/** The key orders are listed by, newest first: their date, then their number. */
const newestFirst = [desc(orders.createdAt), desc(orders.id)];

const LIST_COLUMNS = {
  id: orders.id,
  createdAt: orders.createdAt,
  status: orders.status,
  paymentStatus: orders.paymentStatus,
  subtotalCents: orders.subtotalCents,
  shippingCents: orders.shippingCents,
  totalCents: orders.totalCents,
  userId: orders.userId,
  customerEmail: orders.customerEmail,
  customerName: orders.customerName,
  customerFirstName: orders.customerFirstName,
  customerLastName: orders.customerLastName,
  trackingNumber: orders.trackingNumber,
  trackingCarrier: orders.trackingCarrier,
  shippingAddress: orders.shippingAddress,
  shippingAddress2: orders.shippingAddress2,
  shippingPostalCode: orders.shippingPostalCode,
  shippingCity: orders.shippingCity,
  shippingCountry: orders.shippingCountry,
  shippingPhone: orders.shippingPhone,
  isSubscription: orders.isSubscription,
  stripeSubscriptionId: orders.stripeSubscriptionId,
  renewalNumber: orders.renewalNumber,
  subscriptionId: orders.subscriptionId,
  userUsername: users.username,
  userPhone: users.phone,
  /** The refunds that succeeded (services/payments/refunds.server.ts), in cents. */
  refundedCents:
    sql<number>`(select coalesce(sum(${refunds.amountCents}), 0) from ${refunds} where ${refunds.orderId} = ${orders.id} and ${refunds.status} = 'succeeded')`.mapWith(
      Number,
    ),
};

type ListRow = {
  id: number;
  createdAt: string;
  status: FulfilmentStatus;
  paymentStatus: PaymentStatus;
  subtotalCents: number;
  shippingCents: number;
  totalCents: number;
  userId: number | null;
  customerEmail: string | null;
  customerName: string | null;
  customerFirstName: string | null;
  customerLastName: string | null;
  trackingNumber: string | null;
  trackingCarrier: Carrier | null;
  shippingAddress: string | null;
  shippingAddress2: string | null;
  shippingPostalCode: string | null;
  shippingCity: string | null;
  shippingCountry: string | null;
  shippingPhone: string | null;
  isSubscription: boolean;
  stripeSubscriptionId: string | null;
  renewalNumber: number | null;
  subscriptionId: number | null;
  userUsername: string | null;
  userPhone: string | null;
  refundedCents: number;
};

type AdminOrderSummary = Awaited<ReturnType<typeof toSummary>>;

/**
 * The customer's name as the order keeps it (what was typed with the order), else the linked
 * account's username, else 'Client inconnu'. Never the account's name or address: an account
 * found by email belongs to whoever owns that email, not necessarily to whoever ordered.
 */
function customerLabel(row: ListRow): string {
  return (
    displayName({ firstName: row.customerFirstName, lastName: row.customerLastName }) ||
    row.customerName?.trim() ||
    row.userUsername ||
    UNKNOWN_CUSTOMER
  );
}

function toSummary(row: ListRow) {
  return {
    id: row.id,
    createdAt: row.createdAt,
    status: row.status,
    paymentStatus: row.paymentStatus,
    subtotalCents: row.subtotalCents,
    shippingCents: row.shippingCents,
    totalCents: row.totalCents,
    refundedCents: row.refundedCents ?? 0,
    userId: row.userId,
    customer: customerLabel(row),
    email: row.customerEmail || null,
    /** The telephone typed with the order (for the carrier), else the account's. */
    phone: row.shippingPhone || row.userPhone || null,
    trackingNumber: row.trackingNumber,
    trackingCarrier: row.trackingCarrier,
    /** The carrier's page to follow the parcel, when the number and its carrier are known. */
    trackingUrl: carrierTrackingUrl(row.trackingCarrier, row.trackingNumber),
    shippingAddress: row.shippingAddress,
    shippingAddress2: row.shippingAddress2,
    shippingPostalCode: row.shippingPostalCode,
    shippingCity: row.shippingCity,
    shippingCountry: row.shippingCountry,
    shippingPhone: row.shippingPhone,
    isSubscription: row.isSubscription,
    stripeSubscriptionId: row.stripeSubscriptionId,
    /** 1, 2... for a subscription's renewal order; null for any other order. */
    renewalNumber: row.renewalNumber,
    subscriptionId: row.subscriptionId,
  };
}

/** The upper bound of a prefix range: every text that starts with `prefix` sorts before it. */
const prefixEnd = (prefix: string) => `${prefix}\uffff`;

/** The part of the email from its « @ » (the same expression as the index orders_email_domain_idx). */
const emailDomain =
  dialect === "postgresql"
    ? sql`lower(substr(${orders.customerEmail}, strpos(${orders.customerEmail}, '@')))`
    : sql`lower(substr(${orders.customerEmail}, instr(${orders.customerEmail}, '@')))`;

/**
 * The search: an order number, or the start of the customer's email (« marie », « marie.d@ »),
 * or its domain (« @exemple.fr », « @exem »), in any case. Each reads a range of an index
 * (orders_email_lower_idx, orders_email_domain_idx) instead of the whole table.
 */
function searchFor(q: string): SQL {
  const text = q.toLowerCase();
  const [expression, start] = text.startsWith("@") ? [emailDomain, text] : [sql`lower(${orders.customerEmail})`, text];
  const email = sql`(${expression} >= ${start} and ${expression} < ${prefixEnd(start)})`;
  const id = parseIdOrNull(q);
  return id !== null ? sql`(${orders.id} = ${id} or ${email})` : email;
}

/**
 * Which payment states a view keeps. To count, the states themselves: the count reads them
 * from the index orders_payment_created_idx. To list newest first, the other states left out:
 * the same rows, but the database then walks the orders by date (orders_created_payment_idx, which also holds the state) and stops
 * at the page, where a list of states would make it sort every order of those states first.
 */
function viewCondition(view: OrderFilters["view"], use: "count" | "list"): SQL | undefined {
  if (view === "all") return undefined;
  const [kept, others] =
    view === "unpaid" ? [AWAITING_PAYMENT_STATUSES, ORDER_PAYMENT_STATUSES] : [ORDER_PAYMENT_STATUSES, AWAITING_PAYMENT_STATUSES];
  return use === "count" ? inArray(orders.paymentStatus, kept) : notInArray(orders.paymentStatus, others);
}

export function whereFor(filters: OrderFilters, use: "count" | "list" = "list"): SQL | undefined {
  const parts: (SQL | undefined)[] = [];
  if (filters.status) parts.push(eq(orders.status, filters.status));
  if (filters.payment) parts.push(eq(orders.paymentStatus, filters.payment));
  else parts.push(viewCondition(filters.view, use));
  const q = filters.q?.trim().replace(/^#/, "");
  if (q) parts.push(searchFor(q));
  if (filters.from) parts.push(gte(orders.createdAt, filters.from));
  if (filters.to) parts.push(lt(orders.createdAt, filters.to));
  return and(...parts);
}

function baseQuery(where: SQL | undefined) {
  return getDb().select(LIST_COLUMNS).from(orders).leftJoin(users, eq(users.id, orders.userId)).where(where);
}

/** How many checkouts await their payment (the dashboard and the list's tab). */
export async function countAwaitingPayment(): Promise<number> {
  return (
    (
      await getDb()
        .select({ n: sql<number>`count(*)`.mapWith(Number) })
        .from(orders)
        .where(inArray(orders.paymentStatus, AWAITING_PAYMENT_STATUSES))
        .limit(1)
    )[0]?.n ?? 0
  );
}

/** One page of orders, newest first. */
export async function listAdminOrders(filters: OrderFilters, pageSize = ORDERS_PAGE_SIZE) {
  const total =
    (
      await getDb()
        .select({ n: sql<number>`count(*)`.mapWith(Number) })
        .from(orders)
        .where(whereFor(filters, "count"))
        .limit(1)
    )[0]?.n ?? 0;
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const page = Math.min(Math.max(1, filters.page ?? 1), pageCount);
  // The page's numbers first, read from the index alone: the rows skipped by the offset are
  // never read whole (their customer, their refunds); then those orders.
  const ids = (
    await getDb()
      .select({ id: orders.id })
      .from(orders)
      .where(whereFor(filters))
      .orderBy(...newestFirst)
      .limit(pageSize)
      .offset((page - 1) * pageSize)
  ).map((r) => r.id);
  const rows = ids.length ? await baseQuery(inArray(orders.id, ids)).orderBy(...newestFirst) : [];
  return { orders: rows.map(toSummary), total, page, pageCount, pageSize };
}
const orderKey = (row: { createdAt: string; id: number }): CursorKey => [row.createdAt, row.id];

/** Orders listed after this key, newest first (the row value compares the date, then the number). */
function afterKey(key: CursorKey | null): SQL | undefined {
  return key ? sql`(${orders.createdAt}, ${orders.id}) < (${key[0]}, ${key[1]})` : undefined;
}

/**
 * One page of orders for GET /api/orders, newest first, read from the cursor's key (no offset,
 * no count): `limit` orders and the cursor of the next page (null on the last).
 */
export async function pageAdminOrders(filters: OrderFilters, page: PageQuery) {
  const key = page.cursor ? decodeCursor(page.cursor, ["string", "number"]) : null;
  const rows = await baseQuery(and(whereFor(filters), afterKey(key)))
    .orderBy(...newestFirst)
    .limit(page.limit + 1);
  const { items, nextCursor } = pageOf(rows, page.limit, orderKey);
  return { orders: items.map(toSummary), nextCursor };
}

/**
 * Every order matching the filters, newest first, in batches read by key: whatever the number
 * of orders, only one batch is in memory at a time (the CSV export streams them).
 */
export async function* eachAdminOrder(filters: OrderFilters, batchSize = 500) {
  let key: CursorKey | null = null;
  for (;;) {
    const rows = await baseQuery(and(whereFor(filters), afterKey(key)))
      .orderBy(...newestFirst)
      .limit(batchSize);
    for (const row of rows) yield toSummary(row);
    if (rows.length < batchSize) return;
    key = orderKey(rows[rows.length - 1]);
  }
}

type AdminOrderItem = {
  id: number;
  productId: number | null;
  quantity: number;
  unitPriceCents: number;
  lineTotalCents: number;
  name: string;
  variantName: string | null;
  image: string | null;
};

export async function getAdminOrderItems(orderId: number): Promise<AdminOrderItem[]> {
  const rows = await getDb()
    .select({
      id: orderItems.id,
      productId: orderItems.productId,
      quantity: orderItems.quantity,
      unitPriceCents: orderItems.unitPriceCents,
      productName: orderItems.productName,
      variantName: orderItems.variantName,
      currentName: products.name,
      images: products.images,
    })
    .from(orderItems)
    .leftJoin(products, eq(products.id, orderItems.productId))
    .where(eq(orderItems.orderId, orderId))
    .orderBy(orderItems.id);
  return rows.map((r) => ({
    id: r.id,
    productId: r.productId,
    quantity: r.quantity,
    unitPriceCents: r.unitPriceCents,
    lineTotalCents: r.unitPriceCents * r.quantity,
    name: r.productName?.trim() || r.currentName || UNKNOWN_PRODUCT,
    variantName: r.variantName,
    image: Array.isArray(r.images) && typeof r.images[0] === "string" ? r.images[0] : null,
  }));
}

export async function orderExists(id: number): Promise<boolean> {
  return Boolean((await getDb().select({ id: orders.id }).from(orders).where(eq(orders.id, id)).limit(1))[0]);
}

/** An order with its customer and items, or undefined. */
export async function getAdminOrder(id: number) {
  const [row] = await baseQuery(eq(orders.id, id)).limit(1);
  if (!row) return undefined;
  // Customer card of the spec: first and last name (the order's own), else username, else 'Client inconnu'.
  return { ...toSummary(row), items: await getAdminOrderItems(id) };
}

export type AdminOrderDetail = NonNullable<Awaited<ReturnType<typeof getAdminOrder>>>;

const NOT_PAID_MESSAGE =
  "Paiement non reçu : cette commande n'est pas encore payée. Elle ne peut passer « En préparation », « Expédiée » ou « Livrée » qu'une fois payée.";
const REFUNDED_MESSAGE = "Cette commande a été remboursée : elle ne peut plus être préparée, expédiée ni livrée.";
const NOT_PAID_TRACKING_MESSAGE = "Paiement non reçu : un numéro de suivi ne s'ajoute qu'à une commande payée.";

function withdrawnMessage(requestedAt: string): string {
  return `Le client s'est rétracté le ${formatDate(requestedAt)} : cette commande ne peut plus être préparée, expédiée ni livrée. Remboursez-la dans les 14 jours suivant la demande.`;
}

/** The refusal of a shipment without a tracking number, until the administrator confirms it. */
export const NO_TRACKING_MESSAGE =
  "Aucun numéro de suivi saisi : le client recevra l'email d'expédition sans numéro. Saisissez-le, ou confirmez l'expédition sans numéro de suivi (le numéro ajouté ensuite lui sera envoyé par email).";

/**
 * Why a fulfilment step cannot be taken on an order in this payment state (null: it can): not
 * paid yet, refunded in full, or withdrawn by its customer (`withdrawnAt`, the request's date).
 */
export function fulfilmentRefusal(paymentStatus: PaymentStatus, withdrawnAt: string | null = null): string | null {
  if (paymentStatus === "refunded") return REFUNDED_MESSAGE;
  // A partial refund leaves the order to prepare and ship.
  if (paymentStatus !== "paid" && paymentStatus !== "partially_refunded") return NOT_PAID_MESSAGE;
  return withdrawnAt ? withdrawnMessage(withdrawnAt) : null;
}

/** When the order's customer withdrew (ISO), or null. */
async function withdrawnAtIn(tx: DbOrTx, orderId: number): Promise<string | null> {
  const [row] = await tx
    .select({ requestedAt: withdrawalRequests.requestedAt })
    .from(withdrawalRequests)
    .where(eq(withdrawalRequests.orderId, orderId))
    .limit(1);
  return row?.requestedAt ?? null;
}

/** Why this order cannot move along the shipping steps (null: it can), read now. */
export async function orderFulfilmentRefusal(order: { id: number; paymentStatus: PaymentStatus }): Promise<string | null> {
  return fulfilmentRefusal(order.paymentStatus, await withdrawnAtIn(getDb(), order.id));
}

/**
 * The admin's change: fulfilment status, tracking number and its carrier. Returns false if no
 * such order. The steps after 'Commande reçue' and a tracking number are refused (409
 * `order_not_paid`) unless the order is paid; a refunded or withdrawn order is closed (409
 * `order_closed`): it moves no more. A step it has already reached stays allowed.
 * A tracking number without a carrier gets the order's, else the settings' default carrier.
 * Setting a paid order shipped with no tracking number is refused (409 `tracking_number_missing`)
 * unless `confirmWithoutTracking`; it queues the shipping notice, in the same transaction (once
 * per order). Once shipped, a tracking number added or changed (or its carrier) queues « Votre
 * numéro de suivi », with the carrier's link.
 */
export async function updateAdminOrder(
  id: number,
  update: AdminOrderUpdate & { confirmWithoutTracking?: boolean },
): Promise<boolean> {
  return await getDb().transaction(async (tx) => {
    // Read then changed: a payment or a refund of this order waits for this change, or this change for it.
    await lockRows(tx, orders, eq(orders.id, id));
    const [before] = await tx
      .select({
        status: orders.status,
        paymentStatus: orders.paymentStatus,
        trackingNumber: orders.trackingNumber,
        trackingCarrier: orders.trackingCarrier,
      })
      .from(orders)
      .where(eq(orders.id, id))
      .limit(1);
    if (!before) return false;
    const set: Partial<typeof orders.$inferInsert> = { updatedAt: new Date().toISOString() };
    if (update.status !== undefined) set.status = update.status;
    if (update.trackingNumber !== undefined) set.trackingNumber = update.trackingNumber?.trim() || null;
    if (update.trackingCarrier !== undefined) set.trackingCarrier = update.trackingCarrier;

    const withdrawnAt = await withdrawnAtIn(tx, id);
    const refusal = fulfilmentRefusal(before.paymentStatus, withdrawnAt);
    if (refusal) {
      const closed = before.paymentStatus === "refunded" || withdrawnAt !== null;
      const code = closed ? "order_closed" : "order_not_paid";
      const statusMoves = set.status !== undefined && set.status !== before.status;
      if (statusMoves && (closed || set.status !== "pending")) {
        throw new ShopError(409, code, refusal, { field: "status" });
      }
      const trackingChanges =
        (set.trackingNumber !== undefined && (set.trackingNumber ?? null) !== (before.trackingNumber ?? null)) ||
        (closed && set.trackingCarrier !== undefined && set.trackingCarrier !== before.trackingCarrier);
      if (trackingChanges && (closed || set.trackingNumber)) {
        throw new ShopError(409, code, closed ? refusal : NOT_PAID_TRACKING_MESSAGE, { field: "trackingNumber" });
      }
    }
    const trackingNumber = set.trackingNumber !== undefined ? set.trackingNumber : before.trackingNumber;
    const shipping = set.status === "shipped" && before.status !== "shipped";
    if (shipping && !visibleTrackingNumber(trackingNumber) && !update.confirmWithoutTracking) {
      throw new ShopError(409, "tracking_number_missing", NO_TRACKING_MESSAGE, { field: "trackingNumber" });
    }
    if (trackingNumber && !(set.trackingCarrier ?? before.trackingCarrier))
      set.trackingCarrier = (await getSettings(tx)).defaultCarrier;

    const [after] = await tx.update(orders).set(set).where(eq(orders.id, id)).returning();
    if (fulfilmentRefusal(after.paymentStatus) !== null) return true;
    if (after.status === "shipped" && before.status !== "shipped") {
      await queueOrderShippedEmail(tx, id, { trackingNumber: after.trackingNumber, trackingCarrier: after.trackingCarrier });
    } else if (after.status === "shipped" || after.status === "delivered") {
      const number = visibleTrackingNumber(after.trackingNumber);
      const changed = number !== visibleTrackingNumber(before.trackingNumber) || after.trackingCarrier !== before.trackingCarrier;
      if (number && changed) {
        await queueTrackingNumberEmail(tx, id, { trackingNumber: number, trackingCarrier: after.trackingCarrier });
      }
    }
    return true;
  });
}

/** The list's 'mark complete' button: the order is delivered. */
export async function markOrderDelivered(id: number): Promise<boolean> {
  return await updateAdminOrder(id, { status: "delivered" });
}

type ApiWithdrawal = Awaited<ReturnType<typeof withdrawalsToApi>> extends Map<number, infer W> ? W : never;

function toApi(order: AdminOrderSummary, withdrawal: ApiWithdrawal | null) {
  return {
    id: order.id,
    createdAt: order.createdAt,
    status: order.status,
    paymentStatus: order.paymentStatus,
    subtotal: centsToDecimal(order.subtotalCents),
    shipping: centsToDecimal(order.shippingCents),
    total: centsToDecimal(order.totalCents),
    refunded: centsToDecimal(order.refundedCents),
    userId: order.userId,
    customerName: order.customer,
    customerEmail: order.email,
    trackingNumber: order.trackingNumber,
    trackingCarrier: order.trackingCarrier,
    trackingUrl: order.trackingUrl,
    shippingAddress: order.shippingAddress,
    shippingAddress2: order.shippingAddress2,
    shippingPostalCode: order.shippingPostalCode,
    shippingCity: order.shippingCity,
    shippingCountry: order.shippingCountry,
    shippingPhone: order.shippingPhone,
    isSubscription: order.isSubscription,
    stripeSubscriptionId: order.stripeSubscriptionId,
    subscriptionId: order.subscriptionId,
    renewalNumber: order.renewalNumber,
    withdrawal,
    closure: orderClosure({ paymentStatus: order.paymentStatus, withdrawn: withdrawal !== null }),
  };
}

/** Orders in the JSON API's shape (prices as decimal strings), their withdrawals read in one query. */
export async function ordersToApi(list: AdminOrderSummary[]) {
  const withdrawals = await withdrawalsToApi(list.map((o) => o.id));
  return list.map((order) => toApi(order, withdrawals.get(order.id) ?? null));
}

/** The shape of an order in the JSON API (prices as decimal strings). */
export async function orderToApi(order: AdminOrderSummary) {
  return (await ordersToApi([order]))[0];
}

export function orderItemToApi(item: AdminOrderItem) {
  return {
    id: item.id,
    productId: item.productId,
    quantity: item.quantity,
    price: centsToDecimal(item.unitPriceCents),
    product: { name: item.name, variantName: item.variantName, image: item.image },
  };
}

/** The most recent orders, paid or since refunded, newest first (the dashboard). */
export async function recentOrders(limit: number) {
  return (
    await baseQuery(viewCondition("orders", "list"))
      .orderBy(...newestFirst)
      .limit(limit)
  ).map(toSummary);
}
