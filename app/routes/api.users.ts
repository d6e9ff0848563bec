import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireAdminApi } from "~/http/admin-guard.server";
import { apiPage, readPageQuery } from "~/http/api-page.server";
import { apiError, apiJson, handleApi, methodNotAllowed, readJsonBody } from "~/http/api.server";
import { isShopError } from "~/lib/shop-error";
import { userCreateSchema } from "~/schemas/user";
import { createUser, pageUsers } from "~/services/users.server";

/**
 * GET /api/users (admin only): one page of users without any password data, by id:
 * `{ users, limit, nextCursor }`, the next page also in `Link` (query: limit, cursor).
 */
export const loader = ({ request }: LoaderFunctionArgs) =>
  handleApi(async () => {
    await requireAdminApi(request);
    const query = readPageQuery(new URL(request.url));
    return apiPage(request, "users", { ...(await pageUsers(query)), limit: query.limit });
  });

/** POST /api/users (admin only): 201 with the new user's id. */
export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(async () => {
    if (request.method !== "POST") return methodNotAllowed(["GET", "POST"]);
    await requireAdminApi(request);
    const input = await readJsonBody(request, userCreateSchema);
    try {
      const user = await createUser(input);
      return apiJson(user, { status: 201, headers: { Location: `/api/users/${user.id}` } });
    } catch (error) {
      // This API has always answered a taken username or email as { error, issues }, without `code`.
      if (!isShopError(error)) throw error;
      return apiError(error.status, error.message, error.field ? [{ path: error.field, message: error.message }] : []);
    }
  });
