import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiError, apiJson, handleApi, methodNotAllowed, parseId, readJsonBody, zodIssues } from "~/http/api.server";
import { clientAddress } from "~/http/client-address.server";
import { readOrderProof } from "~/http/order-proof.server";
import { adminOrderApiSchema } from "~/schemas/admin-order";
import { orderUpdateApiSchema } from "~/schemas/order";
import { getAdminOrder, orderToApi, updateAdminOrder } from "~/services/admin-orders.server";
import { lookupOrderByNumber } from "~/services/limits.server";
import { holdsOrder } from "~/services/orders/access.server";
import { getApiOrder } from "~/services/orders/api-view.server";
import { OrderError } from "~/services/orders/errors.server";
import { updateOrderCheckout } from "~/services/orders/checkout-update.server";
import { findOrder } from "~/services/orders/find.server";
import { withdrawalToApi } from "~/services/withdrawals.server";

/**
 * /api/orders/{id}
 *
 * GET: the order (what the confirmation and tracking pages show). With its number alone:
 * status, date, items, total, tracking number, postcode and city. The name, the street and
 * the email only to whoever proves they own it: the browser that created it (cart or
 * `orders` cookie), its token (X-Order-Token header or ?token=), or an administrator, who
 * also gets the order's online withdrawal (`withdrawal`, null when there is none).
 * Unknown numbers are counted per client address: 429 past the limit (limits.server.ts).
 *
 * PUT: the administrator's { status?, trackingNumber?, trackingCarrier?, confirmWithoutTracking? }
 * (status one of the four fulfilment statuses, French labels accepted; the steps after 'pending'
 * and a tracking number are refused on an unpaid order: 409 order_not_paid; a refunded or
 * withdrawn order moves no more: 409 order_closed; « shipped » with no tracking number needs
 * confirmWithoutTracking: true, else 409 tracking_number_missing), and, while the order is unpaid, the checkout fields
 * { customerEmail?, customerName?, isSubscription? } for the holder of the order token (or
 * the administrator). For a token holder `status` is ignored: nothing here marks an order paid.
 */
const NOT_FOUND = "Commande introuvable";

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  return handleApi(async () => {
    const id = parseId(params.id, "Numéro de commande");
    const proof = await readOrderProof(request);
    const order = await lookupOrderByNumber(clientAddress(request, context), async () => await getApiOrder(id, proof));
    if (!order) return apiError(404, NOT_FOUND);
    return apiJson(proof.admin ? { ...order, withdrawal: await withdrawalToApi(id) } : order);
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  return handleApi(async () => {
    if (request.method !== "PUT") return methodNotAllowed(["GET", "PUT"]);
    const id = parseId(params.id, "Numéro de commande");
    const update = await readJsonBody(request, orderUpdateApiSchema);
    const proof = await readOrderProof(request);
    const checkout = {
      customerEmail: update.customerEmail,
      customerName: update.customerName,
      isSubscription: update.isSubscription,
    };

    if (proof.admin) {
      const adminFields = {
        status: update.status,
        trackingNumber: update.trackingNumber,
        trackingCarrier: update.trackingCarrier,
        confirmWithoutTracking: update.confirmWithoutTracking,
      };
      const hasAdminFields =
        adminFields.status !== undefined || adminFields.trackingNumber !== undefined || adminFields.trackingCarrier !== undefined;
      const parsed = hasAdminFields ? adminOrderApiSchema.safeParse(adminFields) : null;
      if (parsed && !parsed.success) return apiError(422, "Données invalides", zodIssues(parsed.error));
      if (!(await findOrder(id))) return apiError(404, NOT_FOUND);
      try {
        await updateOrderCheckout(id, checkout);
      } catch (error) {
        if (error instanceof OrderError) return apiError(error.status, error.message, error.apiIssues());
        throw error;
      }
      if (parsed?.success) await updateAdminOrder(id, parsed.data);
      const order = await getAdminOrder(id);
      return order ? apiJson(await orderToApi(order)) : apiError(404, NOT_FOUND);
    }

    if (!proof.token) {
      return apiError(
        401,
        "Jeton de commande ou session administrateur requis : en-tête X-Order-Token (ou ?token=) avec le jeton reçu à la création.",
      );
    }
    // A wrong token and an unknown order get the same answer.
    const order = await findOrder(id);
    if (!order || !holdsOrder(order, { token: proof.token })) return apiError(404, NOT_FOUND);
    if (
      update.trackingNumber !== undefined ||
      update.trackingCarrier !== undefined ||
      update.confirmWithoutTracking !== undefined
    ) {
      const path =
        update.trackingNumber !== undefined
          ? "trackingNumber"
          : update.trackingCarrier !== undefined
            ? "trackingCarrier"
            : "confirmWithoutTracking";
      return apiError(403, "Seul l'administrateur modifie le numéro de suivi.", [
        { path, message: "Réservé à l'administrateur." },
      ]);
    }
    try {
      await updateOrderCheckout(id, checkout);
    } catch (error) {
      if (error instanceof OrderError) return apiError(error.status, error.message, error.apiIssues());
      throw error;
    }
    return apiJson(await getApiOrder(id, { token: proof.token }));
  });
}
