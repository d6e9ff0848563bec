import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { AdminErrorBoundary } from "~/components/admin/AdminErrorBoundary";
import { useHydrated } from "~/components/admin/ui";
import { requireAdmin } from "~/http/admin-guard.server";
import { pageIdOr404 } from "~/http/api.server";
import { NO_STORE_HEADERS } from "~/http/cache-control";
import { formatDate } from "~/lib/dates";
import { pageMeta } from "~/lib/meta";
import { formatPrice, shippingLabel } from "~/lib/money";
import { PAYMENT_LABELS } from "~/lib/order-status";
import { getAdminOrder } from "~/services/admin-orders.server";
import { getSettings } from "~/services/settings.server";
import { formatFrenchPhone } from "~/lib/phone";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  ...pageMeta(data ? `Facture commande #${data.order.id}` : "Facture", "Facture imprimable."),
  { name: "robots", content: "noindex" },
];

export const headers: HeadersFunction = () => NO_STORE_HEADERS;

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const order = getAdminOrder(pageIdOr404(params.id, "Commande introuvable"));
  if (!order) throw new Response("Commande introuvable", { status: 404 });
  return json({ order, seller: getSettings() }, { headers: NO_STORE_HEADERS });
}

/** A printable invoice: plain black on white, the toolbar hidden when printing. */
export default function Invoice() {
  const { order, seller } = useLoaderData<typeof loader>();
  const hydrated = useHydrated();
  return (
    <div className="min-h-screen bg-slate-100 px-4 py-6 print:bg-white print:p-0">
      <div className="mx-auto mb-4 flex max-w-3xl flex-wrap items-center justify-between gap-3 print:hidden">
        <Link to={`/admin/orders/${order.id}`} className="text-sm font-medium underline">
          ← Retour à la commande
        </Link>
        {hydrated ? (
          <button type="button" onClick={() => window.print()} className="rounded-lg bg-ink px-4 py-2 text-sm font-semibold text-white">
            Imprimer la facture
          </button>
        ) : (
          <p className="text-sm text-ink-soft">Imprimez cette page avec la commande Imprimer de votre navigateur (Ctrl+P).</p>
        )}
      </div>

      <article className="mx-auto max-w-3xl bg-white p-6 text-sm text-black shadow-sm sm:p-10 print:max-w-none print:p-0 print:shadow-none">
        <header className="flex flex-wrap justify-between gap-6 border-b border-slate-300 pb-6">
          <div>
            <p className="font-serif text-2xl">{seller.siteName}</p>
            <p className="mt-2 whitespace-pre-line">{seller.siteAddress}</p>
            <p>{seller.sitePhone}</p>
            <p>{seller.siteEmail}</p>
          </div>
          <div className="text-right">
            <h1 className="text-2xl font-semibold">Facture</h1>
            <p className="mt-2">N° de commande : {order.id}</p>
            <p>Date : {formatDate(order.createdAt)}</p>
            <p>Paiement : {PAYMENT_LABELS[order.paymentStatus]}</p>
          </div>
        </header>

        <section className="grid gap-6 border-b border-slate-300 py-6 sm:grid-cols-2 print:grid-cols-2">
          <div>
            <h2 className="font-semibold uppercase tracking-wide text-slate-600">Client</h2>
            <p className="mt-2">{order.customer}</p>
            <p>{order.email ?? "-"}</p>
          </div>
          <div>
            <h2 className="font-semibold uppercase tracking-wide text-slate-600">Livraison</h2>
            <p className="mt-2">{order.shippingAddress || "-"}</p>
            {order.shippingAddress2 ? <p>{order.shippingAddress2}</p> : null}
            <p>{[order.shippingPostalCode, order.shippingCity].filter(Boolean).join(" ") || "-"}</p>
            <p>{order.shippingCountry || "-"}</p>
            {order.shippingPhone ? <p>Tél. {formatFrenchPhone(order.shippingPhone)}</p> : null}
          </div>
        </section>

        <table className="mt-6 w-full text-left">
          <thead>
            <tr className="border-b border-slate-300">
              <th scope="col" className="py-2">Article</th>
              <th scope="col" className="py-2 text-right">Qté</th>
              <th scope="col" className="py-2 text-right">Prix unitaire TTC</th>
              <th scope="col" className="py-2 text-right">Total TTC</th>
            </tr>
          </thead>
          <tbody>
            {order.items.map((item) => (
              <tr key={item.id} className="border-b border-slate-200">
                <td className="py-2">
                  {item.name}
                  {item.variantName ? <span className="block text-xs text-slate-600">{item.variantName}</span> : null}
                </td>
                <td className="py-2 text-right tabular-nums">{item.quantity}</td>
                <td className="py-2 text-right tabular-nums">{formatPrice(item.unitPriceCents)}</td>
                <td className="py-2 text-right tabular-nums">{formatPrice(item.lineTotalCents)}</td>
              </tr>
            ))}
          </tbody>
        </table>

        <dl className="ml-auto mt-6 w-full max-w-xs space-y-1">
          <div className="flex justify-between">
            <dt>Sous-total</dt>
            <dd className="tabular-nums">{formatPrice(order.subtotalCents)}</dd>
          </div>
          <div className="flex justify-between">
            <dt>Livraison</dt>
            <dd className="tabular-nums">{shippingLabel(order.shippingCents)}</dd>
          </div>
          <div className="flex justify-between border-t border-slate-300 pt-2 text-base font-semibold">
            <dt>Total TTC</dt>
            <dd className="tabular-nums">{formatPrice(order.totalCents)}</dd>
          </div>
        </dl>
        <p className="mt-8 text-xs text-slate-600">Prix en euros, toutes taxes comprises. {seller.siteFooterText}</p>
      </article>
    </div>
  );
}

export function ErrorBoundary() {
  return (
    <div className="mx-auto max-w-2xl p-6">
      <AdminErrorBoundary notFound="Commande introuvable." backTo="/admin/orders" backLabel="Retour aux commandes" />
    </div>
  );
}
