import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiError, apiJson, handleApi, methodNotAllowed, parseId } from "~/http/api.server";
import { cacheControl, PUBLIC_CATALOG } from "~/http/cache-control";
import { getProduct, productToApi } from "~/services/catalog.server";

/** GET /api/products/{id}: one product of the public catalog (id, name, images, price "25.90", ...). */
export const loader = ({ params }: LoaderFunctionArgs) =>
  handleApi(() => {
    const product = getProduct(parseId(params.id, "Identifiant de produit"));
    if (!product) return apiError(404, "Produit introuvable");
    return apiJson(productToApi(product), { headers: cacheControl(PUBLIC_CATALOG) });
  });

export const action = (_: ActionFunctionArgs) => methodNotAllowed(["GET"]);
