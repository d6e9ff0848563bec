import type { ActionFunctionArgs } from "@remix-run/node";
import { requireAdminApi } from "~/http/admin-guard.server";
import { apiJson, handleApi, methodNotAllowed, parseId, readJsonBody } from "~/http/api.server";
import { adminSelfServiceApi } from "~/pages/subscription-self-service.server";
import { ADMIN_CHANGE_SCHEMAS } from "~/schemas/subscription-actions";
import { getAdminSubscription, subscriptionDetailToApi } from "~/services/subscriptions/admin-view.server";

/** POST /api/admin/subscriptions/{id}/resume (admin only), body `{ "reason": … }`: see the OpenAPI document. */
export const action = ({ request, params }: ActionFunctionArgs) =>
  handleApi(async () => {
    if (request.method !== "POST") return methodNotAllowed(["POST"]);
    await requireAdminApi(request);
    const id = parseId(params.id);
    const body = await readJsonBody(request, ADMIN_CHANGE_SCHEMAS.resume);
    await adminSelfServiceApi("resume", id, body);
    return apiJson(subscriptionDetailToApi((await getAdminSubscription(id))!));
  });

export const loader = () => methodNotAllowed(["POST"]);
