import { and, desc, inArray } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { invoices } from "~/db/schema";
import { orderCreditNotePath, orderInvoicePath } from "~/services/orders/link.server";

/** An order's documents as its customer opens them: the order's view link key, no account needed. */
export type OrderDocuments = {
  invoiceNumber: string | null;
  invoicePath: string | null;
  creditNoteNumber: string | null;
  creditNotePath: string | null;
};

const NONE: OrderDocuments = { invoiceNumber: null, invoicePath: null, creditNoteNumber: null, creditNotePath: null };

/**
 * The invoice and the latest credit note of each order, in one query (the subscription page lists
 * every order of a subscription). An order paid has its invoice; one not paid yet has none.
 */
export async function documentsOfOrders(orderIds: number[]): Promise<Map<number, OrderDocuments>> {
  const found = new Map<number, OrderDocuments>();
  if (orderIds.length === 0) return found;
  const rows = await getDb()
    .select({ orderId: invoices.orderId, kind: invoices.kind, number: invoices.number })
    .from(invoices)
    .where(and(inArray(invoices.orderId, orderIds), inArray(invoices.kind, ["invoice", "credit_note"])))
    .orderBy(desc(invoices.id));
  for (const row of rows) {
    const docs = found.get(row.orderId) ?? { ...NONE };
    if (row.kind === "invoice" && !docs.invoiceNumber) {
      docs.invoiceNumber = row.number;
      docs.invoicePath = orderInvoicePath(row.orderId);
    }
    if (row.kind === "credit_note" && !docs.creditNoteNumber) {
      docs.creditNoteNumber = row.number;
      docs.creditNotePath = orderCreditNotePath(row.orderId, row.number);
    }
    found.set(row.orderId, docs);
  }
  return found;
}

export function documentsOf(found: Map<number, OrderDocuments>, orderId: number): OrderDocuments {
  return found.get(orderId) ?? NONE;
}
