import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireAdminApi } from "~/http/admin-guard.server";
import { apiPage, readPageQuery } from "~/http/api-page.server";
import { apiError, handleApi, methodNotAllowed } from "~/http/api.server";
import { readSubscriptionFilters } from "~/schemas/admin-subscription";
import { pageAdminSubscriptions, subscriptionSummaryToApi } from "~/services/subscriptions/admin-view.server";
import { listAllPacks } from "~/services/packs.server";

/**
 * GET /api/admin/subscriptions (admin only): one page of subscriptions, the most recent first:
 * `{ subscriptions, limit, nextCursor }`, the next page also in `Link`. Query: `limit` (default
 * 50, at most 200), `cursor`, and the filters of /admin/subscriptions; a filter that cannot be
 * read is a 400.
 */
export const loader = ({ request }: LoaderFunctionArgs) =>
  handleApi(async () => {
    await requireAdminApi(request);
    const url = new URL(request.url);
    const query = readPageQuery(url);
    const { filters, issues } = readSubscriptionFilters(
      url,
      (await listAllPacks()).map((p) => p.id),
    );
    if (issues.length) return apiError(400, "Filtres invalides", issues);
    const page = await pageAdminSubscriptions(filters, query);
    return apiPage(request, "subscriptions", {
      items: page.items.map(subscriptionSummaryToApi),
      nextCursor: page.nextCursor,
      limit: query.limit,
    });
  });

export const action = (_: ActionFunctionArgs) => methodNotAllowed(["GET"]);
