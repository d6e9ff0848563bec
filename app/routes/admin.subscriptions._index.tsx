import type { LoaderFunctionArgs, MetaFunction, SerializeFrom } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { DataTable, type TableDefinition } from "~/components/admin/DataTable";
import { FilterBar, FilterSelect, Pagination } from "~/components/admin/ListControls";
import { SubscriptionBadge } from "~/components/admin/SubscriptionBadge";
import { Notice, PageHeader } from "~/components/admin/ui";
import { requireAdmin } from "~/http/admin-guard.server";
import { NO_STORE_HEADERS } from "~/http/cache-control";
import { formatDate } from "~/lib/dates";
import { pageMeta } from "~/lib/meta";
import { formatPrice } from "~/lib/money";
import { SUBSCRIPTION_STATUS_LABELS } from "~/lib/subscription-status";
import { readSubscriptionFilters, SUBSCRIPTION_FILTER_NAMES } from "~/schemas/admin-subscription";
import { listAdminSubscriptions } from "~/services/subscriptions/admin-view.server";
import { listAllPacks } from "~/services/packs.server";
import { formatCount } from "~/lib/analytics-format";

export const meta: MetaFunction = () => pageMeta("Abonnements", "Abonnements de la boutique.");

const FILTER_LABELS: Record<string, string> = {
  status: "Statut",
  q: "Client",
  pack: "Pack",
  minAmount: "Montant minimum",
  maxAmount: "Montant maximum",
  startedFrom: "Souscrit à partir du",
  startedTo: "Souscrit jusqu'au",
  renewsFrom: "Prochain renouvellement à partir du",
  renewsTo: "Prochain renouvellement jusqu'au",
  minRenewals: "Renouvellements minimum",
  maxRenewals: "Renouvellements maximum",
  page: "Page",
};

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const url = new URL(request.url);
  const all = await listAllPacks();
  const { filters, issues } = readSubscriptionFilters(
    url,
    all.map((p) => p.id),
  );
  const result = await listAdminSubscriptions(filters);
  // What the form shows: the values as typed (the ignored ones too, so they can be corrected).
  const values = Object.fromEntries(SUBSCRIPTION_FILTER_NAMES.map((name) => [name, url.searchParams.get(name) ?? ""]));
  const severalProducts = new Set(all.map((p) => p.productId)).size > 1;
  const packs = all.map((p) => ({ value: String(p.id), label: severalProducts ? `${p.productName} : ${p.name}` : p.name }));
  return data(
    { ...result, values, issues: issues.map((i) => ({ ...i, label: FILTER_LABELS[i.path] ?? i.path })), packs },
    { headers: NO_STORE_HEADERS },
  );
}

type Row = SerializeFrom<typeof loader>["subscriptions"][number];

const TABLE: TableDefinition<Row> = {
  columns: [
    {
      header: "Client",
      cell: (s) => (
        <>
          <Link
            to={`/admin/subscriptions/${s.id}`}
            className="font-medium underline decoration-slate-300 hover:decoration-ink"
            aria-label={`Voir l'abonnement de ${s.customer} (n°${s.id})`}
          >
            {s.customer}
          </Link>
          {s.email ? <div className="text-xs text-ink-soft">{s.email}</div> : null}
        </>
      ),
    },
    {
      header: "Pack",
      className: "min-w-[7rem] !whitespace-normal",
      cell: (s) => (s.quantity > 1 ? `${s.pack} × ${s.quantity}` : s.pack),
    },
    { header: "Montant / 4 sem.", className: "font-semibold tabular-nums", cell: (s) => formatPrice(s.amountCents) },
    { header: "Statut", cell: (s) => <SubscriptionBadge status={s.status} cancelAtPeriodEnd={s.cancelAtPeriodEnd} /> },
    { header: "Début", className: "tabular-nums", cell: (s) => formatDate(s.startedAt) },
    { header: "Prochain renouv.", className: "tabular-nums", cell: (s) => (s.nextRenewalAt ? formatDate(s.nextRenewalAt) : "-") },
    { header: "Nb renouv.", className: "tabular-nums", cell: (s) => s.renewalCount },
  ],
};

const STATUS_OPTIONS = Object.entries(SUBSCRIPTION_STATUS_LABELS).map(([value, label]) => ({ value, label }));

/** Two fields side by side under one legend (from / to). */
function Range({
  legend,
  from,
  to,
  type,
  values,
  hint,
}: {
  legend: string;
  from: { name: string; label: string };
  to: { name: string; label: string };
  type: "date" | "text" | "number";
  values: Record<string, string>;
  hint?: string;
}) {
  const extra =
    type === "text" ? { inputMode: "decimal" as const, placeholder: hint } : type === "number" ? { min: 0, step: 1 } : {};
  return (
    <fieldset>
      <legend className="block text-sm font-medium">{legend}</legend>
      <div className="mt-1 grid grid-cols-2 gap-2">
        {[from, to].map((field) => (
          <div key={field.name}>
            <label htmlFor={field.name} className="sr-only">
              {field.label}
            </label>
            <input
              id={field.name}
              name={field.name}
              type={type}
              defaultValue={values[field.name]}
              className="field-input"
              {...extra}
            />
          </div>
        ))}
      </div>
    </fieldset>
  );
}

export default function AdminSubscriptions() {
  const { subscriptions, total, page, pageCount, values, issues, packs } = useLoaderData<typeof loader>();
  const filtered = SUBSCRIPTION_FILTER_NAMES.some((name) => name !== "page" && values[name]);

  return (
    <>
      <PageHeader title="Abonnements" />

      {issues.length ? (
        <Notice>
          <p className="font-semibold">Certains filtres ont été ignorés :</p>
          <ul className="mt-1 list-disc pl-5">
            {issues.map((issue) => (
              <li key={issue.path}>
                {issue.label} : {issue.message}
              </li>
            ))}
          </ul>
        </Notice>
      ) : null}

      <FilterBar grid="sm:grid-cols-2 lg:grid-cols-4" filtered={filtered} resetTo="/admin/subscriptions">
        <div>
          <label htmlFor="q" className="block text-sm font-medium">
            Client (nom ou email)
          </label>
          <input
            id="q"
            name="q"
            type="search"
            defaultValue={values.q}
            className="field-input mt-1"
            placeholder="ex. camille@exemple.fr"
          />
        </div>
        <FilterSelect name="status" label="Statut" value={values.status} options={STATUS_OPTIONS} />
        <FilterSelect name="pack" label="Pack" value={values.pack} options={packs} />
        <Range
          legend="Montant (€)"
          type="text"
          hint="ex. 25,90"
          values={values}
          from={{ name: "minAmount", label: "Montant minimum (€)" }}
          to={{ name: "maxAmount", label: "Montant maximum (€)" }}
        />
        <Range
          legend="Souscrit entre le… et le…"
          type="date"
          values={values}
          from={{ name: "startedFrom", label: "Souscrit à partir du" }}
          to={{ name: "startedTo", label: "Souscrit jusqu'au" }}
        />
        <Range
          legend="Prochain renouvellement entre le… et le…"
          type="date"
          values={values}
          from={{ name: "renewsFrom", label: "Prochain renouvellement à partir du" }}
          to={{ name: "renewsTo", label: "Prochain renouvellement jusqu'au" }}
        />
        <Range
          legend="Nombre de renouvellements"
          type="number"
          values={values}
          from={{ name: "minRenewals", label: "Renouvellements minimum" }}
          to={{ name: "maxRenewals", label: "Renouvellements maximum" }}
        />
      </FilterBar>

      <p className="mb-2 text-sm text-ink-soft" aria-live="polite">
        {formatCount(total)} abonnement{total > 1 ? "s" : ""}
        {filtered ? " trouvé" + (total > 1 ? "s" : "") : ""}
      </p>

      <DataTable {...TABLE} label="Liste des abonnements" empty="Aucun abonnement trouvé" rows={subscriptions} />
      <Pagination page={page} pageCount={pageCount} />
    </>
  );
}
