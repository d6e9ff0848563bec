import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireAdminApi } from "~/http/admin-guard.server";
import { apiPage, readPageQuery } from "~/http/api-page.server";
import { handleApi, methodNotAllowed } from "~/http/api.server";
import { readEmailFilters } from "~/schemas/admin-email";
import { countEmailsByStatus, emailSummaryToApi, pageEmails } from "~/services/email/mailbox.server";

/**
 * GET /api/admin/emails (admin only): one page of the outbox, newest first:
 * `{ emails, limit, nextCursor, counts }`, the next page also in `Link`. Query: `limit`
 * (default 50, at most 200), `cursor`, and the filters of /admin/emails (status, kind, to,
 * order); `counts` is the number of emails per status.
 */
export const loader = ({ request }: LoaderFunctionArgs) =>
  handleApi(async () => {
    await requireAdminApi(request);
    const url = new URL(request.url);
    const query = readPageQuery(url);
    const page = await pageEmails(readEmailFilters(url), query);
    return apiPage(
      request,
      "emails",
      { items: page.items.map(emailSummaryToApi), nextCursor: page.nextCursor, limit: query.limit },
      { counts: await countEmailsByStatus() },
    );
  });

export const action = (_: ActionFunctionArgs) => methodNotAllowed(["GET"]);
