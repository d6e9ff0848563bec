import { randomInt } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { orderItems, orders, products, type FulfilmentStatus, type PaymentStatus } from "~/db/schema";
import { centsToDecimal } from "~/lib/money";
import { displayName, splitFullName } from "~/lib/names";
import { visibleTrackingNumber } from "~/lib/order-status";
import { findPack, findPackByName } from "~/lib/packs";
import { DELIVERY_COUNTRY } from "~/schemas/delivery";
import type { ApiOrderInput } from "~/schemas/order";
import { SHIPPING_CENTS } from "./cart.server";
import { findOrCreateCustomer, type CustomerInput, type DbOrTx } from "./customers.server";

type OrderErrorCode = "product_not_found" | "out_of_stock" | "invalid_pack" | "empty_cart" | "already_paid";

/** A refusal a shopper or API client can act on; the message is French and safe to show. */
export class OrderError extends Error {
  constructor(
    public code: OrderErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "OrderError";
  }
}

type OrderLineInput = { productId: number; packId?: number | null; variantName?: string | null; quantity: number };

type PricedLine = {
  productId: number;
  packId: number | null;
  quantity: number;
  unitPriceCents: number;
  productName: string;
  variantName: string | null;
};

/** Prices lines from the catalogue and the packs: nothing the client sent about money is used. */
export function priceOrderLines(db: DbOrTx, lines: OrderLineInput[]): PricedLine[] {
  if (lines.length === 0) throw new OrderError("empty_cart", "La commande doit contenir au moins un article.");
  return lines.map((line) => {
    const product = db
      .select({ id: products.id, name: products.name, priceCents: products.priceCents, stock: products.stock })
      .from(products)
      .where(eq(products.id, line.productId))
      .get();
    if (!product) throw new OrderError("product_not_found", `Produit ${line.productId} introuvable`);
    if (product.stock <= 0) throw new OrderError("out_of_stock", `Le produit « ${product.name} » est en rupture de stock`);
    const pack = line.packId != null ? findPack(line.packId) : findPackByName(line.variantName?.trim());
    if (line.packId != null && !pack) throw new OrderError("invalid_pack", `Pack ${line.packId} inconnu`);
    return {
      productId: product.id,
      packId: pack?.id ?? null,
      quantity: line.quantity,
      unitPriceCents: pack ? pack.priceCents : product.priceCents,
      productName: product.name,
      variantName: pack?.name ?? null,
    };
  });
}

type OrderDraft = {
  customer: CustomerInput;
  lines: PricedLine[];
  cartId?: string | null;
  checkoutKey?: string | null;
};

/** Random, non-sequential 9-digit order number, so one number tells nothing about another. */
function newOrderId(db: DbOrTx): number {
  for (;;) {
    const id = randomInt(100_000_000, 1_000_000_000);
    if (!db.select({ id: orders.id }).from(orders).where(eq(orders.id, id)).get()) return id;
  }
}

function orderValues(draft: OrderDraft, userId: number) {
  const subtotalCents = draft.lines.reduce((sum, l) => sum + l.unitPriceCents * l.quantity, 0);
  const c = draft.customer;
  return {
    subtotalCents,
    shippingCents: SHIPPING_CENTS,
    totalCents: subtotalCents + SHIPPING_CENTS,
    userId,
    customerEmail: c.email,
    customerName: displayName(c) ?? "",
    shippingAddress: c.address,
    shippingPostalCode: c.postalCode,
    shippingCity: c.city,
    shippingCountry: c.country,
  };
}

function insertItems(db: DbOrTx, orderId: number, lines: PricedLine[]) {
  db.insert(orderItems)
    .values(lines.map((l) => ({ orderId, ...l })))
    .run();
}

/** Creates the customer (or finds them by email), the order and its items. Call inside a transaction. */
export function insertOrder(db: DbOrTx, draft: OrderDraft): number {
  const customer = findOrCreateCustomer(db, draft.customer);
  const id = newOrderId(db);
  db.insert(orders)
    .values({
      id,
      status: "pending",
      // paymentStatus 'unpaid' and isSubscription false: the table's defaults. Only the
      // payment state (services/payments/payment-state.server.ts) changes them afterwards.
      cartId: draft.cartId ?? null,
      checkoutKey: draft.checkoutKey ?? null,
      ...orderValues(draft, customer.id),
    })
    .run();
  insertItems(db, id, draft.lines);
  return id;
}

/** Rewrites an unpaid order with new delivery details (and, if asked, new items). Call inside a transaction. */
export function rewriteUnpaidOrder(db: DbOrTx, orderId: number, draft: OrderDraft, options: { replaceItems: boolean }) {
  const customer = findOrCreateCustomer(db, draft.customer);
  db.update(orders)
    .set({ ...orderValues(draft, customer.id), checkoutKey: draft.checkoutKey ?? null })
    .where(eq(orders.id, orderId))
    .run();
  if (options.replaceItems) {
    db.delete(orderItems).where(eq(orderItems.orderId, orderId)).run();
    insertItems(db, orderId, draft.lines);
  }
}

/** POST /api/orders: one transaction; totals, status and customer decided here. */
export function createOrderFromApi(input: ApiOrderInput): PublicOrder {
  const { firstName, lastName } = splitFullName(input.customerName);
  const id = getDb().transaction((tx) => {
    const lines = priceOrderLines(tx, input.items);
    return insertOrder(tx, {
      customer: {
        email: input.customerEmail,
        firstName,
        lastName,
        address: input.shippingAddress,
        postalCode: input.shippingPostalCode,
        city: input.shippingCity,
        country: input.shippingCountry || DELIVERY_COUNTRY,
      },
      lines,
    });
  });
  return getPublicOrder(id)!;
}

export type OrderSummary = {
  id: number;
  createdAt: string;
  status: FulfilmentStatus;
  paymentStatus: PaymentStatus;
  subtotalCents: number;
  shippingCents: number;
  totalCents: number;
  shippingAddress: string | null;
  shippingPostalCode: string | null;
  shippingCity: string | null;
  shippingCountry: string | null;
  /** Null when empty or the text 'null' (spec rule). */
  trackingNumber: string | null;
  items: {
    id: number;
    productId: number | null;
    productName: string;
    variantName: string | null;
    quantity: number;
    unitPriceCents: number;
    lineTotalCents: number;
  }[];
};

/** What the confirmation and tracking pages show: no email, no customer account data. */
export function getOrderSummary(id: number): OrderSummary | null {
  if (!Number.isSafeInteger(id) || id < 1) return null;
  const db = getDb();
  const order = db.select().from(orders).where(eq(orders.id, id)).get();
  if (!order) return null;
  const items = db
    .select({
      id: orderItems.id,
      productId: orderItems.productId,
      productName: orderItems.productName,
      currentName: products.name,
      variantName: orderItems.variantName,
      quantity: orderItems.quantity,
      unitPriceCents: orderItems.unitPriceCents,
    })
    .from(orderItems)
    .leftJoin(products, eq(products.id, orderItems.productId))
    .where(eq(orderItems.orderId, id))
    .orderBy(asc(orderItems.id))
    .all();
  return {
    id: order.id,
    createdAt: order.createdAt,
    status: order.status,
    paymentStatus: order.paymentStatus,
    subtotalCents: order.subtotalCents,
    shippingCents: order.shippingCents,
    totalCents: order.totalCents,
    shippingAddress: order.shippingAddress,
    shippingPostalCode: order.shippingPostalCode,
    shippingCity: order.shippingCity,
    shippingCountry: order.shippingCountry,
    trackingNumber: visibleTrackingNumber(order.trackingNumber),
    items: items.map((i) => ({
      id: i.id,
      productId: i.productId,
      productName: i.productName ?? i.currentName ?? "Produit inconnu",
      variantName: i.variantName,
      quantity: i.quantity,
      unitPriceCents: i.unitPriceCents,
      lineTotalCents: i.unitPriceCents * i.quantity,
    })),
  };
}

/** GET /api/orders/{id} (spec section 7): prices as decimal strings, never any account data. */
type PublicOrder = {
  id: number;
  status: FulfilmentStatus;
  paymentStatus: PaymentStatus;
  createdAt: string;
  shippingAddress: string | null;
  shippingPostalCode: string | null;
  shippingCity: string | null;
  shippingCountry: string | null;
  subtotal: string;
  shipping: string;
  total: string;
  trackingNumber: string | null;
  items: { id: number; productId: number | null; quantity: number; price: string; product: { name: string; variantName: string | null } }[];
};

export function getPublicOrder(id: number): PublicOrder | null {
  const order = getOrderSummary(id);
  if (!order) return null;
  return {
    id: order.id,
    status: order.status,
    paymentStatus: order.paymentStatus,
    createdAt: new Date(order.createdAt).toISOString(),
    shippingAddress: order.shippingAddress,
    shippingPostalCode: order.shippingPostalCode,
    shippingCity: order.shippingCity,
    shippingCountry: order.shippingCountry,
    subtotal: centsToDecimal(order.subtotalCents),
    shipping: centsToDecimal(order.shippingCents),
    total: centsToDecimal(order.totalCents),
    trackingNumber: order.trackingNumber,
    items: order.items.map((i) => ({
      id: i.id,
      productId: i.productId,
      quantity: i.quantity,
      price: centsToDecimal(i.unitPriceCents),
      product: { name: i.productName, variantName: i.variantName },
    })),
  };
}
