import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, handleApi, methodNotAllowed, readJsonBody } from "~/http/api.server";
import { clientAddress } from "~/http/client-address.server";
import { WITHDRAWAL_NEUTRAL_MESSAGE, WITHDRAWAL_NO_ACK_MESSAGE, withdrawalApiSchema } from "~/schemas/withdrawal";
import { requestWithdrawal } from "~/services/withdrawals.server";

/**
 * POST /api/withdrawals: the withdrawal form's JSON twin (same schema, same service). 200 with
 * the neutral message, and what to do without an acknowledgement, whether an order matched or not; 429 once the client address has sent too
 * many requests matching nothing (limits.server.ts).
 */
export const action = ({ request, context }: ActionFunctionArgs) =>
  handleApi(async () => {
    if (request.method !== "POST") return methodNotAllowed(["POST"]);
    const input = await readJsonBody(request, withdrawalApiSchema);
    await requestWithdrawal(input, { address: clientAddress(request, context) });
    return apiJson({ message: WITHDRAWAL_NEUTRAL_MESSAGE, ifNoAcknowledgement: WITHDRAWAL_NO_ACK_MESSAGE });
  });

export const loader = (_: LoaderFunctionArgs) => methodNotAllowed(["POST"]);
