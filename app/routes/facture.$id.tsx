import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { CustomerInvoicePage } from "~/components/invoice/CustomerInvoicePage";
import { CUSTOMER_DOCUMENT_HEADERS, loadCustomerDocument } from "~/pages/customer-document.server";
import { pageMeta } from "~/lib/meta";

/** A printable page: the shell shows no demo banner on it, and no header or footer in print (root.tsx). */
export const handle = { printable: true };

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  pageMeta(data?.document ? `Facture ${data.document.number}` : "Votre facture", "Facture de votre commande.");

export const headers: HeadersFunction = () => CUSTOMER_DOCUMENT_HEADERS;

/** GET /facture/{id}?cle=KEY: the customer's invoice, from the confirmation email's link. */
export const loader = async ({ request, params }: LoaderFunctionArgs) =>
  await loadCustomerDocument(request, params.id, "invoice");

export default function CustomerInvoice() {
  const data = useLoaderData<typeof loader>();
  return (
    <CustomerInvoicePage
      kind="invoice"
      orderId={data.orderId}
      orderKey={data.key}
      paid={data.paid}
      document={data.document}
      hasCreditNote={data.hasCreditNote}
      refunds={data.refunds}
    />
  );
}
