import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { redirectWithSuccess } from "~/http/toast.server";
import { AdminFormPage } from "~/components/admin/AdminForm";
import { UserForm } from "~/components/admin/UserForm";
import { adminPageLoader, requireAdminForm, submitAdminForm } from "~/http/admin-pages.server";
import { pageMeta } from "~/lib/meta";
import { userCreateSchema } from "~/schemas/user";
import { createUser } from "~/services/users.server";

export const meta: MetaFunction = () => pageMeta("Nouvel utilisateur", "Créer un compte.");

export const loader = ({ request }: LoaderFunctionArgs) => adminPageLoader(request);

export async function action({ request }: ActionFunctionArgs) {
  await requireAdminForm(request);
  return submitAdminForm(
    request,
    userCreateSchema,
    async (value) => {
      const user = await createUser(value);
      return redirectWithSuccess("/admin/users", {
        message: "Utilisateur créé",
        description: `Le compte « ${user.username} » a été créé.`,
      });
    },
    { hideFields: ["password"] },
  );
}

const EMPTY = {
  username: "",
  email: "",
  firstName: "",
  lastName: "",
  address: "",
  city: "",
  postalCode: "",
  country: "France",
  phone: "",
  isAdmin: false,
};

export default function NewUser() {
  const actionData = useActionData<typeof action>();
  return (
    <AdminFormPage title="Nouvel utilisateur" back={{ to: "/admin/users", label: "Retour aux utilisateurs" }}>
      <UserForm mode="create" id="user-new" defaultValue={EMPTY} lastResult={actionData?.result} />
    </AdminFormPage>
  );
}
