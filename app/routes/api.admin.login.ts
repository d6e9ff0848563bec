import type { ActionFunctionArgs } from "@remix-run/node";
import { apiJson, handleApi, methodNotAllowed, readJsonBody } from "~/http/api.server";
import { clientAddress } from "~/http/client-address.server";
import { retryAfterHeaders } from "~/http/retry-after";
import { LOGIN_FAILED_MESSAGE, loginSchema } from "~/schemas/login";
import { AdminLoginError, createAdminSession, verifyAdminLogin } from "~/services/admin-auth.server";

/**
 * POST /api/admin/login { username, password } -> { success, message }, sets the session cookie.
 * 401 on bad credentials (same answer whoever the user is), 429 when throttled, 503 when too
 * many sign-ins are being checked at once; both with Retry-After.
 */
export const action = ({ request, context }: ActionFunctionArgs) =>
  handleApi(async () => {
    if (request.method !== "POST") return methodNotAllowed(["POST"]);
    const input = await readJsonBody(request, loginSchema);
    try {
      const address = clientAddress(request, context);
      const user = await verifyAdminLogin(input, address);
      return apiJson(
        { success: true, message: "Connexion réussie", user: { ...user, isAdmin: true } },
        { headers: { "Set-Cookie": await createAdminSession(user, request, address) } },
      );
    } catch (error) {
      if (!(error instanceof AdminLoginError)) throw error;
      const message = error.reason === "invalid" ? LOGIN_FAILED_MESSAGE : error.message;
      return apiJson(
        { success: false, message, error: message, issues: [] },
        { status: error.status, headers: retryAfterHeaders(error) },
      );
    }
  });

export const loader = () => methodNotAllowed(["POST"]);
