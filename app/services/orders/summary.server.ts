import { asc, eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import {
  orderItems,
  orders,
  products,
  withdrawalRequests,
  type FulfilmentStatus,
  type Order,
  type PaymentStatus,
} from "~/db/schema";
import { carrierTrackingUrl, type Carrier } from "~/lib/carriers";
import {
  closureDescription,
  orderClosure,
  orderProgressLabel,
  visibleTrackingNumber,
  type OrderClosure,
} from "~/lib/order-status";
import { findInvoice } from "~/services/invoices.server";
import { subscriptionRefusal } from "~/services/packs.server";
import { canViewOrder, holdsOrder, type OrderProof } from "./access.server";
import { orderCreditNotePath, orderInvoicePath } from "./link.server";

/** What the confirmation and tracking pages show of an order, to its owner or to anyone with its number. */

export type OrderSummary = {
  id: number;
  createdAt: string;
  status: FulfilmentStatus;
  paymentStatus: PaymentStatus;
  subtotalCents: number;
  shippingCents: number;
  /** The promotion code and its discount (0 without one). */
  promotionCode: string | null;
  discountCents: number;
  totalCents: number;
  /** True when the request proved it may view the order (canViewOrder): the name, the street, the email and the documents are shown. */
  owner: boolean;
  /**
   * True for the buyer's own browser or the order token only (holdsOrder): the one who may
   * be shown the link to the subscription's page. A view link or a typed email never is.
   */
  holder: boolean;
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
  /** The order's final state (refunded in full, withdrawn), shown alone instead of the steps; null while it goes on. */
  closure: OrderClosure | null;
  /** What that final state means for the customer (lib/order-status.ts), null while it goes on. */
  closureText: string | null;
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

async function summarize(order: Order, proof: OrderProof): Promise<OrderSummary> {
  const owner = canViewOrder(order, proof);
  const withdrawn = Boolean(
    (
      await getDb()
        .select({ id: withdrawalRequests.id })
        .from(withdrawalRequests)
        .where(eq(withdrawalRequests.orderId, order.id))
        .limit(1)
    )[0],
  );
  const closure = orderClosure({ paymentStatus: order.paymentStatus, withdrawn });
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
    promotionCode: order.promotionCode,
    discountCents: order.discountCents,
    totalCents: order.totalCents,
    owner,
    holder: holdsOrder(order, proof),
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
    progressLabel: orderProgressLabel({ ...order, withdrawn }),
    closure,
    closureText: closure ? closureDescription(closure, order.status) : null,
    ...(await documentLinks(order.id, owner)),
    hasTrialPack: (await subscriptionRefusal(items)) !== null,
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
  return order ? await summarize(order, proof) : null;
}

/**
 * The tracking page: with an email typed, the order only when it is that order's email (then
 * with its full details); an unknown number and a wrong email give the same answer (null).
 */
export async function findTrackedOrder(id: number, proof: OrderProof): Promise<OrderSummary | null> {
  const order = await findOrderRow(id);
  if (!order) return null;
  if (proof.email != null && proof.email.trim() !== "" && !canViewOrder(order, { email: proof.email })) return null;
  return await summarize(order, proof);
}
