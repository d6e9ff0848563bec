import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, handleApi, methodNotAllowed } from "~/http/api.server";
import { getAdminUser } from "~/services/admin-auth.server";

/** GET /api/admin/session: { authenticated, user } or a 401. */
export const loader = ({ request }: LoaderFunctionArgs) =>
  handleApi(async () => {
    const admin = await getAdminUser(request);
    if (!admin) {
      return apiJson({ authenticated: false, user: null, error: "Non authentifié", issues: [] }, { status: 401 });
    }
    const { id, username, email, firstName, lastName } = admin;
    return apiJson({ authenticated: true, user: { id, username, email, firstName, lastName, isAdmin: true } });
  });

export const action = (_: ActionFunctionArgs) => methodNotAllowed(["GET"]);
