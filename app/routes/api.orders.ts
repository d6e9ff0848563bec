import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireAdminApi } from "~/http/admin-guard.server";
import { apiError, apiJson, handleApi, methodNotAllowed, readJsonBody } from "~/http/api.server";
import { clientAddress } from "~/http/client-address.server";
import { readOrderFilters } from "~/schemas/admin-order";
import { apiOrderSchema } from "~/schemas/order";
import { listAllAdminOrders, orderToApi } from "~/services/admin-orders.server";
import { throttlePublicWrite } from "~/services/limits.server";
import { createOrderFromApi, OrderError } from "~/services/orders.server";

/**
 * /api/orders
 *
 * GET (admin only): the order list, newest first, prices as decimal strings. Optional query
 * filters as on /admin/orders: status, payment, q (order number or customer email).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  return handleApi(async () => {
    await requireAdminApi(request);
    const orders = listAllAdminOrders(readOrderFilters(new URL(request.url)));
    return apiJson(orders.map(orderToApi));
  });
}

/**
 * POST: creates an order (pending, unpaid). The client's total, status, userId and item prices
 * are ignored: amounts come from the packs and the catalogue, the customer from the email.
 * Orders created are counted per client address: 429 past the limit (limits.server.ts).
 */
export async function action({ request, context }: ActionFunctionArgs) {
  return handleApi(async () => {
    if (request.method !== "POST") return methodNotAllowed(["POST"]);
    const input = await readJsonBody(request, apiOrderSchema);
    try {
      const order = throttlePublicWrite("api-order", clientAddress(request, context), () => createOrderFromApi(input));
      return apiJson(order, { status: 201, headers: { Location: `/api/orders/${order.id}` } });
    } catch (error) {
      if (error instanceof OrderError) {
        const status = error.code === "out_of_stock" ? 409 : error.code === "product_not_found" ? 404 : 422;
        return apiError(status, `Erreur lors de la création de la commande: ${error.message}`, [{ path: "items", message: error.message }]);
      }
      throw error;
    }
  });
}
