import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireAdminApi } from "~/http/admin-guard.server";
import { apiError, apiJson, handleApi, methodNotAllowed, parseId, readJsonBody } from "~/http/api.server";
import { clientAddress } from "~/http/client-address.server";
import { adminOrderApiSchema } from "~/schemas/admin-order";
import { getAdminOrder, orderToApi, updateAdminOrder } from "~/services/admin-orders.server";
import { lookupOrderByNumber } from "~/services/limits.server";
import { getPublicOrder } from "~/services/orders.server";

/**
 * /api/orders/{id}
 *
 * GET: the public view of an order (what the confirmation and tracking pages show): status,
 * address, total and items, never any account data. Order ids are random 9-digit numbers,
 * and unknown ones are counted per client address: 429 past the limit (limits.server.ts).
 *
 * PUT (admin only): { status?, trackingNumber? }, status one of the four fulfilment statuses
 * (the French labels are accepted); 401 without an admin session. Payment state is not writable here.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  return handleApi(() => {
    const id = parseId(params.id, "Numéro de commande");
    const order = lookupOrderByNumber(clientAddress(request, context), () => getPublicOrder(id));
    return order ? apiJson(order) : apiError(404, "Commande introuvable");
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  return handleApi(async () => {
    if (request.method !== "PUT") return methodNotAllowed(["GET", "PUT"]);
    await requireAdminApi(request);
    const id = parseId(params.id, "Numéro de commande");
    const update = await readJsonBody(request, adminOrderApiSchema);
    if (!updateAdminOrder(id, update)) return apiError(404, "Commande introuvable");
    const order = getAdminOrder(id);
    return apiJson(order ? orderToApi(order) : null);
  });
}
