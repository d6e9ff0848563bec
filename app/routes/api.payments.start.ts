import type { ActionFunctionArgs } from "@remix-run/node";
import { apiJson, handleApi, methodNotAllowed, readJsonBody } from "~/http/api.server";
import { readOrderToken } from "~/http/order-proof.server";
import { startPaymentBodySchema } from "~/schemas/payments";
import { readCartId } from "~/services/cart-session.server";
import { startOneOffPayment } from "~/services/payments/one-off.server";
import { createOrderSubscription } from "~/services/payments/subscription.server";

/**
 * POST /api/payments/start { orderId, mode: "one_off" | "subscription", token? }
 * For the visitor whose cart created the order, or the holder of its token (body or X-Order-Token).
 * One-off: { paid: false, clientSecret, paymentIntentId, amountCents, amount, status } (or { paid: true } if already paid).
 * Subscription: the same answer as POST /api/create-subscription.
 */
export const loader = () => methodNotAllowed(["POST"]);

export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(async () => {
    if (request.method !== "POST") return methodNotAllowed(["POST"]);
    const body = await readJsonBody(request, startPaymentBodySchema);
    const access = { cartId: await readCartId(request), token: readOrderToken(request, body.token) };
    if (body.mode === "subscription") {
      return apiJson({ paid: false, ...(await createOrderSubscription(body.orderId, {}, access)) });
    }
    return apiJson(await startOneOffPayment(body.orderId, access));
  });
