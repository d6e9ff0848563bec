import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireAdmin } from "~/http/admin-guard.server";
import { NO_STORE } from "~/http/cache-control";
import { formatDateTime } from "~/lib/dates";
import { centsToDecimal } from "~/lib/money";
import { FULFILMENT_LABELS, PAYMENT_LABELS } from "~/lib/order-status";
import { readOrderFilters } from "~/schemas/admin-order";
import { listAllAdminOrders } from "~/services/admin-orders.server";

/** A cell for spreadsheets: quoted, and never read as a formula (=, +, -, @ at the start). */
function cell(value: string | number | null | undefined): string {
  let text = value == null ? "" : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

/** CSV export of the order list, with the same filters as the page (semicolons and a BOM, for French spreadsheets). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const orders = listAllAdminOrders(readOrderFilters(new URL(request.url)));
  const header = ["Commande", "Date", "Client", "Email", "Statut", "Paiement", "Sous-total", "Livraison", "Total", "Numéro de suivi", "Adresse", "Code postal", "Ville", "Pays"];
  const lines = orders.map((o) =>
    [
      o.id,
      formatDateTime(o.createdAt),
      o.customer,
      o.email,
      FULFILMENT_LABELS[o.status],
      PAYMENT_LABELS[o.paymentStatus],
      centsToDecimal(o.subtotalCents).replace(".", ","),
      centsToDecimal(o.shippingCents).replace(".", ","),
      centsToDecimal(o.totalCents).replace(".", ","),
      o.trackingNumber,
      o.shippingAddress,
      o.shippingPostalCode,
      o.shippingCity,
      o.shippingCountry,
    ]
      .map(cell)
      .join(";"),
  );
  const body = "\uFEFF" + [header.map(cell).join(";"), ...lines].join("\r\n") + "\r\n";
  const day = new Date().toISOString().slice(0, 10);
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="commandes-${day}.csv"`,
      "Cache-Control": NO_STORE,
    },
  });
}
