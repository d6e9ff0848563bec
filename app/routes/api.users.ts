import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireAdminApi } from "~/http/admin-guard.server";
import { apiError, apiJson, handleApi, methodNotAllowed, readJsonBody } from "~/http/api.server";
import { isShopError } from "~/lib/shop-error";
import { userCreateSchema } from "~/schemas/user";
import { createUser, listUsers } from "~/services/users.server";

/** GET /api/users (admin only): users without any password data. */
export const loader = ({ request }: LoaderFunctionArgs) =>
  handleApi(async () => {
    await requireAdminApi(request);
    return apiJson(await listUsers());
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
