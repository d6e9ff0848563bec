import { z } from "zod";
import { splitFullName } from "~/lib/names";
import { safeText } from "./text";

/**
 * Billing address of the card payment step (spec section 5, 'Payment billing form').
 * Used by the browser for instant feedback; the card's billing details sent to Stripe come from it.
 */

function required(message: string) {
  return safeText({ error: message }).trim().min(1, { message, abort: true });
}

export const BILLING_COUNTRY = "FR";

export const billingSchema = z.object({
  firstName: required("Le prénom est requis"),
  lastName: required("Le nom est requis"),
  address: required("L'adresse est requise"),
  city: required("La ville est requise"),
  postalCode: required("Le code postal est requis").regex(/^\d{5}$/, "Le code postal doit contenir 5 chiffres"),
  country: z.literal(BILLING_COUNTRY).default(BILLING_COUNTRY),
});

export type Billing = z.infer<typeof billingSchema>;
export type BillingInput = z.input<typeof billingSchema>;
export type BillingField = "firstName" | "lastName" | "address" | "city" | "postalCode";
export type BillingErrors = Partial<Record<BillingField, string>>;

/** The first message of each invalid field, or null when the billing address is valid. */
export function billingErrors(input: BillingInput): BillingErrors | null {
  const result = billingSchema.safeParse(input);
  if (result.success) return null;
  const errors: BillingErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] as BillingField;
    if (field && !errors[field]) errors[field] = issue.message;
  }
  return errors;
}

/** Prefill: the delivery details, and the customer name (split at the first space) for missing names. */
export function initialBilling(
  billing: Partial<Record<BillingField | "address", string>> | null | undefined,
  customerName: string | null | undefined,
): Record<BillingField, string> {
  const fromName = splitFullName(customerName);
  const postal = (billing?.postalCode ?? "").replace(/\s+/g, "").slice(0, 5);
  return {
    firstName: billing?.firstName?.trim() || fromName.firstName,
    lastName: billing?.lastName?.trim() || fromName.lastName,
    address: billing?.address?.trim() ?? "",
    city: billing?.city?.trim() ?? "",
    postalCode: postal,
  };
}
