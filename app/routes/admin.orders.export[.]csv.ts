import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireAdmin } from "~/http/admin-guard.server";
import { untilWritableOf } from "~/http/backpressure.server";
import { NO_STORE } from "~/http/cache-control";
import { readOrderFilters, readOrderPeriod } from "~/schemas/admin-order";
import { ordersCsvFileName, ordersCsvStream } from "~/services/orders/export.server";

/**
 * GET /admin/orders/export.csv: every order of the list's filters as a CSV file, streamed, for
 * the period `du`–`au` (Paris days, both included; all time without them). A period that
 * cannot be read is a 400 with its French reason.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const url = new URL(request.url);
  const { error } = readOrderPeriod(url);
  if (error)
    return new Response(error, {
      status: 400,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": NO_STORE },
    });
  return new Response(ordersCsvStream(readOrderFilters(url), untilWritableOf(context)), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${ordersCsvFileName()}"`,
      "Cache-Control": NO_STORE,
    },
  });
}
