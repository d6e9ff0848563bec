import type { ActionFunctionArgs } from "@remix-run/node";
import { apiError, apiJson, handleApi, methodNotAllowed, readJsonBody } from "~/http/api.server";
import { clientAddress } from "~/http/client-address.server";
import { readOrderProof } from "~/http/order-proof.server";
import { confirmPaymentBodySchema } from "~/schemas/payments";
import { lookupOrderByNumber } from "~/services/limits.server";
import { holdsOrder } from "~/services/orders/access.server";
import { findOrder } from "~/services/orders/find.server";
import { confirmOrderPaymentState } from "~/services/payments/confirm.server";

/**
 * POST /api/payments/confirm { orderId, token? }
 * After the browser's success: the server asks Stripe and marks the order paid if Stripe says so.
 * -> { paid, orderId, paymentStatus }. Nothing in the request can make an order paid.
 * Only for the order's owner, as the start: the cart that created it, the `orders` cookie or the
 * order token (body or X-Order-Token). Anyone else gets 404, counted with the unknown order
 * numbers of the address (429 past the limit, limits.server.ts), before Stripe is asked.
 */
export const loader = () => methodNotAllowed(["POST"]);

export const action = ({ request, context }: ActionFunctionArgs) =>
  handleApi(async () => {
    if (request.method !== "POST") return methodNotAllowed(["POST"]);
    const { orderId, token } = await readJsonBody(request, confirmPaymentBodySchema);
    const proof = await readOrderProof(request, { bodyToken: token });
    const order = await lookupOrderByNumber(clientAddress(request, context), async () => {
      const found = await findOrder(orderId);
      return found && holdsOrder(found, proof) ? found : null;
    });
    if (!order) return apiError(404, "Commande introuvable");
    const { paid, paymentStatus } = await confirmOrderPaymentState(order);
    return apiJson({ paid, orderId, paymentStatus: paymentStatus ?? "unpaid" });
  });
