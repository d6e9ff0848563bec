import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireAdminApi } from "~/http/admin-guard.server";
import { apiPage, readPageQuery } from "~/http/api-page.server";
import { apiError, apiJson, handleApi, methodNotAllowed, readJsonBody } from "~/http/api.server";
import { clientAddress } from "~/http/client-address.server";
import { readOrderFilters, readOrderPeriod } from "~/schemas/admin-order";
import { apiOrderSchema } from "~/schemas/order";
import { ordersToApi, pageAdminOrders } from "~/services/admin-orders.server";
import { throttlePublicWrite } from "~/services/limits.server";
import { rememberOrder } from "~/services/orders/session.server";
import { createOrderFromApi } from "~/services/orders/create.server";
import { OrderError } from "~/services/orders/errors.server";

/**
 * /api/orders
 *
 * GET (admin only): one page of the order list, newest first, prices as decimal strings:
 * `{ orders, limit, nextCursor }`, the next page also in `Link`. Query: `limit` (default 50,
 * at most 200), `cursor`, and the filters of /admin/orders: status, payment, view, q (order
 * number, start of the email or « @domaine »), du and au (days).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  return handleApi(async () => {
    await requireAdminApi(request);
    const url = new URL(request.url);
    const page = readPageQuery(url);
    const period = readOrderPeriod(url);
    if (period.error) return apiError(422, "Période invalide", [{ path: "du", message: period.error }]);
    const { orders, nextCursor } = await pageAdminOrders(readOrderFilters(url), page);
    return apiPage(request, "orders", { items: await ordersToApi(orders), nextCursor, limit: page.limit });
  });
}

/**
 * POST: creates an order (pending, unpaid), priced from the packs. A `price` or `total` that is
 * not the server's amount is refused (422, expected amounts in `issues`); `status` is ignored.
 * The answer holds the order token, shown this once; the browser also remembers the order
 * (signed `orders` cookie). Orders created are counted per client address: 429 past the limit
 * (limits.server.ts).
 */
export async function action({ request, context }: ActionFunctionArgs) {
  return handleApi(async () => {
    if (request.method !== "POST") return methodNotAllowed(["POST"]);
    const input = await readJsonBody(request, apiOrderSchema);
    try {
      const order = await throttlePublicWrite(
        "api-order",
        clientAddress(request, context),
        async () => await createOrderFromApi(input),
      );
      const headers = new Headers({ Location: `/api/orders/${order.id}` });
      headers.append("Set-Cookie", await rememberOrder(request, order.id));
      return apiJson(order, { status: 201, headers });
    } catch (error) {
      if (error instanceof OrderError) {
        return apiError(
          error.status,
          `Erreur lors de la création de la commande: ${error.message}`,
          error.apiIssues().length ? error.apiIssues() : [{ path: "items", message: error.message }],
        );
      }
      throw error;
    }
  });
}
