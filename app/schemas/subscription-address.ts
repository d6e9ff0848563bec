import { z } from "zod";
import { deliveryFields } from "./delivery";

/**
 * The delivery address of a subscription's next renewals (its private page, /mon-abonnement):
 * the same field rules and messages as the checkout's delivery form. The email stays the
 * subscription's own: only where the parcels go changes.
 */
export const subscriptionAddressSchema = z.object({
  firstName: deliveryFields.firstName,
  lastName: deliveryFields.lastName,
  address: deliveryFields.address,
  address2: deliveryFields.address2,
  postalCode: deliveryFields.postalCode,
  city: deliveryFields.city,
  phone: deliveryFields.phone,
});

export type SubscriptionAddressInput = z.infer<typeof subscriptionAddressSchema>;
