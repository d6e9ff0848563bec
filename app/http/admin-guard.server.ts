import { redirect } from "@remix-run/node";
import { redirectWithError } from "remix-toast";
import {
  DEFAULT_ADMIN_PATH,
  destroyAdminSession,
  getAdminUser,
  hasAdminSessionCookie,
  LOGIN_PATH,
  type SignedInAdmin,
} from "~/services/admin-auth.server";
import { apiError } from "./api.server";
import { NO_STORE_HEADERS } from "./cache-control";

/** The admin pages' and admin API's doors: the signed-in administrator, or the HTTP answer that refuses. */

/** The login page, coming back to this page after signing in (the dashboard needs no redirectTo). */
function loginUrlFor(request: Request): string {
  const url = new URL(request.url);
  const back = url.pathname + url.search;
  return back === DEFAULT_ADMIN_PATH ? LOGIN_PATH : `${LOGIN_PATH}?redirectTo=${encodeURIComponent(back)}`;
}

const ACCESS_DENIED_TOAST = {
  message: "Accès refusé",
  description: "Vous devez être connecté pour accéder à cette page",
};

/**
 * At the top of every admin page loader and action: the administrator, or a thrown redirect
 * to the login page (coming back here afterwards). `deniedToast` adds the 'Accès refusé' toast.
 */
export async function requireAdmin(request: Request, options: { deniedToast?: boolean } = {}): Promise<SignedInAdmin> {
  const admin = await getAdminUser(request);
  if (admin) return admin;
  const headers = new Headers(NO_STORE_HEADERS);
  // A cookie whose session has ended (signed out, revoked, expired) or whose user is no longer an admin: drop it.
  if (await hasAdminSessionCookie(request)) headers.append("Set-Cookie", await destroyAdminSession(request));
  const to = loginUrlFor(request);
  if (options.deniedToast) throw await redirectWithError(to, ACCESS_DENIED_TOAST, { headers });
  throw redirect(to, { headers });
}

/** At the top of every admin API handler: the administrator, or a thrown 401 JSON error. */
export async function requireAdminApi(request: Request): Promise<SignedInAdmin> {
  const admin = await getAdminUser(request);
  if (admin) return admin;
  throw apiError(401, "Authentification requise : connectez-vous en tant qu'administrateur.");
}
