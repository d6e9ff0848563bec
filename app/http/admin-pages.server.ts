import { type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type TypedResponse } from "@remix-run/node";
import { redirectWithError } from "remix-toast";
import { type z } from "zod";
import { parseIdOrNull } from "~/lib/ids";
import { type SignedInAdmin } from "~/services/admin-auth.server";
import { actionError, refusalReply } from "./action-errors.server";
import { requireAdmin } from "./admin-guard.server";
import { pageIdOr404, requireSameOriginForm } from "./api.server";
import { NO_STORE_HEADERS } from "./cache-control";
import { readPageForm } from "./page-form.server";

/**
 * The steps the back office's list and form pages share in their loaders and actions. The pages
 * keep their own rules (what may be deleted, where to go next, which message to show).
 */

/** The loader of a page with nothing to load (new product, new user): the administrator only. */
export async function adminPageLoader(request: Request) {
  await requireAdmin(request);
  return data(null, { headers: NO_STORE_HEADERS });
}

/** At the top of every admin page action: a same-origin form post from the signed-in administrator. */
export async function requireAdminForm(request: Request, options: { deniedToast?: boolean } = {}): Promise<SignedInAdmin> {
  requireSameOriginForm(request);
  return requireAdmin(request, options);
}

/** The 404 a page throws for a record that does not exist (its message is the page's). */
export function notFound(message: string): Response {
  return new Response(message, { status: 404 });
}

/** The record a page such as /admin/products/edit/{id} is about, or a thrown 404. */
export async function recordOr404<T>(
  param: string | undefined,
  message: string,
  find: (id: number) => Promise<T | undefined> | T | undefined,
): Promise<T> {
  const record = await find(pageIdOr404(param, message));
  if (!record) throw notFound(message);
  return record;
}

/** An id of the page's address, such as ?delete=12: the number, or null when absent or not an id. */
export function queryId(request: Request, name: string): number | null {
  return parseIdOrNull(new URL(request.url).searchParams.get(name));
}

/** The page a list asks for (`?page=`): 1 when absent or not a positive integer; the service caps it at the last page. */
export function queryPage(request: Request): number {
  return parseIdOrNull(new URL(request.url).searchParams.get("page")) ?? 1;
}

/** A list page's row action (delete, mark delivered...): the administrator, the form, its intent and its row id. */
export async function readRowAction(request: Request, options: { deniedToast?: boolean } = {}) {
  const admin = await requireAdminForm(request, options);
  const form = await readPageForm(request);
  const id = parseIdOrNull(String(form.get("id") ?? ""));
  return { admin, form, id, intent: form.get("intent") };
}

/** Back to the list with the 'action inconnue' error toast (an intent or id the page does not know). */
export function unknownAction(to: string) {
  return redirectWithError(to, { message: "Erreur", description: "Une erreur est survenue: action inconnue" });
}

/** What a form page's action sends back to its Conform form when it does not redirect. */
export type FormReply = { result: SubmissionResult<string[]> };

/**
 * A new or edit page's form post: the form read against `schema` (errors back with a 400), then
 * `save`, which redirects on success. A service's refusal (a ShopError) comes back on its field or
 * on the whole form, with its status; any other error is rethrown. `hideFields` are never sent
 * back (passwords).
 */
export async function submitAdminForm<Schema extends z.ZodType>(
  request: Request,
  schema: Schema,
  save: (value: z.output<Schema>) => Promise<TypedResponse<never>> | TypedResponse<never>,
  options: { hideFields?: string[] } = {},
) {
  const submission = parseWithZod(await readPageForm(request), { schema });
  if (submission.status !== "success") {
    return data({ result: submission.reply({ hideFields: options.hideFields }) }, { status: 400 });
  }
  try {
    return await save(submission.value);
  } catch (error) {
    const refusal = actionError(error);
    if (!refusal) throw error;
    return data(
      { result: submission.reply({ hideFields: options.hideFields, ...refusalReply(refusal) }) },
      { status: refusal.status },
    );
  }
}
