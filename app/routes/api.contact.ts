import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, handleApi, methodNotAllowed, readJsonBody } from "~/http/api.server";
import { clientAddress } from "~/http/client-address.server";
import { contactSchema } from "~/schemas/contact";
import { createContactRequest } from "~/services/contacts.server";
import { throttlePublicWrite } from "~/services/limits.server";

/**
 * POST /api/contact: the contact form's JSON twin (same schema, same service). 201 with the new id;
 * 429 once the client address has sent its allowance (limits.server.ts).
 */
export const action = ({ request, context }: ActionFunctionArgs) =>
  handleApi(async () => {
    if (request.method !== "POST") return methodNotAllowed(["POST"]);
    const input = await readJsonBody(request, contactSchema);
    const created = await throttlePublicWrite(
      "contact-api",
      clientAddress(request, context),
      async () => await createContactRequest(input),
    );
    return apiJson({ success: true, id: created.id, status: created.status, createdAt: created.createdAt }, { status: 201 });
  });

export const loader = (_: LoaderFunctionArgs) => methodNotAllowed(["POST"]);
