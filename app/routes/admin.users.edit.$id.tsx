import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { redirectWithSuccess } from "remix-toast";
import { AdminErrorBoundary } from "~/components/admin/AdminErrorBoundary";
import { buttonDanger, Notice, PageHeader } from "~/components/admin/ui";
import { UserForm } from "~/components/admin/UserForm";
import { actionError, refusalReply } from "~/http/action-errors.server";
import { requireAdmin } from "~/http/admin-guard.server";
import { pageIdOr404, requireSameOriginForm } from "~/http/api.server";
import { NO_STORE_HEADERS } from "~/http/cache-control";
import { pageMeta } from "~/lib/meta";
import { userUpdateSchema } from "~/schemas/user";
import { getUser, updateUser } from "~/services/users.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data ? `Modifier ${data.user.username}` : "Utilisateur introuvable", "Modifier un compte.");

export async function loader({ request, params }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request);
  const user = getUser(pageIdOr404(params.id, "Utilisateur introuvable"));
  if (!user) throw new Response("Utilisateur introuvable", { status: 404 });
  return json({ user, self: user.id === admin.id }, { headers: NO_STORE_HEADERS });
}

export async function action({ request, params }: ActionFunctionArgs) {
  requireSameOriginForm(request);
  const admin = await requireAdmin(request);
  const id = pageIdOr404(params.id, "Utilisateur introuvable");
  const submission = parseWithZod(await request.formData(), { schema: userUpdateSchema });
  if (submission.status !== "success") {
    return json({ result: submission.reply({ hideFields: ["password"] }) }, { status: 400 });
  }
  try {
    const user = await updateUser(admin.id, id, submission.value, { actorSessionId: admin.sessionId });
    if (!user) throw new Response("Utilisateur introuvable", { status: 404 });
    const sessionsClosed = submission.value.password
      ? user.id === admin.id
        ? " Vos autres sessions ont été fermées."
        : " Ses sessions ouvertes ont été fermées."
      : "";
    return redirectWithSuccess("/admin/users", {
      message: "Utilisateur mis à jour",
      description: `Le compte « ${user.username} » a été enregistré.${sessionsClosed}`,
    });
  } catch (error) {
    const refusal = actionError(error);
    if (!refusal) throw error;
    return json({ result: submission.reply({ hideFields: ["password"], ...refusalReply(refusal) }) }, { status: refusal.status });
  }
}

export default function EditUser() {
  const { user, self } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const formError = actionData?.result.error?.[""]?.[0];
  return (
    <>
      <PageHeader
        title={`Modifier l'utilisateur ${user.username}`}
        back={{ to: "/admin/users", label: "Retour aux utilisateurs" }}
        actions={
          self ? null : (
            <Link to={`/admin/users?delete=${user.id}`} className={buttonDanger}>
              Supprimer
            </Link>
          )
        }
      />
      {formError ? <Notice>{formError}</Notice> : null}
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
    </>
  );
}

export function ErrorBoundary() {
  return <AdminErrorBoundary notFound="Utilisateur introuvable." backTo="/admin/users" backLabel="Retour aux utilisateurs" />;
}
