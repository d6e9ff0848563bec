import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, handleApi, methodNotAllowed, readJsonBody } from "~/http/api.server";
import { contactSchema } from "~/schemas/contact";
import { createContactRequest } from "~/services/contacts.server";

/** POST /api/contact: the contact form's JSON twin (same schema, same service). 201 with the new id. */
export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(async () => {
    if (request.method !== "POST") return methodNotAllowed(["POST"]);
    const input = await readJsonBody(request, contactSchema);
    const created = createContactRequest(input);
    return apiJson({ success: true, id: created.id, status: created.status, createdAt: created.createdAt }, { status: 201 });
  });

export const loader = (_: LoaderFunctionArgs) => methodNotAllowed(["POST"]);
