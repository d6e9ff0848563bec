import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction, SerializeFrom } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { redirectWithError, redirectWithSuccess } from "remix-toast";
import { DataTable, type TableDefinition } from "~/components/admin/DataTable";
import { FilterBar, FilterSelect, Pagination } from "~/components/admin/ListControls";
import { FulfilmentBadge, PaymentBadge } from "~/components/admin/OrderBadges";
import { buttonSecondary, buttonSmall, PageHeader } from "~/components/admin/ui";
import { requireAdmin } from "~/http/admin-guard.server";
import { readRowAction, unknownAction } from "~/http/admin-pages.server";
import { NO_STORE_HEADERS } from "~/http/cache-control";
import { formatDate } from "~/lib/dates";
import { pageMeta } from "~/lib/meta";
import { formatPrice } from "~/lib/money";
import { FULFILMENT_STEPS, PAYMENT_LABELS } from "~/lib/order-status";
import { renewalLabel } from "~/lib/renewals";
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
  const { form, id, intent } = await readRowAction(request);
  const back = safeRedirect(form.get("redirectTo"), "/admin/orders");
  const target = back.startsWith("/admin/orders") ? back : "/admin/orders";
  if (intent !== "complete" || id === null) return unknownAction(target);
  if (!markOrderDelivered(id)) {
    return redirectWithError(target, { message: "Erreur", description: "Une erreur est survenue: commande introuvable" });
  }
  return redirectWithSuccess(target, {
    message: "Commande mise à jour",
    description: `La commande #${id} est marquée comme livrée.`,
  });
}

type OrderRow = SerializeFrom<typeof loader>["orders"][number];

const TABLE: TableDefinition<OrderRow> = {
  columns: [
    {
      header: "ID",
      className: "font-mono",
      cell: (o) => (
        <>
          <div>#{o.id}</div>
          {o.renewalNumber ? <div className="font-sans text-xs text-ink-soft">{renewalLabel(o.renewalNumber)}</div> : null}
        </>
      ),
    },
    { header: "Date", cell: (o) => formatDate(o.createdAt) },
    {
      header: "Client",
      cell: (o) => (
        <>
          <div className="font-medium">{o.customer}</div>
          {o.email ? <div className="text-xs text-ink-soft">{o.email}</div> : null}
        </>
      ),
    },
    { header: "Total", className: "font-semibold tabular-nums", cell: (o) => formatPrice(o.totalCents) },
    {
      header: "Statut",
      cell: (o) => (
        <div className="flex flex-wrap gap-1">
          <FulfilmentBadge status={o.status} />
          <PaymentBadge status={o.paymentStatus} />
        </div>
      ),
    },
  ],
  actions: (o) => <OrderActions order={o} />,
};

const STATUS_OPTIONS = FULFILMENT_STEPS.map((s) => ({ value: s.status, label: s.label }));
const PAYMENT_OPTIONS = Object.entries(PAYMENT_LABELS).map(([value, label]) => ({ value, label }));

/** 'Voir', and 'Marquer livrée' until the order is delivered (back to this page, filters kept). */
function OrderActions({ order }: { order: OrderRow }) {
  const location = useLocation();
  const navigation = useNavigation();
  const completing = navigation.formData?.get("intent") === "complete" && navigation.formData?.get("id") === String(order.id);
  return (
    <>
      <Link to={`/admin/orders/${order.id}`} className={buttonSmall} aria-label={`Voir la commande ${order.id}`}>
        Voir
      </Link>
      {order.status !== "delivered" ? (
        <Form method="post" preventScrollReset>
          <input type="hidden" name="intent" value="complete" />
          <input type="hidden" name="id" value={order.id} />
          <input type="hidden" name="redirectTo" value={`/admin/orders${location.search}`} />
          <button type="submit" className={buttonSmall} disabled={completing} aria-label={`Marquer la commande ${order.id} comme livrée`}>
            {completing ? "Mise à jour..." : "Marquer livrée"}
          </button>
        </Form>
      ) : null}
    </>
  );
}

export default function AdminOrders() {
  const { orders, total, page, pageCount, filters } = useLoaderData<typeof loader>();
  const location = useLocation();
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

      <FilterBar grid="sm:grid-cols-2 lg:grid-cols-[2fr_1fr_1fr_auto]" filtered={filtered} resetTo="/admin/orders">
        <div>
          <label htmlFor="q" className="block text-sm font-medium">
            Numéro de commande ou email du client
          </label>
          <input id="q" name="q" type="search" defaultValue={filters.q ?? ""} className="field-input mt-1" placeholder="ex. 123456789 ou client@exemple.fr" />
        </div>
        <FilterSelect name="status" label="Statut" value={filters.status} options={STATUS_OPTIONS} />
        <FilterSelect name="payment" label="Paiement" value={filters.payment} options={PAYMENT_OPTIONS} />
      </FilterBar>

      <p className="mb-2 text-sm text-ink-soft" aria-live="polite">
        {total} commande{total > 1 ? "s" : ""}
        {filtered ? " trouvée" + (total > 1 ? "s" : "") : ""}
      </p>

      <DataTable {...TABLE} label="Liste des commandes" empty="Aucune commande trouvée" rows={orders} />
      <Pagination page={page} pageCount={pageCount} />
    </>
  );
}
