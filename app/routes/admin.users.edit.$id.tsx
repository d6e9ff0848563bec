import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { redirectWithSuccess } from "~/http/toast.server";
import { AdminErrorBoundary } from "~/components/admin/AdminErrorBoundary";
import { AdminFormPage } from "~/components/admin/AdminForm";
import { UserForm } from "~/components/admin/UserForm";
import { requireAdmin } from "~/http/admin-guard.server";
import { notFound, recordOr404, requireAdminForm, submitAdminForm } from "~/http/admin-pages.server";
import { pageIdOr404 } from "~/http/api.server";
import { NO_STORE_HEADERS } from "~/http/cache-control";
import { pageMeta } from "~/lib/meta";
import { userUpdateSchema } from "~/schemas/user";
import { getUser, updateUser } from "~/services/users.server";

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  pageMeta(data ? `Modifier ${data.user.username}` : "Utilisateur introuvable", "Modifier un compte.");

const NOT_FOUND = "Utilisateur introuvable";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request);
  const user = await recordOr404(params.id, NOT_FOUND, getUser);
  return data({ user, self: user.id === admin.id }, { headers: NO_STORE_HEADERS });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireAdminForm(request);
  const id = pageIdOr404(params.id, NOT_FOUND);
  return submitAdminForm(
    request,
    userUpdateSchema,
    async (value) => {
      const user = await updateUser(admin.id, id, value, { actorSessionId: admin.sessionId });
      if (!user) throw notFound(NOT_FOUND);
      const sessionsClosed = value.password
        ? user.id === admin.id
          ? " Vos autres sessions ont été fermées."
          : " Ses sessions ouvertes ont été fermées."
        : "";
      return redirectWithSuccess("/admin/users", {
        message: "Utilisateur mis à jour",
        description: `Le compte « ${user.username} » a été enregistré.${sessionsClosed}`,
      });
    },
    { hideFields: ["password"] },
  );
}

export default function EditUser() {
  const { user, self } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <AdminFormPage
      title={`Modifier l'utilisateur ${user.username}`}
      back={{ to: "/admin/users", label: "Retour aux utilisateurs" }}
      deleteTo={self ? null : `/admin/users?delete=${user.id}`}
      error={actionData?.result.error?.[""]?.[0]}
    >
      <UserForm
        mode="edit"
        id={`user-${user.id}`}
        self={self}
        lastResult={actionData?.result}
        defaultValue={{
          username: user.username,
          email: user.email,
          firstName: user.firstName ?? "",
          lastName: user.lastName ?? "",
          address: user.address ?? "",
          city: user.city ?? "",
          postalCode: user.postalCode ?? "",
          country: user.country ?? "",
          phone: user.phone ?? "",
          isAdmin: user.isAdmin,
        }}
      />
    </AdminFormPage>
  );
}

export function ErrorBoundary() {
  return <AdminErrorBoundary notFound="Utilisateur introuvable." backTo="/admin/users" backLabel="Retour aux utilisateurs" />;
}
