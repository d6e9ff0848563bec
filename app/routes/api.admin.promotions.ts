import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireAdminApi } from "~/http/admin-guard.server";
import { apiJson, handleApi, methodNotAllowed, readJsonBody, requireSameOriginApi } from "~/http/api.server";
import { promotionSchema } from "~/schemas/promotion";
import { createPromotion, listPromotions, promotionToApi } from "~/services/promotions/admin.server";

/** GET /api/admin/promotions: every promotion code with its uses and revenue; POST creates one (admin only). */
export const loader = ({ request }: LoaderFunctionArgs) =>
  handleApi(async () => {
    await requireAdminApi(request);
    return apiJson((await listPromotions()).map(promotionToApi));
  });

export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(async () => {
    if (request.method !== "POST") return methodNotAllowed(["GET", "POST"]);
    requireSameOriginApi(request);
    await requireAdminApi(request);
    const values = await readJsonBody(request, promotionSchema);
    const created = await createPromotion(values);
    return apiJson(promotionToApi(created), { status: 201, headers: { Location: `/api/admin/promotions/${created.id}` } });
  });
