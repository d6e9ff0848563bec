import { formatDateTime } from "~/lib/dates";
import { centsToDecimal } from "~/lib/money";
import { FULFILMENT_LABELS, PAYMENT_LABELS } from "~/lib/order-status";
import type { OrderFilters } from "~/schemas/admin-order";
import { listAllAdminOrders } from "~/services/admin-orders.server";

/** CSV export of the order list, with the same filters as the page (semicolons and a BOM, for French spreadsheets). */

const HEADER = [
  "Commande",
  "Date",
  "Client",
  "Email",
  "Statut",
  "Paiement",
  "Sous-total",
  "Livraison",
  "Total",
  "Remboursé",
  "Remboursement",
  "Numéro de suivi",
  "Adresse",
  "Code postal",
  "Ville",
  "Pays",
];

/** A cell for spreadsheets: quoted, and never read as a formula (=, +, -, @ at the start). */
function cell(value: string | number | null | undefined): string {
  let text = value == null ? "" : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

/** Where the order's refunds stand: none, in part, or in full. */
function refundState(refundedCents: number, totalCents: number): string {
  if (refundedCents <= 0) return "Aucun";
  return refundedCents >= totalCents ? "Total" : "Partiel";
}

/** An amount as French spreadsheets read it: "25,90". */
const amount = (cents: number) => centsToDecimal(cents).replace(".", ",");

export async function ordersCsv(filters: OrderFilters): Promise<string> {
  const lines = (await listAllAdminOrders(filters)).map((o) =>
    [
      o.id,
      formatDateTime(o.createdAt),
      o.customer,
      o.email,
      FULFILMENT_LABELS[o.status],
      PAYMENT_LABELS[o.paymentStatus],
      amount(o.subtotalCents),
      amount(o.shippingCents),
      amount(o.totalCents),
      amount(o.refundedCents),
      refundState(o.refundedCents, o.totalCents),
      o.trackingNumber,
      o.shippingAddress,
      o.shippingPostalCode,
      o.shippingCity,
      o.shippingCountry,
    ]
      .map(cell)
      .join(";"),
  );
  return "\uFEFF" + [HEADER.map(cell).join(";"), ...lines].join("\r\n") + "\r\n";
}

/** The file name offered to the browser: commandes-2026-03-05.csv. */
export function ordersCsvFileName(now = new Date()): string {
  return `commandes-${now.toISOString().slice(0, 10)}.csv`;
}
