import { z } from "zod";
import { ID_PATTERN } from "~/lib/ids";
import { findPack, findPackByName, PACKS } from "~/lib/packs";

/**
 * Cart inputs, shared by the /panier form action and the /api/cart routes.
 * Only the product id and the pack are honoured: name, prices and quantity of a new line
 * are decided by the server (quantity 1, prices from the pack).
 */

/** A positive integer given as a JSON number or as a string of digits (form fields). */
export const positiveId = z
  .union([z.number(), z.string().trim().regex(ID_PATTERN, "Un entier positif est attendu.").transform(Number)], {
    error: "Un entier positif est attendu.",
  })
  .pipe(z.number({ error: "Un entier positif est attendu." }).int("Un entier positif est attendu.").min(1, "Un entier positif est attendu.").max(Number.MAX_SAFE_INTEGER, "Un entier positif est attendu."));

/** A quantity (may be 0 or negative: below 1 removes the line). */
const quantityValue = z
  .union([z.number(), z.string().trim().regex(/^-?\d{1,6}$/, "La quantité doit être un nombre entier.").transform(Number)], {
    error: "La quantité doit être un nombre entier.",
  })
  .pipe(
    z
      .number()
      .int("La quantité doit être un nombre entier.")
      .min(-1000, "La quantité doit être un nombre entier.")
      .max(99, "La quantité ne peut pas dépasser 99."),
  );

const PACK_REQUIRED_MESSAGE = `Pack inconnu : indiquez packId (${PACKS.map((p) => p.id).join(", ")}) ou le nom exact du pack dans variantName.`;

/**
 * Adding a product: productId plus packId (or, for API clients of the original shop,
 * variantName matched to a pack name). Any price, quantity or user id sent is ignored.
 */
export const cartAddSchema = z
  .object({
    productId: positiveId,
    packId: positiveId.optional(),
    variantName: z.string().max(200).nullish(),
  })
  .transform((value, ctx) => {
    const pack = value.packId !== undefined ? findPack(value.packId) : findPackByName(value.variantName?.trim());
    if (!pack) {
      ctx.addIssue({ code: "custom", path: ["packId"], message: PACK_REQUIRED_MESSAGE });
      return z.NEVER;
    }
    return { productId: value.productId, packId: pack.id };
  });

export type CartAddInput = z.infer<typeof cartAddSchema>;

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
