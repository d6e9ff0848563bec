import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import {
  apiError,
  apiJson,
  handleApi,
  methodNotAllowed,
  noContent,
  parseCartId,
  parseId,
  readJsonBody,
  requireSameOriginApi,
} from "~/http/api.server";
import { cartQuantitySchema } from "~/schemas/cart";
import { CartError, readCart, setLineQuantity, toApiCartItems } from "~/services/cart.server";
import { readCartId } from "~/services/cart-session.server";

/**
 * /api/cart/{x}: GET reads a cart (x is a cart id: the caller's own only), PUT and DELETE
 * change a line (x is a cart line id: a line of the caller's cart only).
 */

const FORBIDDEN = "Ce panier n'est pas le vôtre";
const LINE_NOT_FOUND = "Article introuvable dans votre panier";

export async function loader({ request, params }: LoaderFunctionArgs) {
  return handleApi(async () => {
    const requested = parseCartId(params.id);
    const own = await readCartId(request);
    if (!own || requested !== own) return apiError(403, FORBIDDEN);
    return apiJson(toApiCartItems(await readCart(own)));
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  return handleApi(async () => {
    if (request.method !== "PUT" && request.method !== "DELETE") return methodNotAllowed(["GET", "PUT", "DELETE"]);
    requireSameOriginApi(request);
    const lineId = parseId(params.id, "Identifiant d'article");
    const quantity = request.method === "PUT" ? (await readJsonBody(request, cartQuantitySchema)).quantity : 0;
    const cartId = await readCartId(request);
    if (!cartId) return apiError(404, LINE_NOT_FOUND);
    try {
      const cart = await setLineQuantity(cartId, lineId, quantity);
      return request.method === "DELETE" ? noContent() : apiJson(toApiCartItems(cart));
    } catch (error) {
      if (error instanceof CartError) {
        // A quantity the pack does not allow (10 at most, exactly 1 of the trial pack).
        if (error.code === "quantity_limit")
          return apiError(422, "Quantité refusée", [{ path: "quantity", message: error.message }]);
        return apiError(404, LINE_NOT_FOUND);
      }
      throw error;
    }
  });
}
