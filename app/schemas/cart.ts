import { z } from "zod";
import { ID_PATTERN, MAX_ID } from "~/lib/ids";
import { safeText } from "./text";

/**
 * Cart inputs, shared by the /panier form action and the /api/cart routes.
 * Only the product id and the pack are honoured: name, prices and quantity of a new line
 * are decided by the server (quantity 1, prices from the pack).
 */

/** A positive integer given as a JSON number or as a string of digits (form fields). */
export const positiveId = z
  .union([z.number(), safeText().trim().regex(ID_PATTERN, "Un entier positif est attendu.").transform(Number)], {
    error: "Un entier positif est attendu.",
  })
  .pipe(
    z
      .number({ error: "Un entier positif est attendu." })
      .int("Un entier positif est attendu.")
      .min(1, "Un entier positif est attendu.")
      .max(MAX_ID, "Un entier positif est attendu."),
  );

/** A quantity (may be 0 or negative: below 1 removes the line). */
const quantityValue = z
  .union(
    [
      z.number(),
      safeText()
        .trim()
        .regex(/^-?\d{1,6}$/, "La quantité doit être un nombre entier.")
        .transform(Number),
    ],
    {
      error: "La quantité doit être un nombre entier.",
    },
  )
  .pipe(
    z
      .number()
      .int("La quantité doit être un nombre entier.")
      .min(-1000, "La quantité doit être un nombre entier.")
      .max(99, "La quantité ne peut pas dépasser 99."),
  );

/**
 * Adding a product: productId plus packId (or, for API clients of the original shop,
 * variantName, the pack's exact name); no pack for a product sold as a single item. Any
 * price, quantity or user id sent is ignored; the cart service finds the pack among the
 * product's own (services/packs.server.ts) and refuses an unknown one, or a missing one.
 */
export const cartAddSchema = z
  .object({
    productId: positiveId,
    packId: positiveId.optional(),
    variantName: safeText().max(200).nullish(),
  })
  .transform((value): CartAddInput => ({
    productId: value.productId,
    packId: value.packId,
    variantName: value.variantName?.trim() || undefined,
  }));

export type CartAddInput = { productId: number; packId?: number; variantName?: string };

export const cartQuantitySchema = z.object({ quantity: quantityValue });

/** The form versions carry the line id as a field; the API has it in the URL. */
export const cartLineFormSchema = z.object({ lineId: positiveId });
export const cartSetQuantityFormSchema = z.object({ lineId: positiveId, quantity: quantityValue });

/** Toast texts of spec section 8 'Cart'. */
export const CART_TOASTS = {
  added: { message: "Produit ajouté", description: "Le produit a été ajouté à votre panier." },
  removed: { message: "Produit retiré" },
  cleared: { message: "Panier vidé", description: "Votre panier a été vidé avec succès." },
  addFailed: { message: "Erreur", description: "Impossible d'ajouter le produit au panier." },
  quantityFailed: { message: "Erreur", description: "Impossible de modifier la quantité." },
  removeFailed: { message: "Erreur", description: "Impossible de retirer le produit du panier." },
  clearFailed: { message: "Erreur", description: "Impossible de vider le panier." },
} as const;
