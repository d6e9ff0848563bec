/** The actions the audit log records (table audit_log), and how the back office names them. */
export const AUDIT_ACTIONS = ["customer.export", "customer.erase", "customer.erase_stripe"] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_ACTION_LABELS: Record<AuditAction, string> = {
  "customer.export": "Export des données (JSON)",
  "customer.erase": "Effacement des données personnelles",
  "customer.erase_stripe": "Effacement chez Stripe",
};

/**
 * What the Stripe part of an erasure did, in counts (services/customers/stripe-erasure.server.ts):
 * the objects overwritten, those Stripe did not know (nothing to erase), the PaymentIntents it
 * refuses to change (canceled), the saved cards detached.
 */
export type StripeErasureResult = {
  customers: number;
  paymentIntents: number;
  paymentMethods: number;
  unknown: number;
  unchangeable: number;
};

/** The details of an audit line: counts of Stripe objects, never a value. */
export type AuditDetails =
  { stripe: { customers: number; paymentIntents: number } } | { stripe: StripeErasureResult & { attempts: number } };

const count = (n: number, one: string, many: string) => `${n} ${n > 1 ? many : one}`;

/** The details of an audit line in words (the back office's journal). */
export function auditDetailsText(details: AuditDetails): string {
  const { stripe } = details;
  if (!("attempts" in stripe)) {
    if (stripe.customers + stripe.paymentIntents === 0) return "Rien chez Stripe.";
    return `Chez Stripe : ${count(stripe.customers, "client", "clients")} et ${count(stripe.paymentIntents, "paiement", "paiements")} à effacer.`;
  }
  const parts = [
    count(stripe.customers, "client effacé", "clients effacés"),
    count(stripe.paymentIntents, "paiement effacé", "paiements effacés"),
    count(stripe.paymentMethods, "carte retirée", "cartes retirées"),
  ];
  if (stripe.unknown) parts.push(count(stripe.unknown, "objet inconnu de Stripe", "objets inconnus de Stripe"));
  if (stripe.unchangeable)
    parts.push(count(stripe.unchangeable, "paiement annulé non modifiable", "paiements annulés non modifiables"));
  return `${parts.join(", ")} (${count(stripe.attempts, "essai", "essais")}).`;
}
