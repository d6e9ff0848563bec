import type { ActionFunctionArgs } from "@remix-run/node";
import { apiJson, handleApi, methodNotAllowed, requireSameOriginApi } from "~/http/api.server";
import { destroyAdminSession } from "~/services/admin-auth.server";

/** POST /api/admin/logout: ends the admin session. */
export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(async () => {
    if (request.method !== "POST") return methodNotAllowed(["POST"]);
    requireSameOriginApi(request);
    return apiJson(
      { success: true, message: "Déconnexion réussie" },
      { headers: { "Set-Cookie": await destroyAdminSession(request) } },
    );
  });

export const loader = () => methodNotAllowed(["POST"]);
