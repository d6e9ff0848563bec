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

export const PAYMENT_LABELS: Record<PaymentStatus, string> = {
  unpaid: "En attente",
  paid: "Payée",
  failed: "Échouée",
  refunded: "Remboursée",
};

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
