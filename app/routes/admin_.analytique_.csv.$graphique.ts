import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireAdmin } from "~/http/admin-guard.server";
import { NO_STORE } from "~/http/cache-control";
import { analyticsPageQuerySchema } from "~/schemas/analytics";
import { tableCsv } from "~/services/analytics/csv.server";
import { analyticsReport, daysOfQuery } from "~/services/analytics/report.server";
import { CHART_IDS, chartTables, type ChartId } from "~/services/analytics/page.server";

/** GET /admin/analytique/csv/{chart}?periode=…: a chart's data as a CSV file, for the same period as the page. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const id = params.graphique as ChartId;
  if (!CHART_IDS.includes(id))
    throw new Response("Graphique introuvable", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  const url = new URL(request.url);
  const parsed = analyticsPageQuerySchema.safeParse({
    periode: url.searchParams.get("periode"),
    du: url.searchParams.get("du"),
    au: url.searchParams.get("au"),
  });
  if (!parsed.success) {
    return new Response(parsed.error.issues.map((i) => i.message).join("\n"), {
      status: 400,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": NO_STORE },
    });
  }
  const { from, to } = daysOfQuery(parsed.data);
  const table = chartTables(await analyticsReport(from, to))[id].csv;
  return new Response(tableCsv(table), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="analytique-${id}-${from}-${to}.csv"`,
      "Cache-Control": NO_STORE,
    },
  });
}
