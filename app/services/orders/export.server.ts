import { formatDateTime } from "~/lib/dates";
import { centsToDecimal } from "~/lib/money";
import { FULFILMENT_LABELS, PAYMENT_LABELS } from "~/lib/order-status";
import type { OrderFilters } from "~/schemas/admin-order";
import { eachAdminOrder } from "~/services/admin-orders.server";
import { csvCell } from "~/lib/csv-cell";

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

/** Where the order's refunds stand: none, in part, or in full. */
function refundState(refundedCents: number, totalCents: number): string {
  if (refundedCents <= 0) return "Aucun";
  return refundedCents >= totalCents ? "Total" : "Partiel";
}

/** An amount as French spreadsheets read it: "25,90". */
const amount = (cents: number) => centsToDecimal(cents).replace(".", ",");

type ExportedOrder = Parameters<typeof csvLine>[0];

function csvLine(o: {
  id: number;
  createdAt: string;
  customer: string;
  email: string | null;
  status: keyof typeof FULFILMENT_LABELS;
  paymentStatus: keyof typeof PAYMENT_LABELS;
  subtotalCents: number;
  shippingCents: number;
  totalCents: number;
  refundedCents: number;
  trackingNumber: string | null;
  shippingAddress: string | null;
  shippingPostalCode: string | null;
  shippingCity: string | null;
  shippingCountry: string | null;
}) {
  return [
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
    .map(csvCell)
    .join(";");
}

/** The lines of the file: the header (after a BOM), then every order, read by batches as the reader asks for them. */
export async function* ordersCsvLines(filters: OrderFilters, orders: AsyncIterable<ExportedOrder> = eachAdminOrder(filters)) {
  yield "\uFEFF" + HEADER.map(csvCell).join(";") + "\r\n";
  let chunk = "";
  for await (const order of orders) {
    chunk += csvLine(order) + "\r\n";
    if (chunk.length >= 64 * 1024) {
      yield chunk;
      chunk = "";
    }
  }
  if (chunk) yield chunk;
}

/**
 * Every order of the filters and period as a CSV stream: whatever the number of orders, the
 * process holds one batch of them, and reads the next only when the client has taken the
 * previous one (`untilWritable`, from the load context: server/backpressure.js) (so a slow download never fills the memory, and the public pages keep being
 * served between two batches).
 */
export function ordersCsvStream(filters: OrderFilters, untilWritable?: () => Promise<void>): ReadableStream<Uint8Array> {
  const lines = ordersCsvLines(filters);
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        // The server writes each chunk as it comes: wait for the client to take the previous ones first.
        await untilWritable?.();
        const next = await lines.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      },
      async cancel() {
        await lines.return(undefined);
      },
    },
    { highWaterMark: 1 },
  );
}

/** The whole file as one text (tests, small exports). */
export async function ordersCsv(filters: OrderFilters): Promise<string> {
  let text = "";
  for await (const chunk of ordersCsvLines(filters)) text += chunk;
  return text;
}

/** The file name offered to the browser: commandes-2026-03-05.csv. */
export function ordersCsvFileName(now = new Date()): string {
  return `commandes-${now.toISOString().slice(0, 10)}.csv`;
}
