import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { redirectWithSuccess } from "remix-toast";
import { PageHeader } from "~/components/admin/ui";
import { UserForm } from "~/components/admin/UserForm";
import { actionError, refusalReply } from "~/http/action-errors.server";
import { requireAdmin } from "~/http/admin-guard.server";
import { requireSameOriginForm } from "~/http/api.server";
import { NO_STORE_HEADERS } from "~/http/cache-control";
import { pageMeta } from "~/lib/meta";
import { userCreateSchema } from "~/schemas/user";
import { createUser } from "~/services/users.server";

export const meta: MetaFunction = () => pageMeta("Nouvel utilisateur", "Créer un compte.");

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return json(null, { headers: NO_STORE_HEADERS });
}

export async function action({ request }: ActionFunctionArgs) {
  requireSameOriginForm(request);
  await requireAdmin(request);
  const submission = parseWithZod(await request.formData(), { schema: userCreateSchema });
  if (submission.status !== "success") {
    return json({ result: submission.reply({ hideFields: ["password"] }) }, { status: 400 });
  }
  try {
    const user = await createUser(submission.value);
    return redirectWithSuccess("/admin/users", { message: "Utilisateur créé", description: `Le compte « ${user.username} » a été créé.` });
  } catch (error) {
    const refusal = actionError(error);
    if (!refusal) throw error;
    return json({ result: submission.reply({ hideFields: ["password"], ...refusalReply(refusal) }) }, { status: refusal.status });
  }
}

const EMPTY = { username: "", email: "", firstName: "", lastName: "", address: "", city: "", postalCode: "", country: "France", phone: "", isAdmin: false };

export default function NewUser() {
  const actionData = useActionData<typeof action>();
  return (
    <>
      <PageHeader title="Nouvel utilisateur" back={{ to: "/admin/users", label: "Retour aux utilisateurs" }} />
      <UserForm mode="create" id="user-new" defaultValue={EMPTY} lastResult={actionData?.result} />
    </>
  );
}
