import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, handleApi, methodNotAllowed } from "~/http/api.server";
import { cacheControl, PUBLIC_CATALOG } from "~/http/cache-control";
import { listProducts, productToApi } from "~/services/catalog.server";

/** GET /api/products: the public catalog. */
export const loader = (_: LoaderFunctionArgs) =>
  handleApi(async () =>
    apiJson(await Promise.all((await listProducts()).map((product) => productToApi(product))), {
      headers: cacheControl(PUBLIC_CATALOG),
    }),
  );

export const action = (_: ActionFunctionArgs) => methodNotAllowed(["GET"]);
