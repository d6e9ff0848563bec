import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { actionError } from "~/http/action-errors.server";
import { readPageForm } from "~/http/page-form.server";
import { readOrderToken } from "~/http/order-proof.server";
import { redirectWithError } from "~/http/toast.server";
import { hostedCheckoutFormSchema } from "~/schemas/payments";
import { readCartId } from "~/services/cart-session.server";
import { startHostedCheckout } from "~/services/payments/hosted-checkout.server";

/**
 * POST /paiement-securise { orderId, mode, consent }: the payment step's form without
 * JavaScript. Sends the shopper (303) to the Checkout Session's hosted payment page, or to the
 * confirmation when the order is already paid; a refusal goes back to the payment step with
 * its French message.
 */
const PAYMENT_STEP = "/panier?etape=paiement";

export const loader = () => redirect(PAYMENT_STEP);

export async function action({ request }: ActionFunctionArgs) {
  const form = await readPageForm(request);
  const parsed = hostedCheckoutFormSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) {
    return redirectWithError(PAYMENT_STEP, { message: "Paiement impossible", description: parsed.error.issues[0].message });
  }
  try {
    const started = await startHostedCheckout(parsed.data, {
      cartId: await readCartId(request),
      token: readOrderToken(request),
    });
    if (started.paid) return redirect(`/order-confirmation/${started.orderId}`, 303);
    return redirect(started.url, 303);
  } catch (error) {
    const refusal = actionError(error);
    if (!refusal) throw error;
    return redirectWithError(PAYMENT_STEP, { message: "Paiement impossible", description: refusal.message });
  }
}
