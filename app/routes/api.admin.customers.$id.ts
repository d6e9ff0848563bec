import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireAdminApi } from "~/http/admin-guard.server";
import { apiError, apiJson, handleApi, methodNotAllowed, parseId } from "~/http/api.server";
import { CUSTOMER_NOT_FOUND, getCustomerData } from "~/services/customers/records.server";
import { customerDataToApi } from "~/services/customers/api-view.server";

/** GET /api/admin/customers/{id} (admin only): the customer's account, orders, subscriptions, emails, contact requests and audit lines. */
export const loader = ({ request, params }: LoaderFunctionArgs) =>
  handleApi(async () => {
    await requireAdminApi(request);
    const data = await getCustomerData(parseId(params.id));
    return data ? apiJson(customerDataToApi(data)) : apiError(404, CUSTOMER_NOT_FOUND);
  });

export const action = (_: ActionFunctionArgs) => methodNotAllowed(["GET"]);
