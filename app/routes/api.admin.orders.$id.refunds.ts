import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { randomUUID } from "node:crypto";
import { requireAdminApi } from "~/http/admin-guard.server";
import { apiJson, handleApi, methodNotAllowed, parseId, readJsonBody } from "~/http/api.server";
import { ShopError } from "~/lib/shop-error";
import { refundSchema } from "~/schemas/refund";
import { orderRefundsToApi } from "~/services/admin-refunds.server";
import { refundActorOf, refundOrder } from "~/services/payments/refunds.server";

/**
 * GET /api/admin/orders/{id}/refunds (admin only): the order's refunds, what was refunded and what remains.
 * POST: refunds the order, in part (`amount` in euros) or all that remains, with a `reason`; the
 * `Idempotency-Key` header (or `idempotencyKey`) makes a replay return the first refund.
 */
export const loader = ({ request, params }: LoaderFunctionArgs) =>
  handleApi(async () => {
    await requireAdminApi(request);
    return apiJson(await orderRefundsToApi(parseId(params.id)));
  });

export const action = ({ request, params }: ActionFunctionArgs) =>
  handleApi(async () => {
    if (request.method !== "POST") return methodNotAllowed(["GET", "POST"]);
    const admin = await requireAdminApi(request);
    const id = parseId(params.id);
    const body = await readJsonBody(request, refundSchema);
    const header = request.headers.get("Idempotency-Key")?.trim();
    if (header && !/^[A-Za-z0-9_-]{8,100}$/.test(header)) {
      throw new ShopError(
        400,
        "invalid_idempotency_key",
        "En-tête Idempotency-Key invalide : 8 à 100 lettres, chiffres, tirets ou soulignés.",
      );
    }
    const { refund, replayed } = await refundOrder({
      orderId: id,
      amountCents: body.amount,
      reason: body.reason,
      actor: refundActorOf(admin),
      idempotencyKey: header || body.idempotencyKey || `api-${randomUUID()}`,
    });
    const { order, remaining, refunds } = await orderRefundsToApi(id);
    return apiJson({ ...refunds.find((r) => r.id === refund.id)!, replayed, order, remaining }, { status: replayed ? 200 : 201 });
  });
