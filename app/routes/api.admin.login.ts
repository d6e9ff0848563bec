import type { ActionFunctionArgs } from "@remix-run/node";
import { apiJson, handleApi, methodNotAllowed, readJsonBody } from "~/http/api.server";
import { clientAddress } from "~/http/client-address.server";
import { retryAfterHeaders } from "~/http/retry-after";
import { apiLoginSchema, LOGIN_FAILED_MESSAGE } from "~/schemas/login";
import { AdminLoginError, createAdminSession } from "~/services/admin-auth.server";
import { verifyAdminApiLogin } from "~/services/admin-second-factor.server";

/** The machine codes of a refused sign-in whose password was right: the second factor's. */
const SECOND_FACTOR_CODES = { code_required: "totp_required", invalid_code: "invalid_code" } as const;

/**
 * POST /api/admin/login { username, password, code? } -> { success, message }, sets the session cookie.
 * 401 on bad credentials (same answer whoever the user is); for an account with the second
 * factor, 401 `totp_required` without `code` and `invalid_code` with a wrong or used one. 429
 * when throttled, 503 when too many sign-ins are being checked at once; both with Retry-After.
 */
export const action = ({ request, context }: ActionFunctionArgs) =>
  handleApi(async () => {
    if (request.method !== "POST") return methodNotAllowed(["POST"]);
    const input = await readJsonBody(request, apiLoginSchema);
    try {
      const address = clientAddress(request, context);
      const user = await verifyAdminApiLogin(input, address);
      return apiJson(
        { success: true, message: "Connexion réussie", user: { ...user, isAdmin: true } },
        { headers: { "Set-Cookie": await createAdminSession(user, request, address) } },
      );
    } catch (error) {
      if (!(error instanceof AdminLoginError)) throw error;
      const message = error.reason === "invalid" ? LOGIN_FAILED_MESSAGE : error.message;
      const code =
        error.reason === "code_required" || error.reason === "invalid_code" ? SECOND_FACTOR_CODES[error.reason] : undefined;
      return apiJson(
        {
          success: false,
          message,
          error: message,
          issues: code ? [{ path: "code", message }] : [],
          ...(code ? { code } : {}),
        },
        { status: error.status, headers: retryAfterHeaders(error) },
      );
    }
  });

export const loader = () => methodNotAllowed(["POST"]);
