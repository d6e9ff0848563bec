import type { ActionFunctionArgs } from "@remix-run/node";
import { apiError, apiJson, handleApi, methodNotAllowed, readJsonBody } from "~/http/api.server";
import { apiOrderSchema } from "~/schemas/order";
import { createOrderFromApi, OrderError } from "~/services/orders.server";

/**
 * /api/orders
 *
 * GET (admin-only order list): to be added here by the back-office side as `export async function
 * loader`. Until then GET answers 405.
 */
export async function loader() {
  return methodNotAllowed(["POST"]);
}

/**
 * POST: creates an order (pending, unpaid). The client's total, status, userId and item prices
 * are ignored: amounts come from the packs and the catalogue, the customer from the email.
 */
export async function action({ request }: ActionFunctionArgs) {
  return handleApi(async () => {
    if (request.method !== "POST") return methodNotAllowed(["POST"]);
    const input = await readJsonBody(request, apiOrderSchema);
    try {
      const order = createOrderFromApi(input);
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
