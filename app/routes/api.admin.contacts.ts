import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireAdminApi } from "~/http/admin-guard.server";
import { apiJson, handleApi, methodNotAllowed } from "~/http/api.server";
import { listContactRequests } from "~/services/contacts.server";

/** GET /api/admin/contacts: every contact request, newest first (admin only). */
export const loader = ({ request }: LoaderFunctionArgs) =>
  handleApi(async () => {
    await requireAdminApi(request);
    return apiJson(await listContactRequests());
  });

export const action = (_: ActionFunctionArgs) => methodNotAllowed(["GET"]);
