import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireAdminApi } from "~/http/admin-guard.server";
import { apiError, apiJson, handleApi, methodNotAllowed, parseId } from "~/http/api.server";
import {
  getAdminSubscription,
  SUBSCRIPTION_NOT_FOUND,
  subscriptionDetailToApi,
} from "~/services/subscriptions/admin-view.server";

/** GET /api/admin/subscriptions/{id} (admin only): one subscription, its orders (renewal numbers), its emails and its timeline. */
export const loader = ({ request, params }: LoaderFunctionArgs) =>
  handleApi(async () => {
    await requireAdminApi(request);
    const subscription = await getAdminSubscription(parseId(params.id));
    return subscription ? apiJson(subscriptionDetailToApi(subscription)) : apiError(404, SUBSCRIPTION_NOT_FOUND);
  });

export const action = (_: ActionFunctionArgs) => methodNotAllowed(["GET"]);
