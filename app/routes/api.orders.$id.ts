import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiError, apiJson, handleApi, parseId } from "~/http/api.server";
import { getPublicOrder } from "~/services/orders.server";

/**
 * /api/orders/{id}
 *
 * GET: the public view of an order (what the confirmation and tracking pages show): status,
 * address, total and items, never any account data. Order ids are random 9-digit numbers.
 *
 * PUT (admin update of status and tracking number): to be added here by the back-office side as
 * `export async function action`.
 */
export async function loader({ params }: LoaderFunctionArgs) {
  return handleApi(() => {
    const id = parseId(params.id, "Numéro de commande");
    const order = getPublicOrder(id);
    return order ? apiJson(order) : apiError(404, "Commande introuvable");
  });
}
