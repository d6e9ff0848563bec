import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { getConfig } from "~/config.server";
import { requireAdminApi } from "~/http/admin-guard.server";
import { apiError, apiJson, handleApi, methodNotAllowed, readJsonBody } from "~/http/api.server";
import { cartRemindersRunSchema } from "~/schemas/cart-reminders";
import { queueDueCartReminders } from "~/services/cart-reminders/schedule.server";
import { wakeEmailSender } from "~/services/email/sender.server";

/**
 * POST /api/admin/cart-reminders/run (administrator, demo mode only; 404 in live mode): works
 * out the abandoned-checkout reminders now, as the scheduler's tick does, for the moment `at`
 * (so a demonstration sees the 4 hours pass). The rule is the scheduler's own: consent, unpaid,
 * once, not after an unsubscription.
 */
export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(async () => {
    if (getConfig().mode !== "demo") return apiError(404, "Ressource introuvable");
    if (request.method !== "POST") return methodNotAllowed(["POST"]);
    await requireAdminApi(request);
    const { at } = await readJsonBody(request, cartRemindersRunSchema);
    const queued = await queueDueCartReminders(at ? new Date(at) : new Date());
    if (queued > 0) wakeEmailSender();
    return apiJson({ queued });
  });

export const loader = (_: LoaderFunctionArgs) =>
  getConfig().mode !== "demo" ? apiError(404, "Ressource introuvable") : methodNotAllowed(["POST"]);
