import { requireSameOriginForm } from "./api.server";
import { BodyTooLargeError, readLimitedText } from "./request-body.server";

/**
 * Every page form of the shop is a small urlencoded post. The largest, a contact message of
 * 5,000 characters, takes at most 45 kB once encoded (9 bytes for a 3-byte character such as
 * "€" written as %E2%82%AC): 64 kB holds any real one.
 */
export const MAX_FORM_BYTES = 64 * 1024;

const TOO_LARGE = "Formulaire trop volumineux : raccourcissez vos messages et réessayez.";
const WRONG_TYPE = "Format de formulaire non pris en charge.";

/**
 * The form of a page action: posted from one of our pages (403 otherwise), urlencoded (415),
 * and at most MAX_FORM_BYTES (413, checked while reading, before any parsing).
 */
export async function readPageForm(request: Request): Promise<FormData> {
  requireSameOriginForm(request);
  const type = (request.headers.get("Content-Type") ?? "").split(";")[0].trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") throw new Response(WRONG_TYPE, { status: 415 });
  let text: string;
  try {
    text = await readLimitedText(request, MAX_FORM_BYTES);
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw new Response(TOO_LARGE, { status: 413 });
    throw error;
  }
  const form = new FormData();
  for (const [name, value] of new URLSearchParams(text)) form.append(name, value);
  return form;
}
