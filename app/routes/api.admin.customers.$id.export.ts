import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireAdminApi } from "~/http/admin-guard.server";
import { apiJson, handleApi, methodNotAllowed, parseId } from "~/http/api.server";
import { exportCustomerData } from "~/services/customers/export.server";

/** GET /api/admin/customers/{id}/export (admin only): the customer's data as a JSON file to download; the export is recorded in the audit log. */
export const loader = ({ request, params }: LoaderFunctionArgs) =>
  handleApi(async () => {
    const admin = await requireAdminApi(request);
    const { filename, data } = await exportCustomerData(parseId(params.id), admin);
    return apiJson(data, { headers: { "Content-Disposition": `attachment; filename="${filename}"` } });
  });

export const action = (_: ActionFunctionArgs) => methodNotAllowed(["GET"]);
