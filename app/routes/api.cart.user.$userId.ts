import type { ActionFunctionArgs } from "@remix-run/node";
import { apiError, handleApi, methodNotAllowed, noContent, parseCartId, requireSameOriginApi } from "~/http/api.server";
import { clearCart } from "~/services/cart.server";
import { readCartId } from "~/services/cart-session.server";

/**
 * DELETE /api/cart/user/{id}: empties the caller's cart. The original keyed carts by a shared
 * shopper id; here the id is the caller's own cart id (from the cart cookie), nobody else's.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  return handleApi(async () => {
    if (request.method !== "DELETE") return methodNotAllowed(["DELETE"]);
    requireSameOriginApi(request);
    const requested = parseCartId(params.userId);
    const own = await readCartId(request);
    if (!own || requested !== own) return apiError(403, "Ce panier n'est pas le vôtre");
    await clearCart(own);
    return noContent();
  });
}

export async function loader() {
  return methodNotAllowed(["DELETE"]);
}
