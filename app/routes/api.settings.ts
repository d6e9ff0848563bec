import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireAdminApi } from "~/http/admin-guard.server";
import { apiError, apiJson, handleApi, methodNotAllowed, readJsonBody, zodIssues } from "~/http/api.server";
import { cacheControl, PUBLIC_SETTINGS } from "~/http/cache-control";
import { settingsPatchSchema, settingsSchema } from "~/schemas/settings";
import { getSettings, updateSettings } from "~/services/settings.server";

/** GET /api/settings: the public site settings (contact details, the seller's identity, the default carrier, the trial offer's end). */
export const loader = (_: LoaderFunctionArgs) =>
  handleApi(async () => apiJson(await getSettings(), { headers: cacheControl(PUBLIC_SETTINGS) }));

/** PATCH /api/settings (admin only): any of the fields; the result must still be valid as a whole. */
export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(async () => {
    if (request.method !== "PATCH") return methodNotAllowed(["GET", "PATCH"]);
    await requireAdminApi(request);
    const changes = await readJsonBody(request, settingsPatchSchema);
    const merged = settingsSchema.safeParse({ ...(await getSettings()), ...changes });
    if (!merged.success) return apiError(422, "Données invalides", zodIssues(merged.error));
    return apiJson(await updateSettings(merged.data));
  });
