import { z } from "zod";
import type { FulfilmentStatus } from "~/db/schema";
import { parseFulfilmentStatus } from "~/lib/order-status";
import { safeText } from "./text";

const STATUS_MESSAGE = "Choisissez un statut : Commande reçue, En préparation, Expédiée ou Livrée.";

/** One of the four fulfilment statuses; also accepts the French labels and `completed`. */
const fulfilmentStatusField = safeText({ error: STATUS_MESSAGE })
  .transform((value, ctx): FulfilmentStatus => {
    const status = parseFulfilmentStatus(value);
    if (!status) {
      ctx.addIssue({ code: "custom", message: STATUS_MESSAGE });
      return z.NEVER;
    }
    return status;
  });

export const trackingNumberField = safeText()
  .trim()
  .max(60, "Le numéro de suivi ne doit pas dépasser 60 caractères.")
  .regex(/^[A-Za-z0-9 ._/-]*$/, "Le numéro de suivi ne doit contenir que des lettres, des chiffres, des espaces et . _ / -");

/** The admin order form: status required; an empty tracking number clears it. */
export const adminOrderFormSchema = z.object({
  status: fulfilmentStatusField,
  trackingNumber: trackingNumberField.optional(),
});

/** PUT /api/orders/{id} (admin): each field optional, at least one; null or "" clears the tracking number. */
export const adminOrderApiSchema = z
  .object({
    status: fulfilmentStatusField.optional(),
    trackingNumber: trackingNumberField.nullable().optional(),
  })
  .strict()
  .refine((v) => v.status !== undefined || v.trackingNumber !== undefined, {
    message: "Indiquez au moins un champ à modifier : status ou trackingNumber.",
  });

export type AdminOrderUpdate = { status?: FulfilmentStatus; trackingNumber?: string | null };

/** Filters of the admin order list, the CSV export and GET /api/orders (query string). */
const orderFiltersSchema = z.object({
  status: z.enum(["pending", "processing", "shipped", "delivered"]).optional().catch(undefined),
  payment: z.enum(["unpaid", "paid", "failed", "refunded"]).optional().catch(undefined),
  q: safeText().trim().max(100).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(100000).optional().catch(undefined),
});

export type OrderFilters = z.infer<typeof orderFiltersSchema>;

export function readOrderFilters(url: URL): OrderFilters {
  const raw = Object.fromEntries(
    ["status", "payment", "q", "page"].map((k) => [k, url.searchParams.get(k) || undefined]),
  );
  return orderFiltersSchema.parse(raw);
}
