import type { ActionFunctionArgs } from "@remix-run/node";
import { requireAdminApi } from "~/http/admin-guard.server";
import { apiJson, handleApi, methodNotAllowed, parseId, requireSameOriginApi } from "~/http/api.server";
import { customerDataToApi } from "~/services/customers/api-view.server";
import { eraseCustomerData } from "~/services/customers/erase.server";

/**
 * POST /api/admin/customers/{id}/erase (admin only, no body): anonymises the customer's personal
 * data and answers the customer as it now is. 409 while a paid order is not shipped, a
 * subscription still runs, or for an administrator.
 */
export const action = ({ request, params }: ActionFunctionArgs) =>
  handleApi(async () => {
    if (request.method !== "POST") return methodNotAllowed(["POST"]);
    const admin = await requireAdminApi(request);
    requireSameOriginApi(request);
    return apiJson(customerDataToApi(await eraseCustomerData(parseId(params.id), admin)));
  });

export const loader = () => methodNotAllowed(["POST"]);
