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
import { contactStatusSchema } from "~/schemas/contact-status";
import { deleteContactRequest, getContactRequest, setContactStatus } from "~/services/contacts.server";

const NOT_FOUND = "Demande de contact introuvable";

/** GET /api/admin/contacts/{id} (admin only). */
export const loader = ({ request, params }: LoaderFunctionArgs) =>
  handleApi(async () => {
    await requireAdminApi(request);
    const contact = await getContactRequest(parseId(params.id));
    return contact ? apiJson(contact) : apiError(404, NOT_FOUND);
  });

/** PATCH { status } and DELETE (admin only). */
export const action = ({ request, params }: ActionFunctionArgs) =>
  handleApi(async () => {
    await requireAdminApi(request);
    const id = parseId(params.id);
    if (request.method === "PATCH") {
      const { status } = await readJsonBody(request, contactStatusSchema);
      const updated = await setContactStatus(id, status);
      return updated ? apiJson(updated) : apiError(404, NOT_FOUND);
    }
    if (request.method === "DELETE") {
      requireSameOriginApi(request);
      return (await deleteContactRequest(id)) ? noContent() : apiError(404, NOT_FOUND);
    }
    return methodNotAllowed(["GET", "PATCH", "DELETE"]);
  });
