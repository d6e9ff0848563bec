import { z } from "zod";
import { safeText } from "./text";

/** Delivery form (cart step 2): messages word for word from spec section 5. */
export const DELIVERY_MESSAGES = {
  firstName: "Le prénom doit contenir au moins 2 caractères",
  lastName: "Le nom doit contenir au moins 2 caractères",
  email: "Adresse email invalide",
  address: "L'adresse doit contenir au moins 5 caractères",
  postalCode: "Le code postal doit contenir au moins 5 caractères",
  city: "La ville doit contenir au moins 2 caractères",
} as const;

function text(min: number, max: number, message: string, tooLong: string) {
  return safeText({ error: message }).trim().min(min, message).max(max, tooLong);
}

/** Field rules shared by the delivery form and POST /api/orders. */
export const deliveryFields = {
  firstName: text(2, 60, DELIVERY_MESSAGES.firstName, "Le prénom ne doit pas dépasser 60 caractères"),
  lastName: text(2, 60, DELIVERY_MESSAGES.lastName, "Le nom ne doit pas dépasser 60 caractères"),
  email: safeText({ error: DELIVERY_MESSAGES.email })
    .trim()
    .max(254, DELIVERY_MESSAGES.email)
    .pipe(z.email(DELIVERY_MESSAGES.email))
    .transform((v) => v.toLowerCase()),
  address: text(5, 200, DELIVERY_MESSAGES.address, "L'adresse ne doit pas dépasser 200 caractères"),
  postalCode: text(5, 10, DELIVERY_MESSAGES.postalCode, "Le code postal ne doit pas dépasser 10 caractères"),
  city: text(2, 100, DELIVERY_MESSAGES.city, "La ville ne doit pas dépasser 100 caractères"),
};

export const deliverySchema = z.object(deliveryFields);

export type DeliveryInput = z.infer<typeof deliverySchema>;

/** Country of every delivery (the shop ships to France). */
export const DELIVERY_COUNTRY = "France";
