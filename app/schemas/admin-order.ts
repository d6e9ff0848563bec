import { z } from "zod";
import type { FulfilmentStatus } from "~/db/schema";
import { CARRIERS, CARRIER_LABELS, parseCarrier, type Carrier } from "~/lib/carriers";
import { parisLocalToIso } from "~/lib/dates";
import { parseFulfilmentStatus } from "~/lib/order-status";
import { safeText } from "./text";

const STATUS_MESSAGE = "Choisissez un statut : Commande reçue, En préparation, Expédiée ou Livrée.";

/** One of the four fulfilment statuses; also accepts the French labels and `completed`. */
const fulfilmentStatusField = safeText({ error: STATUS_MESSAGE }).transform((value, ctx): FulfilmentStatus => {
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

const CARRIER_MESSAGE = `Choisissez un transporteur : ${CARRIERS.map((c) => CARRIER_LABELS[c]).join(", ")}.`;

/** colissimo, chronopost, mondial_relay or dpd; also accepts the names ("Mondial Relay"). */
export const trackingCarrierField = safeText({ error: CARRIER_MESSAGE }).transform((value, ctx): Carrier => {
  const carrier = parseCarrier(value);
  if (!carrier) {
    ctx.addIssue({ code: "custom", message: CARRIER_MESSAGE });
    return z.NEVER;
  }
  return carrier;
});

/**
 * The admin order form: status required; an empty tracking number clears it; the carrier of the
 * number; `confirmWithoutTracking` ("1", the button of the confirmation step) ships with no number.
 */
export const adminOrderFormSchema = z.object({
  status: fulfilmentStatusField,
  trackingNumber: trackingNumberField.optional(),
  trackingCarrier: trackingCarrierField.optional(),
  confirmWithoutTracking: z
    .enum(["1"])
    .optional()
    .transform((v) => v === "1"),
});

/** PUT /api/orders/{id} (admin): each field optional, at least one; null or "" clears the tracking number. */
export const adminOrderApiSchema = z
  .object({
    status: fulfilmentStatusField.optional(),
    trackingNumber: trackingNumberField.nullable().optional(),
    trackingCarrier: trackingCarrierField.optional(),
    confirmWithoutTracking: z.boolean({ error: "confirmWithoutTracking doit être vrai ou faux." }).optional(),
  })
  .strict()
  .refine((v) => v.status !== undefined || v.trackingNumber !== undefined || v.trackingCarrier !== undefined, {
    message: "Indiquez au moins un champ à modifier : status, trackingNumber ou trackingCarrier.",
  });

export type AdminOrderUpdate = {
  status?: FulfilmentStatus;
  trackingNumber?: string | null;
  trackingCarrier?: Carrier;
  /** Ship with no tracking number, knowingly (the form's confirmation step, the API's flag). */
  confirmWithoutTracking?: boolean;
};

/**
 * Which orders a list shows: `orders` (the default) the orders, paid or since refunded;
 * `unpaid` the checkouts whose payment has not been received (abandoned carts, pending or
 * failed payments); `all` both. A `payment` filter, when given, decides instead.
 */
export const ORDER_VIEWS = ["orders", "unpaid", "all"] as const;
export type OrderView = (typeof ORDER_VIEWS)[number];

/** Filters of the admin order list, the CSV export and GET /api/orders (query string). */
const orderFiltersSchema = z.object({
  status: z.enum(["pending", "processing", "shipped", "delivered"]).optional().catch(undefined),
  payment: z.enum(["unpaid", "paid", "failed", "refunded", "partially_refunded"]).optional().catch(undefined),
  view: z.enum(ORDER_VIEWS).optional().catch(undefined),
  q: safeText().trim().max(100).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(100000).optional().catch(undefined),
});

/** The filters, with the period read as instants: orders made from `from` (included) to `to` (excluded). */
export type OrderFilters = z.infer<typeof orderFiltersSchema> & { from?: string; to?: string };

export const PERIOD_MESSAGE =
  "Période invalide : indiquez les dates « du » et « au » au format AAAA-MM-JJ, la première avant la seconde.";

/** A Paris day (AAAA-MM-JJ) as the instant it starts, `plusDays` later (UTC ISO), or null. */
function parisDayStart(day: string, plusDays = 0): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return null;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + plusDays));
  if (plusDays === 0 && date.toISOString().slice(0, 10) !== day) return null;
  return parisLocalToIso(`${date.toISOString().slice(0, 10)}T00:00`);
}

/**
 * The period of `du` and `au` (Paris days, both included; either may be missing: all time by
 * default), or a French error when one cannot be read or they are in the wrong order.
 */
export function readOrderPeriod(url: URL): { from?: string; to?: string; error?: string } {
  const du = url.searchParams.get("du")?.trim() || undefined;
  const au = url.searchParams.get("au")?.trim() || undefined;
  const from = du === undefined ? undefined : parisDayStart(du);
  const to = au === undefined ? undefined : parisDayStart(au, 1);
  if (from === null || to === null || (from && to && from >= to)) return { error: PERIOD_MESSAGE };
  return { from, to };
}

export function readOrderFilters(url: URL): OrderFilters {
  const raw = Object.fromEntries(
    ["status", "payment", "view", "q", "page"].map((k) => [k, url.searchParams.get(k) || undefined]),
  );
  const { from, to, error } = readOrderPeriod(url);
  return { ...orderFiltersSchema.parse(raw), ...(error ? {} : { from, to }) };
}
