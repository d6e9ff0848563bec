import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireAdminApi } from "~/http/admin-guard.server";
import { apiJson, handleApi, methodNotAllowed } from "~/http/api.server";
import { readEmailFilters } from "~/schemas/admin-email";
import { countEmailsByStatus, emailSummaryToApi, listEmails } from "~/services/email/mailbox.server";

/**
 * GET /api/admin/emails (admin only): one page of the outbox, newest first, with the filters of
 * /admin/emails in the query (status, kind, to, order, page) and the number of emails per status.
 */
export const loader = ({ request }: LoaderFunctionArgs) =>
  handleApi(async () => {
    await requireAdminApi(request);
    const { emails, ...page } = await listEmails(readEmailFilters(new URL(request.url)));
    return apiJson({ emails: emails.map(emailSummaryToApi), ...page, counts: await countEmailsByStatus() });
  });

export const action = (_: ActionFunctionArgs) => methodNotAllowed(["GET"]);
