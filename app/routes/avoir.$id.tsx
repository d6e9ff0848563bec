import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { CustomerInvoicePage } from "~/components/invoice/CustomerInvoicePage";
import { CUSTOMER_DOCUMENT_HEADERS, loadCustomerDocument } from "~/pages/customer-document.server";
import { pageMeta } from "~/lib/meta";

/** A printable page: the shell shows no demo banner on it, and no header or footer in print (root.tsx). */
export const handle = { printable: true };

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  pageMeta(data?.document ? `Avoir ${data.document.number}` : "Votre avoir", "Avoir de votre commande remboursée.");

export const headers: HeadersFunction = () => CUSTOMER_DOCUMENT_HEADERS;

/** GET /avoir/{id}?cle=KEY: the customer's credit note once the order is refunded (linked from the invoice and the tracking page). */
export const loader = async ({ request, params }: LoaderFunctionArgs) =>
  await loadCustomerDocument(request, params.id, "credit_note");

export default function CustomerCreditNote() {
  const data = useLoaderData<typeof loader>();
  return (
    <CustomerInvoicePage
      kind="credit_note"
      orderId={data.orderId}
      orderKey={data.key}
      paid={data.paid}
      document={data.document}
      hasCreditNote={data.hasCreditNote}
    />
  );
}
