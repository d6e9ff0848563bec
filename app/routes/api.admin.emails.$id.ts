import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireAdminApi } from "~/http/admin-guard.server";
import { apiError, apiJson, handleApi, methodNotAllowed, parseId } from "~/http/api.server";
import { EMAIL_NOT_FOUND, emailDetailToApi, getEmail } from "~/services/email/mailbox.server";

/** GET /api/admin/emails/{id} (admin only): one email as it was sent (content, how it left, its attachments). */
export const loader = ({ request, params }: LoaderFunctionArgs) =>
  handleApi(async () => {
    await requireAdminApi(request);
    const email = await getEmail(parseId(params.id));
    return email ? apiJson(emailDetailToApi(email)) : apiError(404, EMAIL_NOT_FOUND);
  });

export const action = (_: ActionFunctionArgs) => methodNotAllowed(["GET"]);
