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
import { getOrderRefunds } from "~/services/payments/refunds.server";

/** A printable page: the shell shows no demo banner on it (root.tsx). */
export const handle = { printable: true };

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  pageMeta(
    data?.invoice ? `Facture ${data.invoice.number}` : data ? `Facture de la commande #${data.orderId}` : "Facture",
    "Facture imprimable.",
  );

export const headers: HeadersFunction = () => NO_STORE_HEADERS;

/** The order's invoice, as issued at its payment; a notice while the order is not paid. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const order = await getAdminOrder(pageIdOr404(params.id, "Commande introuvable"));
  if (!order) throw new Response("Commande introuvable", { status: 404 });
  const { invoice } = await getOrderInvoices(order.id);
  const refunds = (await getOrderRefunds(order)).refunds
    .filter((r) => r.status === "succeeded")
    .map((r) => ({
      id: r.id,
      createdAt: r.createdAt,
      amountCents: r.amountCents,
      creditNoteNumber: r.creditNoteNumber,
      creditNotePath: r.creditNoteNumber
        ? `/admin/orders/${order.id}/credit-note?numero=${encodeURIComponent(r.creditNoteNumber)}`
        : null,
    }));
  return data({ orderId: order.id, paymentStatus: order.paymentStatus, invoice, refunds }, { headers: NO_STORE_HEADERS });
}

export default function AdminInvoice() {
  const { orderId, paymentStatus, invoice, refunds } = useLoaderData<typeof loader>();
  return <AdminInvoicePage orderId={orderId} kind="invoice" document={invoice} paymentStatus={paymentStatus} refunds={refunds} />;
}

export function ErrorBoundary() {
  return (
    <div className="mx-auto max-w-2xl p-6">
      <AdminErrorBoundary notFound="Commande introuvable." backTo="/admin/orders" backLabel="Retour aux commandes" />
    </div>
  );
}
