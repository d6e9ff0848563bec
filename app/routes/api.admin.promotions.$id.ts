import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireAdminApi } from "~/http/admin-guard.server";
import {
  apiError,
  apiJson,
  handleApi,
  methodNotAllowed,
  noContent,
  parseId,
  readJsonBody,
  requireSameOriginApi,
} from "~/http/api.server";
import { promotionPatchSchema } from "~/schemas/promotion";
import {
  getPromotion,
  PROMOTION_NOT_FOUND,
  promotionToApi,
  removePromotion,
  updatePromotion,
} from "~/services/promotions/admin.server";

/** GET /api/admin/promotions/{id}; PATCH changes it; DELETE deletes a code never used, deactivates a used one (admin only). */
export const loader = ({ request, params }: LoaderFunctionArgs) =>
  handleApi(async () => {
    await requireAdminApi(request);
    const promotion = await getPromotion(parseId(params.id));
    return promotion ? apiJson(promotionToApi(promotion)) : apiError(404, PROMOTION_NOT_FOUND);
  });

export const action = ({ request, params }: ActionFunctionArgs) =>
  handleApi(async () => {
    if (request.method !== "PATCH" && request.method !== "DELETE") return methodNotAllowed(["GET", "PATCH", "DELETE"]);
    requireSameOriginApi(request);
    await requireAdminApi(request);
    const id = parseId(params.id);
    if (request.method === "DELETE") {
      return (await removePromotion(id)) ? noContent() : apiError(404, PROMOTION_NOT_FOUND);
    }
    const patch = await readJsonBody(request, promotionPatchSchema);
    const updated = await updatePromotion(id, patch);
    return updated ? apiJson(promotionToApi(updated)) : apiError(404, PROMOTION_NOT_FOUND);
  });
