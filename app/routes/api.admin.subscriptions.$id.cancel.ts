import type { ActionFunctionArgs } from "@remix-run/node";
import { requireAdminApi } from "~/http/admin-guard.server";
import { apiJson, handleApi, methodNotAllowed, parseId, readJsonBody } from "~/http/api.server";
import { adminSubscriptionCancelSchema } from "~/schemas/admin-subscription";
import { getAdminSubscription, subscriptionDetailToApi } from "~/services/subscriptions/admin-view.server";
import { cancelSubscriptionAsAdmin } from "~/services/subscriptions/admin-cancel.server";

/**
 * POST /api/admin/subscriptions/{id}/cancel (admin only), body `{ "when": "now" | "period_end" }`:
 * ends the subscription now, or at the end of the paid period. 409 when it is already canceled.
 */
export const action = ({ request, params }: ActionFunctionArgs) =>
  handleApi(async () => {
    if (request.method !== "POST") return methodNotAllowed(["POST"]);
    await requireAdminApi(request);
    const id = parseId(params.id);
    const body = await readJsonBody(request, adminSubscriptionCancelSchema);
    await cancelSubscriptionAsAdmin(id, body);
    return apiJson(subscriptionDetailToApi((await getAdminSubscription(id))!));
  });

export const loader = () => methodNotAllowed(["POST"]);
