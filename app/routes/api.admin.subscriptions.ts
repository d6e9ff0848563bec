import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireAdminApi } from "~/http/admin-guard.server";
import { apiError, apiJson, handleApi, methodNotAllowed } from "~/http/api.server";
import { readSubscriptionFilters } from "~/schemas/admin-subscription";
import { listAdminSubscriptions, subscriptionSummaryToApi } from "~/services/subscriptions/admin-view.server";
import { listAllPacks } from "~/services/packs.server";

/**
 * GET /api/admin/subscriptions (admin only): one page of subscriptions, the most recent first,
 * with the filters of /admin/subscriptions in the query; a filter that cannot be read is a 400.
 */
export const loader = ({ request }: LoaderFunctionArgs) =>
  handleApi(async () => {
    await requireAdminApi(request);
    const { filters, issues } = readSubscriptionFilters(
      new URL(request.url),
      (await listAllPacks()).map((p) => p.id),
    );
    if (issues.length) return apiError(400, "Filtres invalides", issues);
    const { subscriptions, ...page } = await listAdminSubscriptions(filters);
    return apiJson({ subscriptions: subscriptions.map(subscriptionSummaryToApi), ...page });
  });

export const action = (_: ActionFunctionArgs) => methodNotAllowed(["GET"]);
