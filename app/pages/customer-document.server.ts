import { data } from "@remix-run/node";
import type { InvoiceKind } from "~/db/schema";
import { parseIdOrNull } from "~/lib/ids";
import { paymentReceived } from "~/lib/order-status";
import { getOrderInvoices } from "~/services/invoices.server";
import { orderCreditNotePath, orderLinkKeyMatches } from "~/services/orders/link.server";
import { getOrderRefunds } from "~/services/payments/refunds.server";
import { findOrder } from "~/services/orders/find.server";
import { cacheControl, PRIVATE_NO_STORE } from "~/http/cache-control";

/**
 * The customer's invoice and credit note pages (/facture/{id}?cle=KEY, /avoir/{id}?cle=KEY): the
 * key is the order's view link key (services/orders/link.server.ts), the one its emails carry,
 * valid 10 years after the order. A wrong or expired key gets the same 404 as an unknown order. Kept by no cache, indexed by no
 * search engine, and the address (with its key) never sent to another site.
 */
export const CUSTOMER_DOCUMENT_HEADERS = {
  ...cacheControl(PRIVATE_NO_STORE),
  "Referrer-Policy": "same-origin",
  "X-Robots-Tag": "noindex, nofollow",
} as const;

export async function loadCustomerDocument(request: Request, idParam: string | undefined, kind: InvoiceKind) {
  const id = parseIdOrNull(idParam);
  const key = new URL(request.url).searchParams.get("cle");
  const order = id === null ? undefined : await findOrder(id);
  if (!order || !orderLinkKeyMatches(order, key)) {
    throw new Response("Document introuvable", { status: 404, headers: CUSTOMER_DOCUMENT_HEADERS });
  }
  const url = new URL(request.url);
  const number = kind === "credit_note" ? url.searchParams.get("numero") : null;
  const documents = await getOrderInvoices(order.id, number);
  // A credit note number the order does not have: the same 404 as an unknown order.
  if (number && !documents.creditNote) {
    throw new Response("Document introuvable", { status: 404, headers: CUSTOMER_DOCUMENT_HEADERS });
  }
  const refunds = (await getOrderRefunds(order)).refunds.filter((r) => r.status === "succeeded");
  return data(
    {
      orderId: order.id,
      key: key ?? "",
      paid: paymentReceived(order.paymentStatus),
      document: kind === "invoice" ? documents.invoice : documents.creditNote,
      /** The other document of the order, when issued (a link from the invoice to its credit note and back). */
      hasCreditNote: documents.creditNote !== null,
      /** The refunds made (date, amount, credit note and its link), listed under the invoice. */
      refunds: refunds.map((r) => ({
        id: r.id,
        createdAt: r.createdAt,
        amountCents: r.amountCents,
        creditNoteNumber: r.creditNoteNumber,
        creditNotePath: r.creditNoteNumber ? orderCreditNotePath(order.id, r.creditNoteNumber) : null,
      })),
    },
    { headers: CUSTOMER_DOCUMENT_HEADERS },
  );
}
