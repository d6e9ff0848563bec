import { redirectWithError, redirectWithSuccess } from "remix-toast";
import { isShopError } from "~/lib/shop-error";
import { safeRedirect } from "~/lib/safe-redirect";
import { resendEmailOrRefuse } from "~/services/email/mailbox.server";
import { readRowAction, unknownAction } from "~/http/admin-pages.server";

/** Where a 'Renvoyer' form may come back to: the mailbox, an email's page or an order's page. */
const BACK_PREFIXES = ["/admin/emails", "/admin/orders/"];

/**
 * The 'Renvoyer' row action of the mailbox, of an email's page and of an order's page: a
 * same-origin form post from the administrator (intent `resend`, the email's `id`), back to the
 * page it came from with the 'Email remis en file d'envoi' toast, or an error toast in French
 * (unknown email, or one that is not failed).
 */
export async function resendEmailAction(request: Request, fallback = "/admin/emails") {
  const { form, id, intent } = await readRowAction(request);
  const back = safeRedirect(form.get("redirectTo"), fallback);
  const target = BACK_PREFIXES.some((prefix) => back.startsWith(prefix)) ? back : fallback;
  if (intent !== "resend" || id === null) return unknownAction(target);
  try {
    await resendEmailOrRefuse(id);
  } catch (error) {
    if (!isShopError(error)) throw error;
    return redirectWithError(target, { message: "Erreur", description: error.message });
  }
  return redirectWithSuccess(target, {
    message: "Email remis en file d'envoi",
    description: `L'email n°${id} partira à la prochaine tentative, avec le même contenu.`,
  });
}
