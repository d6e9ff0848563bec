import type { ActionFunctionArgs } from "@remix-run/node";
import { requireAdminApi } from "~/http/admin-guard.server";
import { apiError, handleApi, methodNotAllowed, requireSameOriginApi } from "~/http/api.server";
import { NO_STORE_HEADERS } from "~/http/cache-control";
import { SESSION_ID_PATTERN } from "~/lib/ids";
import { clearAdminCookie } from "~/services/admin-auth.server";
import { revokeAdminSession } from "~/services/admin-sessions.server";

/**
 * DELETE /api/admin/sessions/{id} (admin only): revokes one of the administrator's own sessions;
 * its cookie is refused from then on. Revoking the current session signs out (the cookie is cleared).
 */
export const action = ({ request, params }: ActionFunctionArgs) =>
  handleApi(async () => {
    if (request.method !== "DELETE") return methodNotAllowed(["DELETE"]);
    requireSameOriginApi(request);
    const admin = await requireAdminApi(request);
    const id = params.id ?? "";
    if (!SESSION_ID_PATTERN.test(id)) {
      return apiError(400, "Identifiant de session invalide", [
        { path: "id", message: "Un identifiant de session (22 caractères) est attendu." },
      ]);
    }
    if (!(await revokeAdminSession(admin.id, id))) return apiError(404, "Session introuvable");
    const headers = new Headers(NO_STORE_HEADERS);
    if (id === admin.sessionId) headers.append("Set-Cookie", await clearAdminCookie());
    return new Response(null, { status: 204, headers });
  });

export const loader = () => methodNotAllowed(["DELETE"]);
