import type { ActionFunctionArgs } from "@remix-run/node";
import { apiJson, handleApi, methodNotAllowed, readJsonBody } from "~/http/api.server";
import { LOGIN_FAILED_MESSAGE, loginSchema } from "~/schemas/login";
import { AdminLoginError, clientAddress, createAdminSession, verifyAdminLogin } from "~/services/admin-auth.server";

/**
 * POST /api/admin/login { username, password } -> { success, message }, sets the session cookie.
 * 401 on bad credentials (same answer whoever the user is), 429 when rate limited.
 */
export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(async () => {
    if (request.method !== "POST") return methodNotAllowed(["POST"]);
    const input = await readJsonBody(request, loginSchema);
    try {
      const user = await verifyAdminLogin(input, clientAddress(request));
      return apiJson(
        { success: true, message: "Connexion réussie", user: { ...user, isAdmin: true } },
        { headers: { "Set-Cookie": await createAdminSession(user, request) } },
      );
    } catch (error) {
      if (!(error instanceof AdminLoginError)) throw error;
      const blocked = error.reason === "blocked";
      const message = blocked ? error.message : LOGIN_FAILED_MESSAGE;
      return apiJson(
        { success: false, message, error: message, issues: [] },
        { status: blocked ? 429 : 401, headers: blocked ? { "Retry-After": String(error.retryAfterSeconds) } : {} },
      );
    }
  });

export const loader = () => methodNotAllowed(["POST"]);
