import { describe, expect, it } from "vitest";
import {
  CLOSURE_LABELS,
  closureDescription,
  FULFILMENT_LABELS,
  orderProgressLabel,
  PAYMENT_FILTER_LABELS,
  PAYMENT_LABELS,
  PAYMENT_STATE_WORDS,
} from "~/lib/order-status";

/** The words of an order's states, as a French reader meets them, one per state. */
describe("the order states' labels", () => {
  it("say of a checkout not paid what its payment is, never a lone « Échouée »", () => {
    expect(PAYMENT_LABELS).toEqual({
      unpaid: "Paiement en attente",
      paid: "Payée",
      failed: "Paiement refusé",
      refunded: "Remboursée",
      partially_refunded: "Partiellement remboursée",
    });
  });

  it("read after « Paiement » in the filters and on the tracking page: « Paiement : Reçu », never « Paiement : Payée »", () => {
    for (const [state, word] of Object.entries(PAYMENT_FILTER_LABELS)) {
      expect(word.toLowerCase()).toBe(PAYMENT_STATE_WORDS[state as keyof typeof PAYMENT_STATE_WORDS]);
      expect(`Paiement : ${word}`).not.toMatch(/Paiement : (Payée|Paiement)/);
    }
    expect(PAYMENT_FILTER_LABELS.paid).toBe("Reçu");
  });

  it("give a refunded or withdrawn order one final state, never a fulfilment step", () => {
    const steps = Object.values(FULFILMENT_LABELS);
    expect(orderProgressLabel({ status: "pending", paymentStatus: "refunded" })).toBe(CLOSURE_LABELS.refunded);
    expect(orderProgressLabel({ status: "processing", paymentStatus: "paid", withdrawn: true })).toBe("Rétractation enregistrée");
    expect(steps).not.toContain(orderProgressLabel({ status: "shipped", paymentStatus: "refunded" }));
    expect(closureDescription("refunded", "pending")).toBe(
      "Cette commande a été remboursée en totalité : elle ne sera pas expédiée. Son suivi s'arrête ici.",
    );
  });
});
