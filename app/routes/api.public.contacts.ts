import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { getConfig } from "~/config.server";
import { apiError, apiJson, handleApi, methodNotAllowed } from "~/http/api.server";
import { listContactRequests } from "~/services/contacts.server";

/** GET /api/public/contacts: the debug list of the test page. Demo mode only (404 in live mode). */
export const loader = (_: LoaderFunctionArgs) =>
  handleApi(async () => {
    if (getConfig().mode !== "demo") return apiError(404, "Ressource introuvable");
    return apiJson(await listContactRequests());
  });

export const action = (_: ActionFunctionArgs) =>
  getConfig().mode !== "demo" ? apiError(404, "Ressource introuvable") : methodNotAllowed(["GET"]);
