import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction, SerializeFrom } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { redirectWithError, redirectWithSuccess } from "~/http/toast.server";
import { actionError } from "~/http/action-errors.server";
import { DataTable, type TableDefinition } from "~/components/admin/DataTable";
import { FilterBar, FilterSelect, Pagination } from "~/components/admin/ListControls";
import { OrderStateBadges } from "~/components/admin/OrderBadges";
import { buttonSecondary, buttonSmall, PageHeader } from "~/components/admin/ui";
import { requireAdmin } from "~/http/admin-guard.server";
import { readRowAction, unknownAction } from "~/http/admin-pages.server";
import { NO_STORE_HEADERS } from "~/http/cache-control";
import { formatDate } from "~/lib/dates";
import { pageMeta } from "~/lib/meta";
import { formatPrice } from "~/lib/money";
import { FULFILMENT_STEPS, orderClosure, PAYMENT_FILTER_LABELS } from "~/lib/order-status";
import { renewalLabel } from "~/lib/renewals";
import { safeRedirect } from "~/lib/safe-redirect";
import { readOrderFilters } from "~/schemas/admin-order";
import { countAwaitingPayment, listAdminOrders, markOrderDelivered, updateAdminOrder } from "~/services/admin-orders.server";
import { ordersWithWithdrawal } from "~/services/withdrawals.server";
import { formatCount } from "~/lib/analytics-format";

export const meta: MetaFunction = () => pageMeta("Commandes", "Commandes de la boutique, et paniers en attente de paiement.");

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const filters = readOrderFilters(new URL(request.url));
  const result = await listAdminOrders(filters);
  const withdrawn = await ordersWithWithdrawal(result.orders.map((o) => o.id));
  const orders = result.orders.map((o) => ({ ...o, withdrawal: withdrawn.has(o.id) }));
  return data({ ...result, orders, filters, awaitingPayment: await countAwaitingPayment() }, { headers: NO_STORE_HEADERS });
}

export async function action({ request }: ActionFunctionArgs) {
  const { form, id, intent } = await readRowAction(request);
  const back = safeRedirect(form.get("redirectTo"), "/admin/orders");
  const target = back.startsWith("/admin/orders") ? back : "/admin/orders";
  // The row's quick action: the order's next step (« En préparation », or delivered once shipped).
  if ((intent !== "complete" && intent !== "prepare") || id === null) return unknownAction(target);
  let found: boolean;
  try {
    found = intent === "prepare" ? await updateAdminOrder(id, { status: "processing" }) : await markOrderDelivered(id);
  } catch (error) {
    // An unpaid order cannot be delivered: the refusal's French message.
    const refusal = actionError(error);
    if (!refusal) throw error;
    return redirectWithError(target, { message: "Commande non livrable", description: refusal.message });
  }
  if (!found) {
    return redirectWithError(target, { message: "Erreur", description: "Une erreur est survenue: commande introuvable" });
  }
  return redirectWithSuccess(target, {
    message: "Commande mise à jour",
    description: intent === "prepare" ? `La commande #${id} est en préparation.` : `La commande #${id} est marquée comme livrée.`,
  });
}

const TAB = "-mb-px border-b-2 border-transparent px-3 py-2 text-sm font-medium text-ink-soft hover:text-ink";
const TAB_CURRENT = "border-ink text-ink";

type OrderRow = SerializeFrom<typeof loader>["orders"][number];

const TABLE: TableDefinition<OrderRow> = {
  columns: [
    {
      header: "ID",
      className: "font-mono md:whitespace-nowrap",
      cell: (o) => (
        <>
          <div>#{o.id}</div>
          {o.renewalNumber ? <div className="font-sans text-xs text-ink-soft">{renewalLabel(o.renewalNumber)}</div> : null}
        </>
      ),
    },
    // Dates, amounts and order numbers never wrap; a long email is cut with an ellipsis, whole in its title.
    { header: "Date", className: "tabular-nums md:whitespace-nowrap", cell: (o) => formatDate(o.createdAt) },
    {
      header: "Client",
      cell: (o) => (
        <>
          <div className="font-medium">{o.customer}</div>
          {o.email ? (
            <div className="max-w-[15rem] truncate text-xs text-ink-soft" title={o.email} data-testid="order-email">
              {o.email}
            </div>
          ) : null}
        </>
      ),
    },
    { header: "Total", className: "font-semibold tabular-nums md:whitespace-nowrap", cell: (o) => formatPrice(o.totalCents) },
    {
      header: "Statut",
      cell: (o) => (
        <div className="flex flex-wrap gap-1">
          {/* An unpaid checkout: its payment state only; a refunded or withdrawn order: its final state alone. */}
          <OrderStateBadges status={o.status} paymentStatus={o.paymentStatus} withdrawn={o.withdrawal} />
        </div>
      ),
    },
  ],
  actions: (o) => <OrderActions order={o} />,
};

const STATUS_OPTIONS = FULFILMENT_STEPS.map((s) => ({ value: s.status, label: s.label }));
/** The payment choices of each tab: the orders are paid or refunded, the checkouts awaiting payment unpaid or failed. */
const ORDER_PAYMENT_OPTIONS = (["paid", "partially_refunded", "refunded"] as const).map((value) => ({
  value,
  label: PAYMENT_FILTER_LABELS[value],
}));
const UNPAID_PAYMENT_OPTIONS = (["unpaid", "failed"] as const).map((value) => ({ value, label: PAYMENT_FILTER_LABELS[value] }));

/**
 * 'Voir', and the next step of a paid order not yet delivered (back to this page, filters
 * kept): « Préparer » a received order; « Expédier » one in preparation, on its page, where
 * the tracking number is typed; « Marquer livrée » a shipped one. A withdrawn order moves no
 * more along these steps: its next step is its refund, on its page; a refunded one has none.
 */
function OrderActions({ order }: { order: OrderRow }) {
  const location = useLocation();
  const navigation = useNavigation();
  const busy = navigation.formData?.get("id") === String(order.id);
  const paid = order.paymentStatus === "paid" || order.paymentStatus === "partially_refunded";
  const closure = orderClosure({ paymentStatus: order.paymentStatus, withdrawn: order.withdrawal });
  const step = (intent: "prepare" | "complete", label: string, name: string) => (
    <Form method="post" preventScrollReset>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={order.id} />
      <input type="hidden" name="redirectTo" value={`/admin/orders${location.search}`} />
      <button type="submit" className={buttonSmall} disabled={busy} aria-label={name}>
        {busy ? "Mise à jour…" : label}
      </button>
    </Form>
  );
  return (
    <>
      <Link to={`/admin/orders/${order.id}`} className={buttonSmall} aria-label={`Voir la commande ${order.id}`}>
        Voir
      </Link>
      {closure === "withdrawn" ? (
        <Link
          to={`/admin/orders/${order.id}#rembourser`}
          className={buttonSmall}
          aria-label={`Rembourser la commande ${order.id}`}
        >
          Rembourser
        </Link>
      ) : !paid || closure ? null : order.status === "pending" ? (
        step("prepare", "Préparer", `Passer la commande ${order.id} en préparation`)
      ) : order.status === "processing" ? (
        <Link to={`/admin/orders/${order.id}`} className={buttonSmall} aria-label={`Expédier la commande ${order.id}`}>
          Expédier
        </Link>
      ) : order.status === "shipped" ? (
        step("complete", "Marquer livrée", `Marquer la commande ${order.id} comme livrée`)
      ) : null}
    </>
  );
}

export default function AdminOrders() {
  const { orders, total, page, pageCount, filters, awaitingPayment } = useLoaderData<typeof loader>();
  const unpaidView = filters.view === "unpaid";
  const location = useLocation();
  const exportParams = new URLSearchParams(location.search);
  exportParams.delete("page");
  const exportQuery = exportParams.toString();
  const filtered = Boolean(filters.status || filters.payment || filters.q);
  const resetTo = unpaidView ? "/admin/orders?view=unpaid" : "/admin/orders";
  const noun = unpaidView ? "panier" : "commande";

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

      <nav
        aria-label="Commandes ou paniers en attente de paiement"
        className="mb-4 flex flex-wrap gap-2 border-b border-slate-200"
      >
        <Link
          to="/admin/orders"
          aria-current={unpaidView ? undefined : "page"}
          className={unpaidView ? TAB : `${TAB} ${TAB_CURRENT}`}
        >
          Commandes
        </Link>
        <Link
          to="/admin/orders?view=unpaid"
          aria-current={unpaidView ? "page" : undefined}
          className={unpaidView ? `${TAB} ${TAB_CURRENT}` : TAB}
        >
          Paniers abandonnés · paiement en attente <span className="tabular-nums">({formatCount(awaitingPayment)})</span>
        </Link>
      </nav>
      {unpaidView ? (
        <p className="mb-4 text-sm text-ink-soft">
          Chaque formulaire de livraison validé crée un panier en attente de paiement. Ce ne sont pas des commandes : rien n'est à
          préparer ni à expédier tant que le paiement n'est pas reçu.
        </p>
      ) : null}

      <FilterBar grid="sm:grid-cols-2 lg:grid-cols-[2fr_1fr_1fr_auto]" filtered={filtered} resetTo={resetTo}>
        {unpaidView ? <input type="hidden" name="view" value="unpaid" /> : null}
        <div>
          <label htmlFor="q" className="block text-sm font-medium">
            Numéro de commande ou email du client
          </label>
          <input
            id="q"
            name="q"
            type="search"
            defaultValue={filters.q ?? ""}
            className="field-input mt-1"
            placeholder="ex. 123456789 ou client@exemple.fr"
          />
        </div>
        <FilterSelect name="status" label="Statut" value={filters.status} options={STATUS_OPTIONS} />
        <FilterSelect
          name="payment"
          label="Paiement"
          value={filters.payment}
          options={unpaidView ? UNPAID_PAYMENT_OPTIONS : ORDER_PAYMENT_OPTIONS}
        />
      </FilterBar>

      <p className="mb-2 text-sm text-ink-soft" aria-live="polite">
        {`${formatCount(total)} ${noun}${total > 1 ? "s" : ""}`}
        {filtered ? (unpaidView ? " trouvé" : " trouvée") + (total > 1 ? "s" : "") : ""}
      </p>

      <DataTable
        {...TABLE}
        label={unpaidView ? "Liste des paniers en attente de paiement" : "Liste des commandes"}
        empty={unpaidView ? "Aucun panier en attente de paiement" : "Aucune commande trouvée"}
        rows={orders}
      />
      <Pagination page={page} pageCount={pageCount} />
    </>
  );
}
