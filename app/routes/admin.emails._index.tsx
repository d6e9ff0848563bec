import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction, SerializeFrom } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, useLoaderData, useLocation } from "@remix-run/react";
import { DataTable, type TableDefinition } from "~/components/admin/DataTable";
import { emailKindLabel, EmailStatusDetail, ResendEmailForm } from "~/components/admin/EmailParts";
import { FilterBar, FilterSelect, Pagination } from "~/components/admin/ListControls";
import { buttonSmall, PageHeader } from "~/components/admin/ui";
import { getConfig } from "~/config.server";
import { requireAdmin } from "~/http/admin-guard.server";
import { resendEmailAction } from "~/pages/admin-emails.server";
import { NO_STORE_HEADERS } from "~/http/cache-control";
import { formatDateTime } from "~/lib/dates";
import { EMAIL_KIND_LABELS, EMAIL_STATUS_LABELS, EMAIL_STATUSES } from "~/lib/email-kinds";
import { pageMeta } from "~/lib/meta";
import { readEmailFilters } from "~/schemas/admin-email";
import { countEmailsByStatus, listEmails } from "~/services/email/mailbox.server";
import { formatCount } from "~/lib/analytics-format";

export const meta: MetaFunction = () => pageMeta("Emails", "Les emails de la boutique : en attente, envoyés, en échec.");

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const filters = readEmailFilters(new URL(request.url));
  return data(
    { ...(await listEmails(filters)), filters, counts: await countEmailsByStatus(), demo: getConfig().mode === "demo" },
    { headers: NO_STORE_HEADERS },
  );
}

export const action = ({ request }: ActionFunctionArgs) => resendEmailAction(request);

type EmailRow = SerializeFrom<typeof loader>["emails"][number];

const linkClass = "underline decoration-slate-300 hover:decoration-ink";

/** 'Voir' and, for a failed email, 'Renvoyer' (back to this page, filters kept). */
function EmailActions({ email }: { email: EmailRow }) {
  const location = useLocation();
  return (
    <>
      <Link to={`/admin/emails/${email.id}`} className={buttonSmall} aria-label={`Voir l'email ${email.id}`}>
        Voir
      </Link>
      {email.status === "failed" ? <ResendEmailForm id={email.id} redirectTo={`/admin/emails${location.search}`} /> : null}
    </>
  );
}

const TABLE: TableDefinition<EmailRow> = {
  columns: [
    { header: "Date", className: "tabular-nums", cell: (e) => formatDateTime(e.createdAt) },
    { header: "Destinataire", cell: (e) => e.toAddress },
    {
      header: "Type",
      cell: (e) => (
        <>
          <div>{emailKindLabel(e.kind)}</div>
          {e.subject ? (
            <div className="max-w-[16rem] truncate text-xs text-ink-soft" title={e.subject}>
              {e.subject}
            </div>
          ) : null}
        </>
      ),
    },
    {
      header: "Commande",
      className: "font-mono",
      cell: (e) =>
        e.orderId ? (
          <Link to={`/admin/orders/${e.orderId}`} className={linkClass}>
            #{e.orderId}
          </Link>
        ) : (
          "-"
        ),
    },
    { header: "Statut", cell: (e) => <EmailStatusDetail email={e} /> },
  ],
  rowProps: (e) => ({ "data-testid": `email-row-${e.id}`, "data-status": e.status }),
  actions: (e) => <EmailActions email={e} />,
};

const STATUS_OPTIONS = EMAIL_STATUSES.map((status) => ({ value: status, label: EMAIL_STATUS_LABELS[status] }));
const KIND_OPTIONS = Object.entries(EMAIL_KIND_LABELS).map(([value, label]) => ({ value, label }));

export default function AdminEmails() {
  const { emails, total, page, pageCount, filters, counts, demo } = useLoaderData<typeof loader>();
  const filtered = Boolean(filters.status || filters.kind || filters.to || filters.order);

  return (
    <>
      <PageHeader title="Emails">
        <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm text-ink-soft" aria-label="Emails par statut">
          {EMAIL_STATUSES.map((status) => (
            <li key={status}>
              <Link to={`/admin/emails?status=${status}`} className={linkClass}>
                {EMAIL_STATUS_LABELS[status]} : {counts[status]}
              </Link>
            </li>
          ))}
        </ul>
      </PageHeader>

      {demo ? (
        <p
          className="mb-4 rounded-lg border border-sky-200 bg-sky-50 px-4 py-3 text-sm text-sky-900"
          data-testid="demo-mailbox-note"
        >
          Mode démo : cette page est la boîte aux lettres de la boutique. Les emails ne sont pas envoyés, ils sont affichés ici
          tels qu'ils seraient partis.
        </p>
      ) : null}

      <FilterBar grid="sm:grid-cols-2 lg:grid-cols-[1fr_1fr_1.5fr_1fr_auto]" filtered={filtered} resetTo="/admin/emails">
        <FilterSelect name="status" label="Statut" value={filters.status} options={STATUS_OPTIONS} />
        <FilterSelect name="kind" label="Type" value={filters.kind} options={KIND_OPTIONS} />
        <div>
          <label htmlFor="to" className="block text-sm font-medium">
            Destinataire
          </label>
          <input
            id="to"
            name="to"
            type="search"
            defaultValue={filters.to ?? ""}
            className="field-input mt-1"
            placeholder="ex. client@exemple.fr"
          />
        </div>
        <div>
          <label htmlFor="order" className="block text-sm font-medium">
            Numéro de commande
          </label>
          <input
            id="order"
            name="order"
            type="search"
            inputMode="numeric"
            defaultValue={filters.order ?? ""}
            className="field-input mt-1"
            placeholder="ex. 123456789"
          />
        </div>
      </FilterBar>

      <p className="mb-2 text-sm text-ink-soft" aria-live="polite">
        {formatCount(total)} email{total > 1 ? "s" : ""}
        {filtered ? " trouvé" + (total > 1 ? "s" : "") : ""}
      </p>

      <DataTable {...TABLE} label="Liste des emails" empty="Aucun email trouvé" rows={emails} />
      <Pagination page={page} pageCount={pageCount} />
    </>
  );
}
