import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { redirectWithSuccess } from "~/http/toast.server";
import { requireSameOriginForm } from "~/http/api.server";
import { NO_STORE_HEADERS } from "~/http/cache-control";
import { destroyAdminSession } from "~/services/admin-auth.server";

/** Signing out is a POST (a link could be triggered by another site); a GET just goes to the login page. */
export async function loader() {
  return redirect("/admin/login", { headers: NO_STORE_HEADERS });
}

export async function action({ request }: ActionFunctionArgs) {
  requireSameOriginForm(request);
  const headers = new Headers(NO_STORE_HEADERS);
  headers.append("Set-Cookie", await destroyAdminSession(request));
  return redirectWithSuccess(
    "/admin/login",
    { message: "Déconnexion réussie", description: "Vous avez été déconnecté du back office." },
    { headers },
  );
}
