import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireAdminApi } from "~/http/admin-guard.server";
import { apiJson, handleApi, methodNotAllowed, readJsonBody } from "~/http/api.server";
import { notificationSettingsPatchSchema } from "~/schemas/notification-settings";
import { getNotificationSettings, updateNotificationSettings } from "~/services/email/owner-notifications.server";

/** GET /api/settings/notifications (admin only): which emails the shop's owner receives, and whether in a daily summary. */
export const loader = ({ request }: LoaderFunctionArgs) =>
  handleApi(async () => {
    await requireAdminApi(request);
    return apiJson(await getNotificationSettings());
  });

/** PATCH /api/settings/notifications (admin only): any of the switches, as booleans. */
export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(async () => {
    if (request.method !== "PATCH") return methodNotAllowed(["GET", "PATCH"]);
    await requireAdminApi(request);
    const changes = await readJsonBody(request, notificationSettingsPatchSchema);
    return apiJson(await updateNotificationSettings(changes));
  });
