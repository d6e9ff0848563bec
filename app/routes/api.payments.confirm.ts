import type { ActionFunctionArgs } from "@remix-run/node";
import { apiError, apiJson, handleApi, methodNotAllowed, readJsonBody } from "~/http/api.server";
import { confirmPaymentBodySchema } from "~/schemas/payments";
import { confirmOrderPayment } from "~/services/payments/confirm.server";
import { getOrderPaymentState } from "~/services/payments/payment-state.server";

/**
 * POST /api/payments/confirm { orderId }
 * After the browser's success: the server asks Stripe and marks the order paid if Stripe says so.
 * -> { paid, orderId, paymentStatus }. Nothing in the request can make an order paid.
 */
export const loader = () => methodNotAllowed(["POST"]);

export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(async () => {
    if (request.method !== "POST") return methodNotAllowed(["POST"]);
    const { orderId } = await readJsonBody(request, confirmPaymentBodySchema);
    if (!(await getOrderPaymentState(orderId))) return apiError(404, "Commande introuvable");
    const { paid } = await confirmOrderPayment(orderId);
    const state = await getOrderPaymentState(orderId);
    return apiJson({ paid, orderId, paymentStatus: state?.paymentStatus ?? "unpaid" });
  });
