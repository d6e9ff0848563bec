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

export function FulfilmentBadge({ status }: { status: FulfilmentStatus }) {
  return <Badge tone={FULFILMENT_TONES[status]}>{FULFILMENT_LABELS[status]}</Badge>;
}

export function PaymentBadge({ status }: { status: PaymentStatus }) {
  return <Badge tone={PAYMENT_TONES[status]}>{PAYMENT_LABELS[status]}</Badge>;
}
