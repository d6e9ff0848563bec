import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData, useNavigation } from "@remix-run/react";
import { redirectWithError, redirectWithSuccess } from "remix-toast";
import { DeleteConfirmation } from "~/components/admin/DeleteConfirmation";
import { Dialog } from "~/components/admin/Dialog";
import { iconButton, PencilIcon, TrashIcon } from "~/components/admin/icons";
import { Badge, buttonPrimary, EmptyRow, PageHeader, TableWrap, td, th } from "~/components/admin/ui";
import { actionError } from "~/http/action-errors.server";
import { requireAdmin } from "~/http/admin-guard.server";
import { requireSameOriginForm } from "~/http/api.server";
import { NO_STORE_HEADERS } from "~/http/cache-control";
import { formatDate } from "~/lib/dates";
import { parseIdOrNull } from "~/lib/ids";
import { pageMeta } from "~/lib/meta";
import { displayName } from "~/lib/names";
import { deleteUser, listUsers } from "~/services/users.server";

export const meta: MetaFunction = () => pageMeta("Utilisateurs", "Comptes de la boutique.");

export async function loader({ request }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request);
  const users = listUsers().map((u) => ({
    id: u.id,
    username: u.username,
    email: u.email,
    name: displayName({ firstName: u.firstName, lastName: u.lastName }) ?? "",
    createdAt: u.createdAt,
    isAdmin: u.isAdmin,
  }));
  const deleteParam = new URL(request.url).searchParams.get("delete");
  const toDelete = deleteParam ? (users.find((u) => String(u.id) === deleteParam) ?? null) : null;
  return json({ users, toDelete, selfId: admin.id }, { headers: NO_STORE_HEADERS });
}

export async function action({ request }: ActionFunctionArgs) {
  requireSameOriginForm(request);
  const admin = await requireAdmin(request);
  const form = await request.formData();
  const id = parseIdOrNull(String(form.get("id") ?? ""));
  if (form.get("intent") !== "delete" || id === null) {
    return redirectWithError("/admin/users", { message: "Erreur", description: "Une erreur est survenue: action inconnue" });
  }
  try {
    const deleted = deleteUser(admin.id, id);
    if (!deleted) return redirectWithError("/admin/users", { message: "Suppression impossible", description: "Cet utilisateur n'existe plus." });
    return redirectWithSuccess("/admin/users", { message: "Utilisateur supprimé", description: "Le compte a été supprimé." });
  } catch (error) {
    const refusal = actionError(error);
    if (!refusal) throw error;
    return redirectWithError("/admin/users", { message: "Suppression impossible", description: refusal.message });
  }
}

export default function AdminUsers() {
  const { users, toDelete, selfId } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const deleting = navigation.state !== "idle" && navigation.formData?.get("intent") === "delete";
  return (
    <>
      <PageHeader
        title="Utilisateurs"
        actions={
          <Link to="/admin/users/new" className={buttonPrimary}>
            Ajouter un utilisateur
          </Link>
        }
      />
      <TableWrap label="Liste des utilisateurs">
        <thead>
          <tr>
            <th scope="col" className={th}>ID</th>
            <th scope="col" className={th}>Nom d'utilisateur</th>
            <th scope="col" className={th}>Email</th>
            <th scope="col" className={th}>Nom</th>
            <th scope="col" className={th}>Inscription</th>
            <th scope="col" className={th}>Rôle</th>
            <th scope="col" className={th}>Actions</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {users.length === 0 ? (
            <EmptyRow colSpan={7}>Aucun utilisateur trouvé</EmptyRow>
          ) : (
            users.map((u) => (
              <tr key={u.id} className="hover:bg-slate-50">
                <td className={`${td} font-mono`}>{u.id}</td>
                <td className={`${td} font-medium`}>
                  {u.username}
                  {u.id === selfId ? <span className="block text-xs font-normal text-ink-soft">(vous)</span> : null}
                </td>
                <td className={td}>{u.email}</td>
                <td className={td}>{u.name || "-"}</td>
                <td className={td}>{formatDate(u.createdAt)}</td>
                <td className={td}>{u.isAdmin ? <Badge tone="violet">Administrateur</Badge> : <Badge tone="gray">Client</Badge>}</td>
                <td className={td}>
                  <div className="flex gap-2">
                    <Link to={`/admin/users/edit/${u.id}`} className={iconButton} aria-label={`Modifier ${u.username}`} title="Modifier">
                      <PencilIcon />
                    </Link>
                    {u.id !== selfId ? (
                      <Link to={`?delete=${u.id}`} preventScrollReset className={`${iconButton} text-red-700`} aria-label={`Supprimer ${u.username}`} title="Supprimer">
                        <TrashIcon />
                      </Link>
                    ) : null}
                  </div>
                </td>
              </tr>
            ))
          )}
        </tbody>
      </TableWrap>

      {toDelete ? (
        toDelete.id === selfId ? (
          <Dialog title="Confirmer la suppression" closeTo="/admin/users" role="alertdialog" maxWidth="max-w-md">
            <p>Vous ne pouvez pas supprimer votre propre compte.</p>
          </Dialog>
        ) : (
          <DeleteConfirmation closeTo="/admin/users" action="/admin/users?index" id={toDelete.id} deleting={deleting}>
            <p>
              Êtes-vous sûr de vouloir supprimer le compte « {toDelete.username} » ({toDelete.email}) ? Cette action est irréversible.
            </p>
          </DeleteConfirmation>
        )
      ) : null}
    </>
  );
}
