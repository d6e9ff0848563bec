import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "@remix-run/node";
import { actionError, refusalReply } from "~/http/action-errors.server";
import { clientAddress } from "~/http/client-address.server";
import { redirectWithSuccess } from "~/http/toast.server";
import { retryAfterHeaders } from "~/http/retry-after";
import { NEW_LINK_SENT_MESSAGE } from "~/lib/link-lifetimes";
import { subscriptionLinkRequestSchema } from "~/schemas/subscription-link-request";
import { isHoneypotFilled } from "~/services/honeypot.server";
import { sendManagementLinks } from "~/services/subscriptions/manage-link.server";

/**
 * « Recevoir un nouveau lien »: the actions that send a fresh management link by email, shared
 * by /mon-abonnement (an email typed), the order's page and the pay page (one button, to the
 * subscription's own address). The answer never says whether an address has a subscription;
 * past the limits, a 429 with its French message (limits.server.ts).
 */

/** Where the form's success leads: the page without a link, saying the neutral answer. */
export const NEW_LINK_SENT_PATH = "/mon-abonnement?lien=envoye";

const UNEXPECTED = "Le lien n'a pas pu être envoyé. Veuillez réessayer dans un instant.";

/** The form of /mon-abonnement: its email, then the neutral answer (post/redirect/get), a 400 for a bad address, a 429 past the limits. */
export async function requestLinksByEmail(formData: FormData, request: Request, context: unknown, headers: HeadersInit) {
  const submission = parseWithZod(formData, { schema: subscriptionLinkRequestSchema });
  if (submission.status !== "success") {
    return data({ linkRequest: submission.reply() }, { status: 400, headers });
  }
  try {
    // Bots fill the hidden field: nothing is sent, and the answer is the same.
    if (!isHoneypotFilled(formData)) await sendManagementLinks(submission.value.email, clientAddress(request, context));
  } catch (error) {
    const refusal = actionError(error);
    if (!refusal) console.error("subscription link request failed", error);
    return data(
      { linkRequest: submission.reply(refusal ? refusalReply(refusal) : { formErrors: [UNEXPECTED] }) },
      { status: refusal?.status ?? 503, headers: { ...headers, ...retryAfterHeaders(refusal) } },
    );
  }
  return await redirectWithSuccess(NEW_LINK_SENT_PATH, { message: "Demande envoyée", description: NEW_LINK_SENT_MESSAGE });
}

/**
 * One button's request (the order's page, the pay page): `send` mails the subscription's own
 * address; back to the page with the neutral answer, or a 429 with its message.
 */
export async function requestLinkByButton(
  send: (clientAddress: string) => Promise<unknown>,
  options: { request: Request; context: unknown; back: string; message: string; headers: HeadersInit },
) {
  try {
    await send(clientAddress(options.request, options.context));
  } catch (error) {
    const refusal = actionError(error);
    if (!refusal) console.error("subscription link request failed", error);
    return data(
      { linkRequestRefused: refusal?.message ?? UNEXPECTED },
      { status: refusal?.status ?? 503, headers: { ...options.headers, ...retryAfterHeaders(refusal) } },
    );
  }
  return await redirectWithSuccess(
    options.back,
    { message: "Demande envoyée", description: options.message },
    { headers: { "X-Remix-Replace": "true" } },
  );
}
