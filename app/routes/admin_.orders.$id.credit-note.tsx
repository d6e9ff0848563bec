import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { AdminErrorBoundary } from "~/components/admin/AdminErrorBoundary";
import { AdminInvoicePage } from "~/components/invoice/AdminInvoicePage";
import { requireAdmin } from "~/http/admin-guard.server";
import { pageIdOr404 } from "~/http/api.server";
import { NO_STORE_HEADERS } from "~/http/cache-control";
import { pageMeta } from "~/lib/meta";
import { getAdminOrder } from "~/services/admin-orders.server";
import { getOrderInvoices } from "~/services/invoices.server";

/** A printable page: the shell shows no demo banner on it (root.tsx). */
export const handle = { printable: true };

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  pageMeta(
    data?.creditNote ? `Avoir ${data.creditNote.number}` : data ? `Avoir de la commande #${data.orderId}` : "Avoir",
    "Avoir imprimable.",
  );

export const headers: HeadersFunction = () => NO_STORE_HEADERS;

/** The order's credit note, as issued at its refund; a notice while the order is not refunded. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const order = await getAdminOrder(pageIdOr404(params.id, "Commande introuvable"));
  if (!order) throw new Response("Commande introuvable", { status: 404 });
  const number = new URL(request.url).searchParams.get("numero");
  const { creditNote } = await getOrderInvoices(order.id, number);
  // A number this order has no credit note under: not found, rather than the "not refunded" notice.
  if (number && !creditNote) throw new Response("Avoir introuvable", { status: 404, headers: NO_STORE_HEADERS });
  return data({ orderId: order.id, paymentStatus: order.paymentStatus, creditNote }, { headers: NO_STORE_HEADERS });
}

export default function AdminCreditNote() {
  const { orderId, paymentStatus, creditNote } = useLoaderData<typeof loader>();
  return <AdminInvoicePage orderId={orderId} kind="credit_note" document={creditNote} paymentStatus={paymentStatus} />;
}

export function ErrorBoundary() {
  return (
    <div className="mx-auto max-w-2xl p-6">
      <AdminErrorBoundary notFound="Commande ou avoir introuvable." backTo="/admin/orders" backLabel="Retour aux commandes" />
    </div>
  );
}
