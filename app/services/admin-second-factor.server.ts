import { createCookie, type Cookie } from "@remix-run/node";
import { and, eq } from "drizzle-orm";
import { getConfig } from "~/config.server";
import { getDb } from "~/db/client.server";
import { users } from "~/db/schema";
import { verifyPassword } from "~/lib/passwords.server";
import type { ApiLoginInput } from "~/schemas/login";
import {
  AdminLoginError,
  checkAdminPassword,
  createAdminSession,
  throttledLoginAttempt,
  type AdminUser,
  type LoginAttempt,
} from "./admin-auth.server";
import { checkSecondFactor, hasTotp } from "./admin-totp.server";
import { isTrustedDevice, rememberDevice } from "./admin-trusted-devices.server";

/**
 * The second step of an administrator's sign-in, for an account whose second factor is on.
 *
 * After the right password, no session is opened: the browser gets a signed, HttpOnly cookie
 * `__admin_login` naming the user, valid 5 minutes, and is sent to the code page. A right code
 * (or an unused recovery code) opens the session; a wrong one counts in the sign-in limits like a
 * wrong password. A browser remembered for this user (« Se souvenir de cet appareil ») skips the
 * code page. The JSON API does both steps in one request (`code` in the body).
 */

export const SECOND_STEP_PATH = "/admin/login/verification";
export const SECOND_STEP_TTL_MS = 5 * 60 * 1000;

type PendingStep = { u: number; e: number; r: string | null };

let cookie: Cookie | undefined;

function pendingCookie(): Cookie {
  if (!cookie) {
    const config = getConfig();
    cookie = createCookie("__admin_login", {
      httpOnly: true,
      sameSite: "lax",
      path: "/admin",
      secure: config.mode === "live",
      secrets: config.sessionSecrets,
      maxAge: SECOND_STEP_TTL_MS / 1000,
    });
  }
  return cookie;
}

/** Set-Cookie value clearing the pending step. */
export function clearSecondStep(): Promise<string> {
  return pendingCookie().serialize("", { maxAge: undefined, expires: new Date(0) });
}

/** The administrator waiting for their code on this browser (still an administrator, factor still on), or null. */
export async function readSecondStep(
  request: Request,
  now = Date.now(),
): Promise<{ user: AdminUser; redirectTo: string | null } | null> {
  const value: unknown = await pendingCookie().parse(request.headers.get("Cookie"));
  if (!value || typeof value !== "object") return null;
  const { u, e, r } = value as Partial<PendingStep>;
  if (typeof u !== "number" || typeof e !== "number" || e <= now) return null;
  const [row] = await getDb()
    .select({ id: users.id, username: users.username, email: users.email, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(and(eq(users.id, u), eq(users.isAdmin, true)))
    .limit(1);
  if (!row || !(await hasTotp(row.id))) return null;
  return { user: row, redirectTo: typeof r === "string" ? r : null };
}

export type AfterPassword =
  /** The session is open: these Set-Cookie values go with the redirect. */
  | { step: "signed-in"; setCookies: string[] }
  /** The code is needed: set this cookie and go to the code page. */
  | { step: "code"; setCookies: string[] };

/** After the right password on the sign-in page: the session, or the code step. */
export async function continueSignIn(
  user: AdminUser,
  request: Request,
  address: string,
  redirectTo: string | null,
): Promise<AfterPassword> {
  if (!(await hasTotp(user.id)) || (await isTrustedDevice(request, user.id))) {
    return { step: "signed-in", setCookies: [await createAdminSession(user, request, address)] };
  }
  const pending: PendingStep = { u: user.id, e: Date.now() + SECOND_STEP_TTL_MS, r: redirectTo };
  return { step: "code", setCookies: [await pendingCookie().serialize(pending)] };
}

/**
 * The code page: checks the code (or recovery code) under the sign-in limits, then opens the
 * session, ends the pending step and, when asked, remembers the browser. Throws AdminLoginError.
 */
export async function completeSecondStep(
  user: AdminUser,
  request: Request,
  address: string,
  input: { code: string; remember: boolean },
): Promise<string[]> {
  await throttledLoginAttempt(user.username, address, async () => codeAttempt(user, input.code));
  const setCookies = [await createAdminSession(user, request, address), await clearSecondStep()];
  if (input.remember) setCookies.push(await rememberDevice(user.id));
  return setCookies;
}

async function codeAttempt(user: AdminUser, code: string): Promise<LoginAttempt<true>> {
  return (await checkSecondFactor(user.id, code))
    ? { ok: true, value: true }
    : { ok: false, reason: "invalid_code", admin: { id: user.id, username: user.username } };
}

/**
 * POST /api/admin/login: the password, then, for an account with the second factor, `code` (a
 * current code or a recovery code), in one attempt under the sign-in limits. A right password
 * without `code` is not a failure: it is refused with `code_required`.
 */
export async function verifyAdminApiLogin(input: ApiLoginInput, address: string): Promise<AdminUser> {
  const result = await throttledLoginAttempt(
    input.username,
    address,
    async (): Promise<LoginAttempt<{ user: AdminUser; codeRequired: boolean }>> => {
      const password = await checkAdminPassword(input);
      if (!password.ok) return password;
      const user = password.value;
      if (!(await hasTotp(user.id))) return { ok: true, value: { user, codeRequired: false } };
      if (input.code === undefined) return { ok: true, value: { user, codeRequired: true } };
      const code = await codeAttempt(user, input.code);
      return code.ok ? { ok: true, value: { user, codeRequired: false } } : code;
    },
  );
  if (result.codeRequired) throw new AdminLoginError("code_required");
  return result.user;
}

/**
 * A signed-in administrator proves it is them before turning the factor off or getting new
 * recovery codes: a current code (or recovery code), or, where allowed, the password. Same
 * limits as signing in. Throws AdminLoginError ("invalid_code" or "invalid").
 */
export async function verifyAdminProof(
  user: { id: number; username: string },
  address: string,
  proof: { code: string } | { password: string },
): Promise<void> {
  await throttledLoginAttempt(user.username, address, async (): Promise<LoginAttempt<true>> => {
    if ("code" in proof) {
      return (await checkSecondFactor(user.id, proof.code))
        ? { ok: true, value: true }
        : { ok: false, reason: "invalid_code", admin: user };
    }
    const [row] = await getDb().select({ hash: users.passwordHash }).from(users).where(eq(users.id, user.id)).limit(1);
    return row?.hash && (await verifyPassword(proof.password, row.hash))
      ? { ok: true, value: true }
      : { ok: false, reason: "invalid", admin: user };
  });
}
