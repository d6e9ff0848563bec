import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireAdmin } from "~/http/admin-guard.server";
import { pageIdOr404 } from "~/http/api.server";
import { NO_STORE } from "~/http/cache-control";
import { actionError } from "~/http/action-errors.server";
import { CUSTOMER_NOT_FOUND } from "~/services/customers/records.server";
import { exportCustomerData } from "~/services/customers/export.server";

/** GET /admin/customers/{id}/export.json: the customer's data as a JSON file to download (the page's « Exporter les données (JSON) »). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request);
  const id = pageIdOr404(params.id, CUSTOMER_NOT_FOUND);
  try {
    const { filename, data } = await exportCustomerData(id, admin);
    return new Response(`${JSON.stringify(data, null, 2)}\n`, {
      headers: {
        "Content-Type": "application/json; charset=utf-8",
        "Content-Disposition": `attachment; filename="${filename}"`,
        "Cache-Control": NO_STORE,
      },
    });
  } catch (error) {
    const refusal = actionError(error);
    if (refusal?.status === 404) throw new Response(CUSTOMER_NOT_FOUND, { status: 404 });
    throw error;
  }
}
