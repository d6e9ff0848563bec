import { z } from "zod";
import { MAX_ID } from "~/lib/ids";
import { safeText } from "./text";

/** Bodies of the payment API (POST /api/payments/start, /api/create-subscription, ...). */

const orderIdField = z.coerce
  .number({ error: "Numéro de commande invalide" })
  .int("Numéro de commande invalide")
  .positive("Numéro de commande invalide")
  .max(MAX_ID, "Numéro de commande invalide");

const optionalText = (max: number) => safeText().trim().max(max).optional();

/** API clients prove they own the order with its token (here, or in the X-Order-Token header); the shop's pages with the cart cookie. */
const orderTokenField = safeText()
  .trim()
  .max(100, "Jeton de commande invalide")
  .optional()
  .meta({ description: "Jeton de la commande, reçu à sa création par POST /api/orders (ou en-tête X-Order-Token)" });

export const startPaymentBodySchema = z.object({
  orderId: orderIdField,
  mode: z.enum(["one_off", "subscription"], { error: "Mode de paiement invalide" }).default("one_off"),
  token: orderTokenField,
});

/** POST /api/create-subscription. The spec's productId, quantity and userId are accepted and ignored: the order decides. */
export const createSubscriptionBodySchema = z.object({
  orderId: orderIdField,
  customerEmail: safeText().trim().max(254).optional(),
  customerName: optionalText(200),
  productId: z.unknown().optional(),
  quantity: z.unknown().optional(),
  userId: z.unknown().optional(),
  token: orderTokenField,
});

export const attachPaymentMethodBodySchema = z.object({
  subscriptionId: safeText({ error: "Abonnement requis" })
    .trim()
    .regex(/^sub_[A-Za-z0-9]+$/, "Abonnement invalide"),
  paymentMethodId: safeText({ error: "Moyen de paiement requis" })
    .trim()
    .regex(/^pm_[A-Za-z0-9]+$/, "Moyen de paiement invalide"),
  customerEmail: safeText({ error: "Adresse email requise" }).trim().min(1, "Adresse email requise").max(254),
  orderId: orderIdField.optional(),
  token: orderTokenField,
});

export type AttachPaymentMethodBody = z.infer<typeof attachPaymentMethodBodySchema>;

/** POST /api/payments/confirm: the order's proof as for the start (cart cookie, `orders` cookie or token). */
export const confirmPaymentBodySchema = z.object({ orderId: orderIdField, token: orderTokenField });

/**
 * The payment step's form without JavaScript (POST /paiement-securise): the formula and, for the
 * subscription, the consent box (checked: "oui"), as on the card form.
 */
export const hostedCheckoutFormSchema = z.object({
  orderId: orderIdField,
  mode: z.enum(["one_off", "subscription"], { error: "Mode de paiement invalide" }).default("one_off"),
  consent: z
    .enum(["oui"])
    .optional()
    .transform((value) => value === "oui"),
});

export type HostedCheckoutForm = z.infer<typeof hostedCheckoutFormSchema>;
