import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { redirectWithError, redirectWithSuccess } from "remix-toast";
import { FulfilmentBadge, PaymentBadge } from "~/components/admin/OrderBadges";
import { buttonPrimary, buttonSecondary, buttonSmall, EmptyRow, PageHeader, selectClass, TableWrap, td, th } from "~/components/admin/ui";
import { requireAdmin } from "~/http/admin-guard.server";
import { requireSameOriginForm } from "~/http/api.server";
import { NO_STORE_HEADERS } from "~/http/cache-control";
import { formatDate } from "~/lib/dates";
import { parseIdOrNull } from "~/lib/ids";
import { pageMeta } from "~/lib/meta";
import { formatPrice } from "~/lib/money";
import { FULFILMENT_STEPS, PAYMENT_LABELS } from "~/lib/order-status";
import { safeRedirect } from "~/lib/safe-redirect";
import { readOrderFilters } from "~/schemas/admin-order";
import { listAdminOrders, markOrderDelivered } from "~/services/admin-orders.server";

export const meta: MetaFunction = () => pageMeta("Commandes", "Commandes de la boutique.");

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const filters = readOrderFilters(new URL(request.url));
  const result = listAdminOrders(filters);
  return json({ ...result, filters }, { headers: NO_STORE_HEADERS });
}

export async function action({ request }: ActionFunctionArgs) {
  requireSameOriginForm(request);
  await requireAdmin(request);
  const form = await request.formData();
  const back = safeRedirect(form.get("redirectTo"), "/admin/orders");
  const target = back.startsWith("/admin/orders") ? back : "/admin/orders";
  const id = parseIdOrNull(String(form.get("id") ?? ""));
  if (form.get("intent") !== "complete" || id === null) {
    return redirectWithError(target, { message: "Erreur", description: "Une erreur est survenue: action inconnue" });
  }
  if (!markOrderDelivered(id)) {
    return redirectWithError(target, { message: "Erreur", description: "Une erreur est survenue: commande introuvable" });
  }
  return redirectWithSuccess(target, {
    message: "Commande mise à jour",
    description: `La commande #${id} est marquée comme livrée.`,
  });
}

function pageLink(search: string, page: number) {
  const params = new URLSearchParams(search);
  params.set("page", String(page));
  return `?${params.toString()}`;
}

export default function AdminOrders() {
  const { orders, total, page, pageCount, filters } = useLoaderData<typeof loader>();
  const location = useLocation();
  const navigation = useNavigation();
  const exportParams = new URLSearchParams(location.search);
  exportParams.delete("page");
  const exportQuery = exportParams.toString();
  const filtered = Boolean(filters.status || filters.payment || filters.q);

  return (
    <>
      <PageHeader
        title="Commandes"
        actions={
          <a href={`/admin/orders/export.csv${exportQuery ? `?${exportQuery}` : ""}`} className={buttonSecondary} download>
            Exporter en CSV
          </a>
        }
      />

      <Form method="get" className="mb-4 grid gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:grid-cols-2 lg:grid-cols-[2fr_1fr_1fr_auto]" role="search">
        <div>
          <label htmlFor="q" className="block text-sm font-medium">
            Numéro de commande ou email du client
          </label>
          <input id="q" name="q" type="search" defaultValue={filters.q ?? ""} className="field-input mt-1" placeholder="ex. 123456789 ou client@exemple.fr" />
        </div>
        <div>
          <label htmlFor="status" className="block text-sm font-medium">
            Statut
          </label>
          <select id="status" name="status" defaultValue={filters.status ?? ""} className={`${selectClass} mt-1 w-full py-2.5`}>
            <option value="">Tous</option>
            {FULFILMENT_STEPS.map((s) => (
              <option key={s.status} value={s.status}>
                {s.label}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="payment" className="block text-sm font-medium">
            Paiement
          </label>
          <select id="payment" name="payment" defaultValue={filters.payment ?? ""} className={`${selectClass} mt-1 w-full py-2.5`}>
            <option value="">Tous</option>
            {Object.entries(PAYMENT_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div className="flex items-end gap-2">
          <button type="submit" className={buttonPrimary}>
            Filtrer
          </button>
          {filtered ? (
            <Link to="/admin/orders" className={buttonSecondary}>
              Réinitialiser
            </Link>
          ) : null}
        </div>
      </Form>

      <p className="mb-2 text-sm text-ink-soft" aria-live="polite">
        {total} commande{total > 1 ? "s" : ""}
        {filtered ? " trouvée" + (total > 1 ? "s" : "") : ""}
      </p>

      <TableWrap label="Liste des commandes">
        <thead>
          <tr>
            <th scope="col" className={th}>ID</th>
            <th scope="col" className={th}>Date</th>
            <th scope="col" className={th}>Client</th>
            <th scope="col" className={th}>Total</th>
            <th scope="col" className={th}>Statut</th>
            <th scope="col" className={th}>Actions</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {orders.length === 0 ? (
            <EmptyRow colSpan={6}>Aucune commande trouvée</EmptyRow>
          ) : (
            orders.map((o) => {
              const completing = navigation.formData?.get("intent") === "complete" && navigation.formData?.get("id") === String(o.id);
              return (
                <tr key={o.id} className="hover:bg-slate-50">
                  <td className={`${td} font-mono`}>#{o.id}</td>
                  <td className={td}>{formatDate(o.createdAt)}</td>
                  <td className={td}>
                    <div className="font-medium">{o.customer}</div>
                    {o.email ? <div className="text-xs text-ink-soft">{o.email}</div> : null}
                  </td>
                  <td className={`${td} font-semibold tabular-nums`}>{formatPrice(o.totalCents)}</td>
                  <td className={td}>
                    <div className="flex flex-wrap gap-1">
                      <FulfilmentBadge status={o.status} />
                      <PaymentBadge status={o.paymentStatus} />
                    </div>
                  </td>
                  <td className={td}>
                    <div className="flex items-center gap-2">
                      <Link to={`/admin/orders/${o.id}`} className={buttonSmall} aria-label={`Voir la commande ${o.id}`}>
                        Voir
                      </Link>
                      {o.status !== "delivered" ? (
                        <Form method="post" preventScrollReset>
                          <input type="hidden" name="intent" value="complete" />
                          <input type="hidden" name="id" value={o.id} />
                          <input type="hidden" name="redirectTo" value={`/admin/orders${location.search}`} />
                          <button type="submit" className={buttonSmall} disabled={completing} aria-label={`Marquer la commande ${o.id} comme livrée`}>
                            {completing ? "Mise à jour..." : "Marquer livrée"}
                          </button>
                        </Form>
                      ) : null}
                    </div>
                  </td>
                </tr>
              );
            })
          )}
        </tbody>
      </TableWrap>

      {pageCount > 1 ? (
        <nav aria-label="Pagination" className="mt-4 flex items-center justify-between gap-2 text-sm">
          {page > 1 ? (
            <Link to={pageLink(location.search, page - 1)} className={buttonSecondary} rel="prev">
              ← Précédente
            </Link>
          ) : (
            <span />
          )}
          <span className="text-ink-soft">
            Page {page} sur {pageCount}
          </span>
          {page < pageCount ? (
            <Link to={pageLink(location.search, page + 1)} className={buttonSecondary} rel="next">
              Suivante →
            </Link>
          ) : (
            <span />
          )}
        </nav>
      ) : null}
    </>
  );
}
