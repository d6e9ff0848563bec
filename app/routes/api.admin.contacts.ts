import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireAdminApi } from "~/http/admin-guard.server";
import { apiPage, readPageQuery } from "~/http/api-page.server";
import { handleApi, methodNotAllowed } from "~/http/api.server";
import { pageContactRequests } from "~/services/contacts.server";

/**
 * GET /api/admin/contacts (admin only): one page of the contact requests, newest first:
 * `{ contacts, limit, nextCursor }`, the next page also in `Link` (query: limit, cursor).
 */
export const loader = ({ request }: LoaderFunctionArgs) =>
  handleApi(async () => {
    await requireAdminApi(request);
    const query = readPageQuery(new URL(request.url));
    return apiPage(request, "contacts", { ...(await pageContactRequests(query)), limit: query.limit });
  });

export const action = (_: ActionFunctionArgs) => methodNotAllowed(["GET"]);
