import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireAdminApi } from "~/http/admin-guard.server";
import { apiJson, handleApi, methodNotAllowed } from "~/http/api.server";
import { listAdminSessions } from "~/services/admin-sessions.server";

/** GET /api/admin/sessions (admin only): the signed-in administrator's open sessions, the current one marked. */
export const loader = ({ request }: LoaderFunctionArgs) =>
  handleApi(async () => {
    const admin = await requireAdminApi(request);
    return apiJson(await listAdminSessions(admin.id, admin.sessionId));
  });

export const action = (_: ActionFunctionArgs) => methodNotAllowed(["GET"]);
