import { z } from "zod";

/** Bodies of the payment API (POST /api/payments/start, /api/create-subscription, ...). */

const orderIdField = z.coerce
  .number({ error: "Numéro de commande invalide" })
  .int("Numéro de commande invalide")
  .positive("Numéro de commande invalide")
  .max(Number.MAX_SAFE_INTEGER, "Numéro de commande invalide");

const optionalText = (max: number) => z.string().trim().max(max).optional();

export const startPaymentBodySchema = z.object({
  orderId: orderIdField,
  mode: z.enum(["one_off", "subscription"], { error: "Mode de paiement invalide" }).default("one_off"),
});

/** POST /api/create-subscription. The spec's productId, quantity and userId are accepted and ignored: the order decides. */
export const createSubscriptionBodySchema = z.object({
  orderId: orderIdField,
  customerEmail: z.string().trim().max(254).optional(),
  customerName: optionalText(200),
  productId: z.unknown().optional(),
  quantity: z.unknown().optional(),
  userId: z.unknown().optional(),
});

export const attachPaymentMethodBodySchema = z.object({
  subscriptionId: z.string({ error: "Abonnement requis" }).trim().regex(/^sub_[A-Za-z0-9]+$/, "Abonnement invalide"),
  paymentMethodId: z.string({ error: "Moyen de paiement requis" }).trim().regex(/^pm_[A-Za-z0-9]+$/, "Moyen de paiement invalide"),
  customerEmail: z.string({ error: "Adresse email requise" }).trim().min(1, "Adresse email requise").max(254),
  orderId: orderIdField.optional(),
});

export type AttachPaymentMethodBody = z.infer<typeof attachPaymentMethodBodySchema>;

export const confirmPaymentBodySchema = z.object({ orderId: orderIdField });
