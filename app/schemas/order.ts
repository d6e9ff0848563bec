import { z } from "zod";
import { DELIVERY_MESSAGES, deliveryFields } from "./delivery";
import { positiveId } from "./cart";

/**
 * POST /api/orders (spec section 7). The server ignores the client's total, status,
 * userId and item prices: it recomputes every amount and finds or creates the customer
 * from the email. Customer email and name are required (the original sent them later).
 */
const apiOrderItemSchema = z.object({
  productId: positiveId,
  quantity: z
    .number({ error: "La quantité doit être un entier entre 1 et 99." })
    .int("La quantité doit être un entier entre 1 et 99.")
    .min(1, "La quantité doit être un entier entre 1 et 99.")
    .max(99, "La quantité doit être un entier entre 1 et 99."),
  packId: positiveId.optional(),
  variantName: z.string().max(200).nullish(),
  /** Ignored: the server prices the item. */
  price: z.unknown().optional(),
});

export const apiOrderSchema = z.object({
  customerEmail: deliveryFields.email,
  customerName: z
    .string({ error: DELIVERY_MESSAGES.lastName })
    .trim()
    .min(2, DELIVERY_MESSAGES.lastName)
    .max(120, "Le nom ne doit pas dépasser 120 caractères"),
  shippingAddress: deliveryFields.address,
  shippingPostalCode: deliveryFields.postalCode,
  shippingCity: deliveryFields.city,
  shippingCountry: z.string().trim().min(2).max(60).optional(),
  items: z
    .array(apiOrderItemSchema, { error: "La commande doit contenir au moins un article." })
    .min(1, "La commande doit contenir au moins un article.")
    .max(20, "Une commande contient au plus 20 articles."),
  /** Ignored: recomputed by the server. */
  total: z.unknown().optional(),
  /** Ignored: a new order is always 'pending' and unpaid. */
  status: z.unknown().optional(),
  /** Ignored: the customer is found or created from the email. */
  userId: z.unknown().optional(),
});

export type ApiOrderInput = z.infer<typeof apiOrderSchema>;
