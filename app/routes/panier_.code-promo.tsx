import type { ActionFunctionArgs } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { NO_STORE_HEADERS } from "~/http/cache-control";
import { readPageForm } from "~/http/page-form.server";
import { redirectWithError } from "~/http/toast.server";
import { safeRedirect } from "~/lib/safe-redirect";
import { cartPromotionSchema } from "~/schemas/promotion";
import { readCartId } from "~/services/cart-session.server";
import { removeCartPromotion, setCartPromotion } from "~/services/promotions/cart.server";

/**
 * The cart's « Code promo » form (drawer and /panier): apply a code or remove it. The cart then
 * shows the discount line and the new total, or the French reason of a refusal. With
 * JavaScript the answer is data (the cart reloads); without, a redirect back to the cart.
 */
export async function action({ request }: ActionFunctionArgs) {
  const form = await readPageForm(request);
  const redirectTo = safeRedirect(form.get("redirectTo"), "/panier");
  const script = request.headers.get("Sec-Fetch-Mode") ? request.headers.get("Sec-Fetch-Mode") !== "navigate" : false;
  const parsed = cartPromotionSchema.safeParse(Object.fromEntries(form));
  const cartId = await readCartId(request);
  if (!parsed.success || !cartId) {
    const error = !cartId ? "Votre panier est vide" : (parsed.error?.issues[0]?.message ?? "Code promo invalide");
    if (!script) return redirectWithError(redirectTo, { message: "Code promo", description: error });
    return data({ ok: false as const, error }, { status: 400, headers: NO_STORE_HEADERS });
  }
  if (parsed.data.intent === "remove") await removeCartPromotion(cartId);
  else await setCartPromotion(cartId, parsed.data.code);
  if (!script) return redirect(redirectTo, { headers: NO_STORE_HEADERS });
  return data({ ok: true as const }, { headers: NO_STORE_HEADERS });
}
