import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { getOpenApiDocument } from "~/http/api-operations.server";
import { apiJson, handleApi, methodNotAllowed } from "~/http/api.server";

/** GET /api/openapi.json: the OpenAPI 3.1 document of the JSON API, generated from the zod schemas. */
export const loader = (_: LoaderFunctionArgs) =>
  handleApi(() =>
    apiJson(getOpenApiDocument(), {
      headers: { "Cache-Control": "public, max-age=300", "Access-Control-Allow-Origin": "*" },
    }),
  );

export const action = (_: ActionFunctionArgs) => methodNotAllowed(["GET"]);
