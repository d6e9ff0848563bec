import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction, SerializeFrom } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { redirectWithError, redirectWithSuccess } from "~/http/toast.server";
import { DataTable, EditDeleteLinks, type TableDefinition } from "~/components/admin/DataTable";
import { DeleteConfirmation } from "~/components/admin/DeleteConfirmation";
import { Pagination } from "~/components/admin/ListControls";
import { EyeIcon, iconButton } from "~/components/admin/icons";
import { Badge, Card, PageHeader } from "~/components/admin/ui";
import { actionError } from "~/http/action-errors.server";
import { requireAdmin } from "~/http/admin-guard.server";
import { queryId, queryPage, readRowAction, unknownAction } from "~/http/admin-pages.server";
import { NO_STORE_HEADERS } from "~/http/cache-control";
import { formatDate, formatDateTime } from "~/lib/dates";
import { pageMeta } from "~/lib/meta";
import { displayName } from "~/lib/names";
import { listRecentAudit } from "~/services/customers/audit.server";
import { deleteUser, getUser, listUsersPage } from "~/services/users.server";

export const meta: MetaFunction = () => pageMeta("Utilisateurs", "Comptes de la boutique.");

export async function loader({ request }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request);
  const { users: rows, page, pageCount, total } = await listUsersPage(queryPage(request));
  const users = rows.map((u) => ({
    id: u.id,
    username: u.username,
    email: u.email,
    name: displayName({ firstName: u.firstName, lastName: u.lastName }) ?? "",
    createdAt: u.createdAt,
    isAdmin: u.isAdmin,
    self: u.id === admin.id,
  }));
  const deleteId = queryId(request, "delete");
  const found = deleteId === null ? undefined : await getUser(deleteId);
  const toDelete = found ? { id: found.id, username: found.username, email: found.email, self: found.id === admin.id } : null;
  return data({ users, page, pageCount, total, toDelete, audit: await listRecentAudit(10) }, { headers: NO_STORE_HEADERS });
}

export async function action({ request }: ActionFunctionArgs) {
  const { admin, id, intent } = await readRowAction(request);
  if (intent !== "delete" || id === null) return unknownAction("/admin/users");
  try {
    const deleted = await deleteUser(admin.id, id);
    if (!deleted)
      return redirectWithError("/admin/users", {
        message: "Suppression impossible",
        description: "Cet utilisateur n'existe plus.",
      });
    return redirectWithSuccess("/admin/users", { message: "Utilisateur supprimé", description: "Le compte a été supprimé." });
  } catch (error) {
    const refusal = actionError(error);
    if (!refusal) throw error;
    return redirectWithError("/admin/users", { message: "Suppression impossible", description: refusal.message });
  }
}

type UserRow = SerializeFrom<typeof loader>["users"][number];

/** The signed-in administrator's own row says '(vous)' and has no delete link. */
const TABLE: TableDefinition<UserRow> = {
  columns: [
    { header: "ID", className: "font-mono", cell: (u) => u.id },
    {
      header: "Nom d'utilisateur",
      className: "font-medium",
      cell: (u) => (
        <>
          {u.username}
          {u.self ? <span className="block text-xs font-normal text-ink-soft">(vous)</span> : null}
        </>
      ),
    },
    { header: "Email", cell: (u) => u.email },
    { header: "Nom", cell: (u) => u.name || "-" },
    { header: "Inscription", cell: (u) => formatDate(u.createdAt) },
    {
      header: "Rôle",
      cell: (u) => (u.isAdmin ? <Badge tone="violet">Administrateur</Badge> : <Badge tone="gray">Client</Badge>),
    },
  ],
  actions: (u) => (
    <>
      <Link
        to={`/admin/customers/${u.id}`}
        className={iconButton}
        aria-label={`Fiche client de ${u.username}`}
        title="Fiche client"
      >
        <EyeIcon />
      </Link>
      <EditDeleteLinks id={u.id} editTo={`/admin/users/edit/${u.id}`} name={u.username} deletable={!u.self} />
    </>
  ),
};

export default function AdminUsers() {
  const { users, page, pageCount, toDelete, audit } = useLoaderData<typeof loader>();
  return (
    <>
      <PageHeader title="Utilisateurs" add={{ to: "/admin/users/new", label: "Ajouter un utilisateur" }} />
      <DataTable {...TABLE} label="Liste des utilisateurs" empty="Aucun utilisateur trouvé" rows={users} />
      <Pagination page={page} pageCount={pageCount} />
      {audit.length ? (
        <Card title="Derniers exports et effacements de données" className="mt-6">
          <ul className="divide-y divide-slate-100" data-testid="audit-log">
            {audit.map((line) => (
              <li key={line.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
                <span>
                  {line.label} ·{" "}
                  <Link
                    to={`/admin/customers/${line.customerId}`}
                    className="font-medium underline decoration-slate-300 hover:decoration-ink"
                  >
                    client n°{line.customerId}
                  </Link>
                </span>
                <span className="tabular-nums text-ink-soft">
                  {formatDateTime(line.at)} · par {line.actor}
                </span>
              </li>
            ))}
          </ul>
        </Card>
      ) : null}
      {toDelete ? (
        <DeleteConfirmation
          id={toDelete.id}
          subject={`le compte « ${toDelete.username} » (${toDelete.email})`}
          refusal={toDelete.self ? "Vous ne pouvez pas supprimer votre propre compte." : null}
        />
      ) : null}
    </>
  );
}
