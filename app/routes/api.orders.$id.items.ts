import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireAdminApi } from "~/http/admin-guard.server";
import { apiError, apiJson, handleApi, methodNotAllowed, parseId } from "~/http/api.server";
import { getAdminOrderItems, orderExists, orderItemToApi } from "~/services/admin-orders.server";

/** GET /api/orders/{id}/items (admin only): the order's items, prices as decimal strings. */
export const loader = ({ request, params }: LoaderFunctionArgs) =>
  handleApi(async () => {
    await requireAdminApi(request);
    const id = parseId(params.id, "Numéro de commande");
    if (!(await orderExists(id))) return apiError(404, "Commande introuvable");
    return apiJson((await getAdminOrderItems(id)).map(orderItemToApi));
  });

export const action = (_: ActionFunctionArgs) => methodNotAllowed(["GET"]);
