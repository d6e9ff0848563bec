import type { ActionFunctionArgs } from "@remix-run/node";
import { apiJson, handleApi, methodNotAllowed, readJsonBody } from "~/http/api.server";
import { readOrderToken } from "~/http/order-proof.server";
import { attachPaymentMethodBodySchema } from "~/schemas/payments";
import { readCartId } from "~/services/cart-session.server";
import { attachSubscriptionPaymentMethod } from "~/services/payments/subscription.server";

/**
 * POST /api/attach-payment-method { subscriptionId, paymentMethodId, customerEmail, orderId? }
 * Makes the card the default one for the next invoices of the order's own subscription.
 * -> { attached: true, subscriptionId, paymentMethodId }
 */
export const loader = () => methodNotAllowed(["POST"]);

export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(async () => {
    if (request.method !== "POST") return methodNotAllowed(["POST"]);
    const body = await readJsonBody(request, attachPaymentMethodBodySchema);
    return apiJson(
      await attachSubscriptionPaymentMethod(body, {
        cartId: await readCartId(request),
        token: readOrderToken(request, body.token),
      }),
    );
  });
