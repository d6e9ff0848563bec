import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, handleApi, methodNotAllowed } from "~/http/api.server";
import { listProducts, productToApi } from "~/services/catalog.server";

const PUBLIC_CATALOG_CACHE = "public, max-age=30";

/** GET /api/products: the public catalog. */
export const loader = (_: LoaderFunctionArgs) =>
  handleApi(() => apiJson(listProducts().map(productToApi), { headers: { "Cache-Control": PUBLIC_CATALOG_CACHE } }));

export const action = (_: ActionFunctionArgs) => methodNotAllowed(["GET"]);
