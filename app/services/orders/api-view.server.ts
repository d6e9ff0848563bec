import type { FulfilmentStatus, PaymentStatus } from "~/db/schema";
import { CARRIER_LABELS, type Carrier } from "~/lib/carriers";
import { centsToDecimal } from "~/lib/money";
import type { OrderProof } from "./access.server";
import { getOrderSummary, type OrderSummary } from "./summary.server";

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
  /** The promotion code the order was made with, and what it took off (including VAT). */
  promotionCode: string | null;
  discount: string;
  total: string;
  trackingNumber: string | null;
  trackingCarrier: Carrier | null;
  trackingCarrierName: string | null;
  trackingUrl: string | null;
  progressLabel: string;
  /** The final state (refunded in full, withdrawn), null while the order goes on. */
  closure: "refunded" | "withdrawn" | null;
  items: {
    id: number;
    productId: number | null;
    packId: number | null;
    quantity: number;
    price: string;
    product: { name: string; variantName: string | null };
  }[];
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
    promotionCode: order.promotionCode,
    discount: centsToDecimal(order.discountCents),
    total: centsToDecimal(order.totalCents),
    trackingNumber: order.trackingNumber,
    trackingCarrier: order.trackingCarrier,
    trackingCarrierName: order.trackingCarrier ? CARRIER_LABELS[order.trackingCarrier] : null,
    trackingUrl: order.trackingUrl,
    progressLabel: order.progressLabel,
    closure: order.closure,
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
