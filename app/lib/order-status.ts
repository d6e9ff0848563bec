import type { FulfilmentStatus, PaymentStatus } from "~/db/schema";

/** Fulfilment steps, in order (spec section 4). */
export const FULFILMENT_STEPS: { status: FulfilmentStatus; label: string }[] = [
  { status: "pending", label: "Commande reçue" },
  { status: "processing", label: "En préparation" },
  { status: "shipped", label: "Expédiée" },
  { status: "delivered", label: "Livrée" },
];

export const FULFILMENT_LABELS: Record<FulfilmentStatus, string> = {
  pending: "Commande reçue",
  processing: "En préparation",
  shipped: "Expédiée",
  delivered: "Livrée",
};

/**
 * One label per payment state, everywhere (the confirmation page's spec badge excepted: 'Payée' /
 * 'En attente'): the order is « Payée » or « Remboursée »; a checkout not paid says so of its
 * payment (« Paiement en attente », « Paiement refusé »), never a lone « Échouée ».
 */
export const PAYMENT_LABELS: Record<PaymentStatus, string> = {
  unpaid: "Paiement en attente",
  paid: "Payée",
  failed: "Paiement refusé",
  refunded: "Remboursée",
  partially_refunded: "Partiellement remboursée",
};

/**
 * The same states after « Paiement : » (the payment, not the order, is the subject): « Paiement :
 * reçu », never « Paiement : Payée ».
 */
export const PAYMENT_STATE_WORDS: Record<PaymentStatus, string> = {
  unpaid: "en attente",
  paid: "reçu",
  failed: "refusé",
  refunded: "remboursé",
  partially_refunded: "remboursé en partie",
};

/** The choices of a list's « Paiement » filter: « Paiement : Reçu », never « Paiement : Payée ». */
export const PAYMENT_FILTER_LABELS = Object.fromEntries(
  Object.entries(PAYMENT_STATE_WORDS).map(([state, words]) => [state, words.charAt(0).toUpperCase() + words.slice(1)]),
) as Record<PaymentStatus, string>;

/** What a tracking lookup says of an order whose payment has not been received. */
export const PAYMENT_NOT_RECEIVED = "Paiement non reçu : cette commande n'est pas encore payée.";

/** Whether the order's payment has been received (paid, or paid then refunded in part or in full). */
export function paymentReceived(paymentStatus: PaymentStatus): boolean {
  return paymentStatus === "paid" || paymentStatus === "refunded" || paymentStatus === "partially_refunded";
}

/**
 * An order that no longer moves along the shipping steps: refunded in full, or withdrawn by its
 * customer (online withdrawal recorded, its refund to come). It then has one state, shown alone
 * everywhere (tracking, confirmation, back office, API), never next to a fulfilment step.
 */
export type OrderClosure = "refunded" | "withdrawn";

export const CLOSURE_LABELS: Record<OrderClosure, string> = {
  refunded: "Remboursée",
  withdrawn: "Rétractation enregistrée",
};

/** The order's final state, or null while it goes on. A full refund wins over the withdrawal it settles. */
export function orderClosure(order: { paymentStatus: PaymentStatus; withdrawn?: boolean }): OrderClosure | null {
  if (order.paymentStatus === "refunded") return "refunded";
  if (order.withdrawn && paymentReceived(order.paymentStatus)) return "withdrawn";
  return null;
}

/** What the customer is told of a closed order, in plain words (tracking and confirmation pages). */
export function closureDescription(closure: OrderClosure, status: FulfilmentStatus): string {
  const notShipped = status === "pending" || status === "processing";
  if (closure === "refunded") {
    return notShipped
      ? "Cette commande a été remboursée en totalité : elle ne sera pas expédiée. Son suivi s'arrête ici."
      : "Cette commande a été remboursée en totalité. Son suivi s'arrête ici.";
  }
  return notShipped
    ? "La rétractation de cette commande est enregistrée : elle ne sera pas expédiée. Son remboursement suit, au plus tard 14 jours après la demande."
    : "La rétractation de cette commande est enregistrée. Son remboursement suit, au plus tard 14 jours après la demande.";
}

/**
 * Where the order stands, in one phrase, for the tracking page and the API: the fulfilment step
 * once paid (still after a partial refund), 'Remboursée' once refunded in full, 'Rétractation
 * enregistrée' once withdrawn, and never 'Commande reçue' before the payment.
 */
export function orderProgressLabel(order: {
  status: FulfilmentStatus;
  paymentStatus: PaymentStatus;
  withdrawn?: boolean;
}): string {
  const closure = orderClosure(order);
  if (closure) return CLOSURE_LABELS[closure];
  if (order.paymentStatus !== "paid" && order.paymentStatus !== "partially_refunded") return PAYMENT_NOT_RECEIVED;
  return FULFILMENT_LABELS[order.status];
}

/**
 * Maps any accepted input (our values, the French labels, the legacy words of the spec)
 * to a fulfilment status. `completed` means delivered; `paid`/`confirmed` are payment words
 * and are not fulfilment statuses (null).
 */
export function parseFulfilmentStatus(input: string | null | undefined): FulfilmentStatus | null {
  if (!input) return null;
  const v = input.trim().toLowerCase();
  switch (v) {
    case "pending":
    case "commande reçue":
    case "en attente":
      return "pending";
    case "processing":
    case "en préparation":
    case "en preparation":
      return "processing";
    case "shipped":
    case "expédiée":
    case "expediee":
      return "shipped";
    case "delivered":
    case "completed":
    case "livrée":
    case "livree":
      return "delivered";
    default:
      return null;
  }
}

/** Tracking progress step, 1 to 4. */
export function fulfilmentStep(status: FulfilmentStatus): number {
  return FULFILMENT_STEPS.findIndex((s) => s.status === status) + 1 || 1;
}

/** The spec's tracking-number rule: hidden when empty or the text 'null'. */
export function visibleTrackingNumber(value: string | null | undefined): string | null {
  if (value == null) return null;
  const v = value.trim();
  return v === "" || v.toLowerCase() === "null" ? null : v;
}
