import type { FulfilmentStatus, PaymentStatus } from "~/db/schema";
import { CLOSURE_LABELS, FULFILMENT_LABELS, orderClosure, PAYMENT_LABELS, paymentReceived } from "~/lib/order-status";
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

/**
 * Where an order stands, in a list of the back office (orders, dashboard, customer record,
 * subscription): a refunded or withdrawn order has one final state alone (« Remboursée »,
 * « Rétractation enregistrée »), as on its own page; an unpaid checkout its payment state only;
 * any other order its step and its payment.
 */
export function OrderStateBadges({
  status,
  paymentStatus,
  withdrawn = false,
}: {
  status: FulfilmentStatus;
  paymentStatus: PaymentStatus;
  withdrawn?: boolean;
}) {
  const closure = orderClosure({ paymentStatus, withdrawn });
  if (closure) {
    return (
      <span data-testid="order-final-state-badge" className="inline-flex">
        <Badge tone="violet">{CLOSURE_LABELS[closure]}</Badge>
      </span>
    );
  }
  return (
    <>
      {paymentReceived(paymentStatus) ? <FulfilmentBadge status={status} paymentStatus={paymentStatus} /> : null}
      <PaymentBadge status={paymentStatus} />
    </>
  );
}
