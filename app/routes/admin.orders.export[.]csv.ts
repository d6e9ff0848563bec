import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireAdmin } from "~/http/admin-guard.server";
import { NO_STORE } from "~/http/cache-control";
import { readOrderFilters } from "~/schemas/admin-order";
import { ordersCsv, ordersCsvFileName } from "~/services/orders/export.server";

/** GET /admin/orders/export.csv: the order list as a CSV file, with the same filters as the page. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const body = await ordersCsv(readOrderFilters(new URL(request.url)));
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${ordersCsvFileName()}"`,
      "Cache-Control": NO_STORE,
    },
  });
}
