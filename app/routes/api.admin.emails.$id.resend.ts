import type { ActionFunctionArgs } from "@remix-run/node";
import { requireAdminApi } from "~/http/admin-guard.server";
import { apiJson, handleApi, methodNotAllowed, parseId, requireSameOriginApi } from "~/http/api.server";
import { emailDetailToApi, resendEmailOrRefuse } from "~/services/email/mailbox.server";

/**
 * POST /api/admin/emails/{id}/resend (admin only, no body): puts a failed email back in the
 * queue, its content kept as it was. 409 when the email is not failed.
 */
export const action = ({ request, params }: ActionFunctionArgs) =>
  handleApi(async () => {
    if (request.method !== "POST") return methodNotAllowed(["POST"]);
    await requireAdminApi(request);
    requireSameOriginApi(request);
    return apiJson(emailDetailToApi(await resendEmailOrRefuse(parseId(params.id))));
  });

export const loader = () => methodNotAllowed(["POST"]);
