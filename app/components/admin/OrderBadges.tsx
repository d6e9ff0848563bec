import type { FulfilmentStatus, PaymentStatus } from "~/db/schema";
import { FULFILMENT_LABELS, PAYMENT_LABELS } from "~/lib/order-status";
import { Badge, type Tone } from "./ui";

const FULFILMENT_TONES: Record<FulfilmentStatus, Tone> = {
  pending: "gray",
  processing: "yellow",
  shipped: "blue",
  delivered: "green",
};

const PAYMENT_TONES: Record<PaymentStatus, Tone> = {
  unpaid: "yellow",
  paid: "green",
  failed: "red",
  refunded: "violet",
  partially_refunded: "violet",
};

/**
 * The order's step. Given its payment state, none for an order refunded in full: its payment
 * badge (« Remboursée ») is then its one state, never next to « Commande reçue ».
 */
export function FulfilmentBadge({ status, paymentStatus }: { status: FulfilmentStatus; paymentStatus?: PaymentStatus }) {
  if (paymentStatus === "refunded") return null;
  return <Badge tone={FULFILMENT_TONES[status]}>{FULFILMENT_LABELS[status]}</Badge>;
}

export function PaymentBadge({ status }: { status: PaymentStatus }) {
  return <Badge tone={PAYMENT_TONES[status]}>{PAYMENT_LABELS[status]}</Badge>;
}
