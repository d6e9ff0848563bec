import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { actionError } from "~/http/action-errors.server";
import { readPageForm } from "~/http/page-form.server";
import { redirectWithError } from "~/http/toast.server";
import { parseOrderNumber } from "~/schemas/tracking";
import { readCartId } from "~/services/cart-session.server";
import { completeCheckout } from "~/services/checkout.server";
import { confirmFreeOrder } from "~/services/payments/free-order.server";

/**
 * « Valider ma commande offerte »: the payment step of an order made free by a 100 % code
 * (no card). A plain form post, with or without JavaScript; then the confirmation page.
 */
export async function action({ request }: ActionFunctionArgs) {
  const form = await readPageForm(request);
  const orderId = parseOrderNumber(String(form.get("orderId") ?? ""));
  const cartId = await readCartId(request);
  if (!orderId || !cartId) return redirect("/panier");
  try {
    await confirmFreeOrder(orderId, { cartId });
  } catch (error) {
    const refusal = actionError(error);
    if (!refusal) throw error;
    return redirectWithError("/panier?etape=paiement", { message: "Commande non validée", description: refusal.message });
  }
  await completeCheckout(cartId, orderId);
  return redirect(`/order-confirmation/${orderId}`);
}
