import type { ActionFunctionArgs } from "@remix-run/node";
import { clientAddress } from "~/http/client-address.server";
import { apiError, apiJson, handleApi, methodNotAllowed, readJsonBody } from "~/http/api.server";
import { cartAddSchema } from "~/schemas/cart";
import { addToCart, CartError, toApiCartItems } from "~/services/cart.server";
import { putInVisitorCart } from "~/services/cart-session.server";

/**
 * POST /api/cart: adds a product to the caller's cart (the cart cookie; created if needed).
 * Only productId and packId (or variantName matched to a pack) are read: the cart then holds
 * that pack alone, at quantity 1, at the pack's price. A caller without a cart gets a new one,
 * within its address's allowance of new carts (page and API together), else a 429.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  return handleApi(async () => {
    if (request.method !== "POST") return methodNotAllowed(["POST"]);
    const input = await readJsonBody(request, cartAddSchema);
    try {
      // A new cart counts against the address's allowance: past it, a 429 (handleApi) with Retry-After.
      const address = clientAddress(request, context);
      const added = await putInVisitorCart(request, address, async (cartId) => await addToCart(cartId, input));
      const headers = new Headers();
      if (added.setCookie) headers.append("Set-Cookie", added.setCookie);
      return apiJson({ cartId: added.cartId, items: toApiCartItems(added.result) }, { status: 201, headers });
    } catch (error) {
      if (error instanceof CartError) {
        if (error.code === "out_of_stock")
          return apiError(409, "Produit en rupture de stock", [{ path: "productId", message: error.message }]);
        if (error.code === "invalid_pack") return apiError(422, "Pack inconnu", [{ path: "packId", message: error.message }]);
        if (error.code === "trial_ended")
          return apiError(422, "Offre d'essai terminée", [{ path: "packId", message: error.message }]);
        if (error.code === "not_sold")
          return apiError(409, "Produit pas en vente", [{ path: "productId", message: error.message }]);
        return apiError(404, "Produit introuvable", [{ path: "productId", message: error.message }]);
      }
      throw error;
    }
  });
}

export async function loader() {
  return methodNotAllowed(["POST"]);
}
