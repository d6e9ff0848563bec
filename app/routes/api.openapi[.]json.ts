import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { getOpenApiDocument } from "~/openapi/operations.server";
import { apiJson, handleApi, methodNotAllowed } from "~/http/api.server";
import { cacheControl, PUBLIC_API_DOCS } from "~/http/cache-control";

/** GET /api/openapi.json: the OpenAPI 3.1 document of the JSON API, generated from the zod schemas. */
export const loader = (_: LoaderFunctionArgs) =>
  handleApi(() =>
    apiJson(getOpenApiDocument(), {
      headers: { ...cacheControl(PUBLIC_API_DOCS), "Access-Control-Allow-Origin": "*" },
    }),
  );

export const action = (_: ActionFunctionArgs) => methodNotAllowed(["GET"]);
