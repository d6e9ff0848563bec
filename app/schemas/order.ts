import { z } from "zod";
import { parsePriceToCents } from "~/lib/money";
import { trackingNumberField } from "./admin-order";
import { positiveId } from "./cart";
import { DELIVERY_MESSAGES, deliveryFields, reminderConsentField } from "./delivery";
import { promotionCodeField } from "./promotion";
import { safeText } from "./text";

/**
 * POST /api/orders and the checkout fields of PUT /api/orders/{id} (spec section 7).
 * Field rules are the delivery form's. What a line is, and what it costs, is the server's:
 * a line names its pack by `packId`, `variantName` or its exact `price`; a `price` or a
 * `total` that is not the server's amount is refused with the expected one, never changed
 * silently; `status` is never honoured (a new order is pending and unpaid).
 */

const MONEY_MESSAGE = 'Montant invalide : un montant en euros est attendu, par exemple "25.90".';

/** An amount as a client sends it: "25.90", "25,90" or 25.9; read as cents. */
export const moneyInput = z
  .union([z.number(), safeText()], { error: MONEY_MESSAGE })
  .transform((value, ctx) => {
    const cents = typeof value === "number" ? numberToCents(value) : parsePriceToCents(value);
    if (cents === null) {
      ctx.addIssue({ code: "custom", message: MONEY_MESSAGE });
      return z.NEVER;
    }
    return cents;
  })
  .meta({ description: 'Montant en euros : chaîne décimale ("25.90") ou nombre', examples: ["25.90"] });

function numberToCents(value: number): number | null {
  if (!Number.isFinite(value) || value < 0 || value >= 1e7) return null;
  const cents = Math.round(value * 100);
  return Math.abs(cents - value * 100) < 1e-6 ? cents : null;
}

const QUANTITY_MESSAGE = "La quantité doit être un entier entre 1 et 10.";

const apiOrderItemSchema = z.object({
  productId: positiveId,
  quantity: z
    .number({ error: QUANTITY_MESSAGE })
    .int(QUANTITY_MESSAGE)
    .min(1, QUANTITY_MESSAGE)
    .max(99, QUANTITY_MESSAGE)
    .meta({ description: "1 à 10 pour un pack, exactement 1 pour le pack d'essai" }),
  packId: positiveId
    .optional()
    .meta({ description: "Le pack : 1 (3 masques d'essai), 2 (6 masques + 2 offerts), 3 (9 masques + 3 offerts)" }),
  variantName: safeText().max(200).nullish().meta({ description: "Ou le nom exact du pack" }),
  price: moneyInput.optional().meta({
    description:
      "Prix unitaire attendu par le client : désigne le pack s'il est exactement le prix d'un pack ; un prix qui n'est pas celui du pack est refusé (422, prix attendu dans issues)",
  }),
});

/** A customer name as the API sends it: "Camille Martin". */
export const customerNameField = safeText({ error: DELIVERY_MESSAGES.lastName })
  .trim()
  .min(2, DELIVERY_MESSAGES.lastName)
  .max(120, "Le nom ne doit pas dépasser 120 caractères");

export const apiOrderSchema = z.object({
  customerEmail: deliveryFields.email.optional().meta({
    description: "Adresse email du client (facultative à la création, requise avant le paiement ; PUT /api/orders/{id})",
  }),
  customerName: customerNameField.optional(),
  shippingAddress: deliveryFields.address,
  shippingAddress2: deliveryFields.address2,
  shippingPostalCode: deliveryFields.postalCode,
  shippingCity: deliveryFields.city,
  shippingCountry: safeText().trim().min(2).max(60).optional(),
  shippingPhone: deliveryFields.phone,
  items: z
    .array(apiOrderItemSchema, { error: "La commande doit contenir au moins un article." })
    .min(1, "La commande doit contenir au moins un article.")
    .max(20, "Une commande contient un seul article.")
    .meta({ description: "Un seul article : un pack (1 à 10 exemplaires, le pack d'essai en 1 exemplaire)" }),
  total: moneyInput.optional().meta({
    description:
      "Total attendu par le client : s'il n'est pas celui du serveur, la commande est refusée (422, total attendu dans issues)",
  }),
  status: safeText().max(40).optional().meta({
    description: "Ignoré : une commande est créée « pending » et non payée ; seul le serveur marque une commande payée",
  }),
  userId: z
    .union([positiveId, z.null()])
    .optional()
    .meta({ description: "Client existant auquel rattacher la commande (jamais modifié) ; un identifiant inconnu est ignoré" }),
  promotionCode: promotionCodeField.optional().meta({
    description:
      "Code promo (lettres et chiffres, casse ignorée) : la remise est déduite du total. Un code inconnu, expiré ou épuisé est refusé (422 avec la raison en français), jamais ignoré",
  }),
  reminderConsent: reminderConsentField,
});

type ParsedApiOrder = z.infer<typeof apiOrderSchema>;
/** The parsed body; the optional delivery details may be left out by a caller that parsed nothing. */
export type ApiOrderInput = Omit<ParsedApiOrder, "shippingAddress2" | "shippingPhone"> &
  Partial<Pick<ParsedApiOrder, "shippingAddress2" | "shippingPhone">>;

/**
 * PUT /api/orders/{id}. Administrator: `status` (fulfilment) and `trackingNumber`.
 * Holder of the order token (or administrator), while the order is unpaid: the checkout
 * fields `customerEmail`, `customerName` (and `isSubscription`, `stripeSubscriptionId` and
 * `status`, accepted and ignored: only the server marks an order paid).
 */
export const orderUpdateApiSchema = z
  .strictObject({
    status: safeText().max(60).optional().meta({
      description:
        "Administrateur : pending, processing, shipped ou delivered (ou Commande reçue, En préparation, Expédiée, Livrée, completed). Jeton : ignoré (« confirmed » ne marque jamais la commande payée)",
    }),
    trackingNumber: trackingNumberField
      .nullable()
      .optional()
      .meta({ description: "Administrateur seulement ; vide ou null l'efface. Refusé (409) sur une commande non payée" }),
    trackingCarrier: safeText().max(40).optional().meta({
      description:
        "Administrateur seulement : transporteur du numéro de suivi, colissimo, chronopost, mondial_relay ou dpd (par défaut celui des paramètres)",
    }),
    confirmWithoutTracking: z.boolean({ error: "confirmWithoutTracking doit être vrai ou faux." }).optional().meta({
      description:
        "Administrateur seulement : true pour expédier sans numéro de suivi (sinon « shipped » sans numéro est refusé, 409 tracking_number_missing)",
    }),
    customerEmail: deliveryFields.email.optional(),
    customerName: customerNameField.optional(),
    isSubscription: z
      .boolean({ error: "isSubscription doit être vrai ou faux." })
      .optional()
      .meta({ description: "Ignoré (le mode se choisit au démarrage du paiement) ; true est refusé pour le pack d'essai" }),
    stripeSubscriptionId: safeText()
      .max(255)
      .nullable()
      .optional()
      .meta({ description: "Ignoré : seul le serveur enregistre le paiement" }),
  })
  .refine((v) => Object.values(v).some((value) => value !== undefined), {
    message: "Indiquez au moins un champ à modifier.",
  });

export type OrderUpdateApiInput = z.infer<typeof orderUpdateApiSchema>;
