import type { ActionFunctionArgs } from "@remix-run/node";
import { apiJson, handleApi, methodNotAllowed, readJsonBody } from "~/http/api.server";
import { readOrderToken } from "~/http/order-proof.server";
import { createSubscriptionBodySchema } from "~/schemas/payments";
import { readCartId } from "~/services/cart-session.server";
import { createOrderSubscription } from "~/services/payments/subscription.server";

/**
 * POST /api/create-subscription { orderId, customerEmail?, customerName? }
 * (the spec's productId, quantity and userId are accepted and ignored: everything comes from the order)
 * -> { clientSecret, subscriptionId, setupFee, recurringAmount, status, paymentIntentStatus, message }
 * 409 { code: "subscription_exists" } when the order already has an active subscription,
 * 409 { code: "resource_already_exists" } while another attempt for the order is running.
 */
export const loader = () => methodNotAllowed(["POST"]);

export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(async () => {
    if (request.method !== "POST") return methodNotAllowed(["POST"]);
    const body = await readJsonBody(request, createSubscriptionBodySchema);
    const result = await createOrderSubscription(
      body.orderId,
      { customerEmail: body.customerEmail, customerName: body.customerName },
      { cartId: await readCartId(request), token: readOrderToken(request, body.token) },
    );
    return apiJson(result);
  });
