/**
 * The statuses stored on orders and contact requests. Kept apart from the drizzle schema
 * (app/db/schema.ts uses them for its columns) so the browser can use them without drizzle.
 */

export const FULFILMENT_STATUSES = ["pending", "processing", "shipped", "delivered"] as const;
export type FulfilmentStatus = (typeof FULFILMENT_STATUSES)[number];
export const PAYMENT_STATUSES = ["unpaid", "paid", "failed", "refunded", "partially_refunded"] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
/** The states of a refund, as Stripe's (services/payments/refunds.server.ts). */
export const REFUND_STATUSES = ["pending", "succeeded", "failed"] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];
export const CONTACT_STATUSES = ["non_lu", "lu", "en_cours", "traite"] as const;
export type ContactStatus = (typeof CONTACT_STATUSES)[number];

/** One label per contact status, everywhere (spec section 4). */
export const CONTACT_STATUS_LABELS: Record<ContactStatus, string> = {
  non_lu: "Non lu",
  lu: "Lu",
  en_cours: "En cours",
  traite: "Traité",
};
