import { asc, eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { orderItems, orders, products, type FulfilmentStatus, type Order, type PaymentStatus } from "~/db/schema";
import { CURRENT_TERMS_VERSION } from "~/legal/terms-of-sale";
import { centsToDecimal } from "~/lib/money";
import { displayName, splitFullName } from "~/lib/names";
import { carrierTrackingUrl, CARRIER_LABELS, type Carrier } from "~/lib/carriers";
import { orderProgressLabel, paymentReceived, visibleTrackingNumber } from "~/lib/order-status";
import { ShopError, type ShopIssue } from "~/lib/shop-error";
import { DELIVERY_COUNTRY } from "~/schemas/delivery";
import type { ApiOrderInput } from "~/schemas/order";
import { SHIPPING_CENTS } from "./cart.server";
import { findOrCreateCustomer, linkableCustomerId, type DbOrTx } from "./customers.server";
import { newOrderId } from "~/services/orders/ids.server";
import { newOrderToken, ownsOrder, type OrderProof } from "~/services/orders/access.server";
import { findInvoice } from "./invoices.server";
import { orderCreditNotePath, orderInvoicePath } from "~/services/orders/link.server";
import { MAX_ORDER_LINES, PACK_MESSAGES, quantityRefusal, sellableItem, subscriptionRefusal, trialRefusal } from "./packs.server";

type OrderErrorCode =
  | "product_not_found"
  | "out_of_stock"
  | "invalid_pack"
  | "not_sold"
  | "empty_cart"
  | "already_paid"
  | "too_many_lines"
  | "quantity_limit"
  | "price_mismatch"
  | "trial_used"
  | "trial_one_off_only";

const ORDER_ERROR_STATUS: Record<OrderErrorCode, number> = {
  product_not_found: 404,
  out_of_stock: 409,
  invalid_pack: 422,
  not_sold: 409,
  empty_cart: 422,
  already_paid: 409,
  too_many_lines: 422,
  quantity_limit: 422,
  price_mismatch: 422,
  trial_used: 409,
  trial_one_off_only: 422,
};

/** A refusal a shopper or API client can act on; the message is French and safe to show. */
export class OrderError extends ShopError {
  declare readonly code: OrderErrorCode;

  constructor(code: OrderErrorCode, message: string, options: { field?: string; issues?: ShopIssue[] } = {}) {
    super(ORDER_ERROR_STATUS[code], code, message, options);
    this.name = "OrderError";
  }
}

type OrderLineInput = {
  productId: number;
  packId?: number | null;
  variantName?: string | null;
  /** The unit price the client expects, in cents: names the pack when it is exactly one pack's price. */
  price?: number | null;
  quantity: number;
};

type PricedLine = {
  productId: number;
  packId: number | null;
  quantity: number;
  unitPriceCents: number;
  productName: string;
  variantName: string | null;
};

/**
 * Prices lines from the packs as they are now (never from what the client sent): one line,
 * naming one of the product's active packs (or none, for a product sold as a single item), in
 * a quantity the pack allows. The order items keep this name and price: a later change of the
 * pack changes no order. `path` prefixes the refusals' fields ("items").
 */
export async function priceOrderLines(db: DbOrTx, lines: OrderLineInput[], path = "items"): Promise<PricedLine[]> {
  if (lines.length === 0) throw new OrderError("empty_cart", "La commande doit contenir au moins un article.", { field: path });
  if (lines.length > MAX_ORDER_LINES) throw new OrderError("too_many_lines", PACK_MESSAGES.oneLine(), { field: path });
  const priced: PricedLine[] = [];
  for (const [index, line] of lines.entries()) {
    const [product] = await db
      .select({ id: products.id, name: products.name, stock: products.stock, priceCents: products.priceCents, saleWithoutPack: products.saleWithoutPack })
      .from(products)
      .where(eq(products.id, line.productId))
      .limit(1);
    if (!product) throw new OrderError("product_not_found", `Produit ${line.productId} introuvable`, { field: `${path}.${index}.productId` });
    if (product.stock <= 0) throw new OrderError("out_of_stock", `Le produit « ${product.name} » est en rupture de stock`, { field: `${path}.${index}.productId` });
    const sale = await sellableItem(product, { packId: line.packId, variantName: line.variantName, priceCents: line.price }, db);
    if ("refusal" in sale) throw new OrderError(sale.refusal, sale.message, { field: `${path}.${index}` });
    const refusal = await quantityRefusal(sale.item, line.quantity, db);
    if (refusal) throw new OrderError("quantity_limit", refusal, { field: `${path}.${index}.quantity` });
    priced.push({
      productId: product.id,
      packId: sale.item.pack?.id ?? null,
      quantity: line.quantity,
      unitPriceCents: sale.item.priceCents,
      productName: product.name,
      variantName: sale.item.name,
    });
  }
  return priced;
}

const subtotalOf = (lines: PricedLine[]) => lines.reduce((sum, l) => sum + l.unitPriceCents * l.quantity, 0);

/**
 * The amounts a client sent are checked, never used: a unit price or a total that is not the
 * server's is refused with the expected amounts (one issue each).
 */
function assertClientAmounts(input: { items: { price?: number | null }[]; total?: number | null }, lines: PricedLine[]) {
  const issues: ShopIssue[] = [];
  input.items.forEach((item, index) => {
    const expected = lines[index]?.unitPriceCents;
    if (item.price != null && expected !== undefined && item.price !== expected) {
      issues.push({ path: `items.${index}.price`, message: `Prix attendu : ${centsToDecimal(expected)}` });
    }
  });
  const total = subtotalOf(lines) + SHIPPING_CENTS;
  if (input.total != null && input.total !== total) issues.push({ path: "total", message: `Total attendu : ${centsToDecimal(total)}` });
  if (issues.length) {
    throw new OrderError("price_mismatch", "Les montants envoyés ne sont pas ceux de la boutique : les montants attendus sont indiqués.", { issues });
  }
}

/** Who the order is for and where it goes: the order's own snapshot, never read back from an account. */
type OrderContact = {
  email: string | null;
  firstName: string;
  lastName: string;
  address: string;
  /** « Complément d'adresse », optional. */
  address2?: string | null;
  postalCode: string;
  city: string;
  country: string;
  /** For the carrier, optional (+33XXXXXXXXX). */
  phone?: string | null;
};

type OrderDraft = {
  contact: OrderContact;
  lines: PricedLine[];
  /** A client named by its id (POST /api/orders `userId`), linked instead of the email's. */
  userId?: number | null;
  cartId?: string | null;
  checkoutKey?: string | null;
  tokenHash?: string | null;
};

/** The customer account the order is linked to: the one named, else the email's (found or created, never changed). */
async function customerIdFor(db: DbOrTx, draft: OrderDraft): Promise<number | null> {
  if (draft.userId != null) return draft.userId;
  const c = draft.contact;
  if (!c.email) return null;
  return (await findOrCreateCustomer(db, { ...c, email: c.email })).id;
}

function snapshotValues(c: OrderContact) {
  return {
    customerEmail: c.email,
    customerName: displayName(c) ?? "",
    customerFirstName: c.firstName || null,
    customerLastName: c.lastName || null,
    shippingAddress: c.address,
    shippingAddress2: c.address2 ?? null,
    shippingPostalCode: c.postalCode,
    shippingCity: c.city,
    shippingCountry: c.country,
    shippingPhone: c.phone ?? null,
  };
}

async function orderValues(db: DbOrTx, draft: OrderDraft) {
  const subtotalCents = subtotalOf(draft.lines);
  return {
    subtotalCents,
    shippingCents: SHIPPING_CENTS,
    totalCents: subtotalCents + SHIPPING_CENTS,
    userId: await customerIdFor(db, draft),
    ...snapshotValues(draft.contact),
  };
}

async function insertItems(db: DbOrTx, orderId: number, lines: PricedLine[]) {
  await db.insert(orderItems)
    .values(lines.map((l) => ({ orderId, ...l })));
}

/** Refuses the trial pack for an email that already bought it. */
async function assertTrialAvailable(db: DbOrTx, email: string | null, lines: { packId: number | null }[], orderId?: number, field = "customerEmail") {
  const refusal = await trialRefusal(db, { email, lines, orderId });
  if (refusal) throw new OrderError("trial_used", refusal, { field });
}

/** Links or creates the customer, creates the order and its items. Call inside a transaction. */
export async function insertOrder(db: DbOrTx, draft: OrderDraft): Promise<number> {
  await assertTrialAvailable(db, draft.contact.email, draft.lines, undefined, "email");
  const id = await newOrderId(db);
  await db.insert(orders)
    .values({
      id,
      status: "pending",
      // paymentStatus 'unpaid' and isSubscription false: the table's defaults. Only the
      // payment state (services/payments/payment-state.server.ts) changes them afterwards.
      cartId: draft.cartId ?? null,
      checkoutKey: draft.checkoutKey ?? null,
      tokenHash: draft.tokenHash ?? null,
      // The terms of sale accepted with this order; rewriteUnpaidOrder keeps them.
      termsVersion: CURRENT_TERMS_VERSION,
      ...await orderValues(db, draft),
    });
  await insertItems(db, id, draft.lines);
  return id;
}

/** Rewrites an unpaid order with new delivery details (and, if asked, new items). Call inside a transaction. */
export async function rewriteUnpaidOrder(db: DbOrTx, orderId: number, draft: OrderDraft, options: { replaceItems: boolean }) {
  await assertTrialAvailable(db, draft.contact.email, draft.lines, orderId, "email");
  await db.update(orders)
    .set({ ...await orderValues(db, draft), checkoutKey: draft.checkoutKey ?? null })
    .where(eq(orders.id, orderId));
  if (options.replaceItems) {
    await db.delete(orderItems).where(eq(orderItems.orderId, orderId));
    await insertItems(db, orderId, draft.lines);
  }
}

export type CreatedApiOrder = ApiOrderView & {
  /** Shown once: proves ownership of the order (X-Order-Token header, ?token= or a `token` body field). */
  token: string;
};

/**
 * POST /api/orders: one transaction; amounts checked against the packs, status decided here
 * (pending, unpaid). The customer named by `userId` or found by email is linked, never changed.
 * Answers the order as its owner sees it, with its token.
 */
export async function createOrderFromApi(input: ApiOrderInput): Promise<CreatedApiOrder> {
  const { firstName, lastName } = splitFullName(input.customerName);
  const { token, hash } = newOrderToken();
  const id = await getDb().transaction(async (tx) => {
    const lines = await priceOrderLines(tx, input.items);
    assertClientAmounts(input, lines);
    await assertTrialAvailable(tx, input.customerEmail ?? null, lines);
    return await insertOrder(tx, {
      contact: {
        email: input.customerEmail ?? null,
        firstName,
        lastName,
        address: input.shippingAddress,
        address2: input.shippingAddress2 ?? null,
        postalCode: input.shippingPostalCode,
        city: input.shippingCity,
        country: input.shippingCountry || DELIVERY_COUNTRY,
        phone: input.shippingPhone ?? null,
      },
      lines,
      userId: await linkableCustomerId(tx, input.userId),
      tokenHash: hash,
    });
  });
  return { ...(await getApiOrder(id, { admin: true }))!, token };
}

/** The checkout fields of PUT /api/orders/{id}, for the order's owner (or an administrator). */
export type OrderCheckoutUpdate = { customerEmail?: string; customerName?: string; isSubscription?: boolean };

function isPaid(order: Pick<Order, "paymentStatus">) {
  return paymentReceived(order.paymentStatus);
}

/**
 * The spec's checkout update, while the order is unpaid: the email (linking the order to that
 * email's customer, never changing an account) and the name. `isSubscription` changes nothing
 * (the mode is chosen when the payment starts) but is refused for the trial pack.
 * Returns false when there is no such order.
 */
export async function updateOrderCheckout(orderId: number, update: OrderCheckoutUpdate): Promise<boolean> {
  return await getDb().transaction(async (tx) => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).limit(1);
    if (!order) return false;
    const hasChange = update.customerEmail !== undefined || update.customerName !== undefined || update.isSubscription !== undefined;
    if (!hasChange) return true;
    if (isPaid(order)) throw new OrderError("already_paid", "Cette commande a déjà été réglée : ses informations ne peuvent plus changer.");
    const lines = await tx.select({ packId: orderItems.packId }).from(orderItems).where(eq(orderItems.orderId, orderId));
    if (update.isSubscription === true) {
      const refusal = await subscriptionRefusal(lines, tx);
      if (refusal) throw new OrderError("trial_one_off_only", refusal, { field: "isSubscription" });
    }
    const set: Partial<typeof orders.$inferInsert> = {};
    if (update.customerEmail !== undefined && update.customerEmail !== order.customerEmail) {
      await assertTrialAvailable(tx, update.customerEmail, lines, orderId);
      const name = splitFullName(update.customerName ?? order.customerName);
      set.customerEmail = update.customerEmail;
      set.userId = (await findOrCreateCustomer(tx, {
        email: update.customerEmail,
        firstName: order.customerFirstName ?? name.firstName,
        lastName: order.customerLastName ?? name.lastName,
        address: order.shippingAddress ?? "",
        postalCode: order.shippingPostalCode ?? "",
        city: order.shippingCity ?? "",
        country: order.shippingCountry ?? DELIVERY_COUNTRY,
      })).id;
    }
    if (update.customerName !== undefined) {
      const { firstName, lastName } = splitFullName(update.customerName);
      set.customerName = update.customerName.trim().replace(/\s+/g, " ");
      set.customerFirstName = firstName || null;
      set.customerLastName = lastName || null;
    }
    if (Object.keys(set).length) await tx.update(orders).set(set).where(eq(orders.id, orderId));
    return true;
  });
}

export type OrderSummary = {
  id: number;
  createdAt: string;
  status: FulfilmentStatus;
  paymentStatus: PaymentStatus;
  subtotalCents: number;
  shippingCents: number;
  totalCents: number;
  /** True when the request proved it owns the order: the name, the street and the email are shown. */
  owner: boolean;
  /** Null unless `owner`. */
  customerName: string | null;
  /** Null unless `owner`. */
  customerEmail: string | null;
  /** Null unless `owner`. */
  shippingAddress: string | null;
  /** Null unless `owner`. */
  shippingAddress2: string | null;
  /** The carrier's telephone (+33...); null unless `owner`. */
  shippingPhone: string | null;
  shippingPostalCode: string | null;
  shippingCity: string | null;
  shippingCountry: string | null;
  /** Null when empty or the text 'null' (spec rule). */
  trackingNumber: string | null;
  trackingCarrier: Carrier | null;
  /** The carrier's page to follow the parcel, when the number and its carrier are known. */
  trackingUrl: string | null;
  /** Where the order stands in one phrase: 'Paiement non reçu : ...' before the payment (lib/order-status.ts). */
  progressLabel: string;
  /** The customer's links to the invoice and the credit note (with the order link's key): owner only, once issued. */
  invoicePath: string | null;
  invoiceNumber: string | null;
  creditNotePath: string | null;
  /** The order holds the trial pack (no subscription offered). */
  hasTrialPack: boolean;
  items: {
    id: number;
    productId: number | null;
    packId: number | null;
    productName: string;
    variantName: string | null;
    quantity: number;
    unitPriceCents: number;
    lineTotalCents: number;
  }[];
};

async function findOrderRow(id: number): Promise<Order | undefined> {
  if (!Number.isSafeInteger(id) || id < 1) return undefined;
  return (await getDb().select().from(orders).where(eq(orders.id, id)).limit(1))[0];
}

async function summarize(order: Order, owner: boolean): Promise<OrderSummary> {
  const items = await getDb()
    .select({
      id: orderItems.id,
      productId: orderItems.productId,
      packId: orderItems.packId,
      productName: orderItems.productName,
      currentName: products.name,
      variantName: orderItems.variantName,
      quantity: orderItems.quantity,
      unitPriceCents: orderItems.unitPriceCents,
    })
    .from(orderItems)
    .leftJoin(products, eq(products.id, orderItems.productId))
    .where(eq(orderItems.orderId, order.id))
    .orderBy(asc(orderItems.id));
  return {
    id: order.id,
    createdAt: order.createdAt,
    status: order.status,
    paymentStatus: order.paymentStatus,
    subtotalCents: order.subtotalCents,
    shippingCents: order.shippingCents,
    totalCents: order.totalCents,
    owner,
    customerName: owner ? order.customerName?.trim() || null : null,
    customerEmail: owner ? order.customerEmail : null,
    shippingAddress: owner ? order.shippingAddress : null,
    shippingAddress2: owner ? order.shippingAddress2 : null,
    shippingPhone: owner ? order.shippingPhone : null,
    shippingPostalCode: order.shippingPostalCode,
    shippingCity: order.shippingCity,
    shippingCountry: order.shippingCountry,
    trackingNumber: visibleTrackingNumber(order.trackingNumber),
    trackingCarrier: order.trackingCarrier,
    trackingUrl: carrierTrackingUrl(order.trackingCarrier, visibleTrackingNumber(order.trackingNumber)),
    progressLabel: orderProgressLabel(order),
    ...await documentLinks(order.id, owner),
    hasTrialPack: await subscriptionRefusal(items) !== null,
    items: items.map((i) => ({
      id: i.id,
      productId: i.productId,
      packId: i.packId,
      productName: i.productName ?? i.currentName ?? "Produit inconnu",
      variantName: i.variantName,
      quantity: i.quantity,
      unitPriceCents: i.unitPriceCents,
      lineTotalCents: i.unitPriceCents * i.quantity,
    })),
  };
}

async function documentLinks(orderId: number, owner: boolean) {
  const invoice = owner ? await findInvoice(orderId, "invoice") : undefined;
  const creditNote = invoice ? await findInvoice(orderId, "credit_note") : undefined;
  return {
    invoicePath: invoice ? orderInvoicePath(orderId) : null,
    invoiceNumber: invoice?.number ?? null,
    creditNotePath: creditNote ? orderCreditNotePath(orderId) : null,
  };
}

/**
 * What the confirmation and tracking pages show. With the order number alone: the progress,
 * the items, the total, the postcode and the city. The name, the street and the email only
 * for a request that proves it owns the order (see orders/access.server.ts).
 */
export async function getOrderSummary(id: number, proof: OrderProof = {}): Promise<OrderSummary | null> {
  const order = await findOrderRow(id);
  return order ? await summarize(order, ownsOrder(order, proof)) : null;
}

/**
 * The tracking page: with an email typed, the order only when it is that order's email (then
 * with its full details); an unknown number and a wrong email give the same answer (null).
 */
export async function findTrackedOrder(id: number, proof: OrderProof): Promise<OrderSummary | null> {
  const order = await findOrderRow(id);
  if (!order) return null;
  if (proof.email != null && proof.email.trim() !== "" && !ownsOrder(order, { email: proof.email })) return null;
  return await summarize(order, ownsOrder(order, proof));
}

/** GET /api/orders/{id} (spec section 7): prices as decimal strings; name, street and email for the owner only. */
export type ApiOrderView = {
  id: number;
  status: FulfilmentStatus;
  paymentStatus: PaymentStatus;
  createdAt: string;
  /** "owner" when the request proved it owns the order; "public" shows no name, street or email. */
  access: "owner" | "public";
  customerName: string | null;
  customerEmail: string | null;
  shippingAddress: string | null;
  shippingAddress2: string | null;
  shippingPostalCode: string | null;
  shippingCity: string | null;
  shippingCountry: string | null;
  shippingPhone: string | null;
  subtotal: string;
  shipping: string;
  total: string;
  trackingNumber: string | null;
  trackingCarrier: Carrier | null;
  trackingCarrierName: string | null;
  trackingUrl: string | null;
  progressLabel: string;
  items: { id: number; productId: number | null; packId: number | null; quantity: number; price: string; product: { name: string; variantName: string | null } }[];
};

export function toApiOrderView(order: OrderSummary): ApiOrderView {
  return {
    id: order.id,
    status: order.status,
    paymentStatus: order.paymentStatus,
    createdAt: new Date(order.createdAt).toISOString(),
    access: order.owner ? "owner" : "public",
    customerName: order.customerName,
    customerEmail: order.customerEmail,
    shippingAddress: order.shippingAddress,
    shippingAddress2: order.shippingAddress2,
    shippingPostalCode: order.shippingPostalCode,
    shippingCity: order.shippingCity,
    shippingCountry: order.shippingCountry,
    shippingPhone: order.shippingPhone,
    subtotal: centsToDecimal(order.subtotalCents),
    shipping: centsToDecimal(order.shippingCents),
    total: centsToDecimal(order.totalCents),
    trackingNumber: order.trackingNumber,
    trackingCarrier: order.trackingCarrier,
    trackingCarrierName: order.trackingCarrier ? CARRIER_LABELS[order.trackingCarrier] : null,
    trackingUrl: order.trackingUrl,
    progressLabel: order.progressLabel,
    items: order.items.map((i) => ({
      id: i.id,
      productId: i.productId,
      packId: i.packId,
      quantity: i.quantity,
      price: centsToDecimal(i.unitPriceCents),
      product: { name: i.productName, variantName: i.variantName },
    })),
  };
}

export async function getApiOrder(id: number, proof: OrderProof = {}): Promise<ApiOrderView | null> {
  const order = await getOrderSummary(id, proof);
  return order ? toApiOrderView(order) : null;
}
