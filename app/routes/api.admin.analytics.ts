import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireAdminApi } from "~/http/admin-guard.server";
import { apiError, apiJson, handleApi, methodNotAllowed, zodIssues } from "~/http/api.server";
import { analyticsApiQuerySchema } from "~/schemas/analytics";
import { analyticsToApi } from "~/services/analytics/api-view.server";
import { analyticsReport, defaultDays } from "~/services/analytics/report.server";

/**
 * GET /api/admin/analytics?from=2026-11-01&to=2026-11-30 (admin only): the figures of
 * /admin/analytique for those Paris days (the last 30 days by default), each with the previous
 * period of the same length; an unreadable date is a 422 with its reason.
 */
export const loader = ({ request }: LoaderFunctionArgs) =>
  handleApi(async () => {
    await requireAdminApi(request);
    const url = new URL(request.url);
    const parsed = analyticsApiQuerySchema.safeParse({ from: url.searchParams.get("from"), to: url.searchParams.get("to") });
    if (!parsed.success) return apiError(422, "Période invalide", zodIssues(parsed.error));
    const fallback = defaultDays();
    const to = parsed.data.to ?? (parsed.data.from && parsed.data.from > fallback.to ? parsed.data.from : fallback.to);
    const from = parsed.data.from ?? (to < fallback.from ? to : fallback.from);
    // A lone `from` long ago makes a period too long: the same check on the days resolved.
    const resolved = analyticsApiQuerySchema.safeParse({ from, to });
    if (!resolved.success) return apiError(422, "Période invalide", zodIssues(resolved.error));
    return apiJson(analyticsToApi(await analyticsReport(from, to)));
  });

export const action = (_: ActionFunctionArgs) => methodNotAllowed(["GET"]);
