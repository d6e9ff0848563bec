import { randomUUID } from "node:crypto";
import { createCookie, type Cookie } from "@remix-run/node";
import { and, eq } from "drizzle-orm";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { type AppConfig, DEMO_ADMIN_PASSWORD, getConfig } from "~/config.server";
import { getDb } from "~/db/client.server";
import { users } from "~/db/schema";
import { safeRedirect } from "~/lib/safe-redirect";
import { loginSchema, type LoginInput } from "~/schemas/login";
import { HashingBusyError, verifyPassword } from "~/lib/passwords.server";
import { ADMIN_SESSION_TTL_MS, deleteAdminSessionByToken, findAdminSession, openAdminSession } from "./admin-sessions.server";
import { queueAdminLoginAttackEmail } from "./email/notifications.server";
import { LIMITS, loginDelayByUsernameAndAddress, loginFailuresByAddress, loginFailuresByUsername } from "./limits.server";
import { formatWait } from "./rate-limit.server";
import { countRateLimitRefusal } from "~/services/observability/metrics.server";

/** What the rest of the app knows about the signed-in administrator: never the password hash. */
export type AdminUser = {
  id: number;
  username: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
};

const ADMIN_COLUMNS = {
  id: users.id,
  username: users.username,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
};

export const LOGIN_PATH = "/admin/login";
export const DEFAULT_ADMIN_PATH = "/admin/dashboard";

/** The signed-in administrator and the public id of the session they are using. */
export type SignedInAdmin = AdminUser & { sessionId: string };

// ---------------------------------------------------------------------------
// Session: a signed cookie holding only the session's secret token; the session itself
// (its user, expiry, device) lives in the database (admin-sessions.server.ts).

let cookie: Cookie | undefined;

function adminCookie(): Cookie {
  if (!cookie) {
    const config = getConfig();
    cookie = createCookie("__admin", {
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      secure: config.mode === "live",
      secrets: config.sessionSecrets,
      maxAge: ADMIN_SESSION_TTL_MS / 1000,
    });
  }
  return cookie;
}

/** The token of a correctly signed `__admin` cookie, or null. */
async function readSessionToken(request: Request): Promise<string | null> {
  const value: unknown = await adminCookie().parse(request.headers.get("Cookie"));
  return typeof value === "string" && value !== "" ? value : null;
}

/**
 * The signed-in administrator, checked against the database on every request: the session
 * must exist and not be expired, and its user must still be an administrator. Else null.
 */
export async function getAdminUser(request: Request): Promise<SignedInAdmin | null> {
  const token = await readSessionToken(request);
  if (token === null) return null;
  const session = await findAdminSession(token);
  if (!session) return null;
  const [row] = await getDb()
    .select(ADMIN_COLUMNS)
    .from(users)
    .where(and(eq(users.id, session.userId), eq(users.isAdmin, true)))
    .limit(1);
  return row ? { ...row, sessionId: session.id } : null;
}

/** True when the request carries a signed admin session cookie, even one whose session has ended. */
export async function hasAdminSessionCookie(request: Request): Promise<boolean> {
  return (await readSessionToken(request)) !== null;
}

/**
 * Opens a new admin session for this user (a new random token each time) and returns its
 * Set-Cookie value. A session this browser held before is replaced, so it is deleted.
 */
export async function createAdminSession(user: Pick<AdminUser, "id">, request: Request, address: string): Promise<string> {
  const previous = await readSessionToken(request);
  if (previous !== null) await deleteAdminSessionByToken(previous);
  const { token } = await openAdminSession(user.id, {
    userAgent: request.headers.get("User-Agent"),
    address: address === "unknown" ? null : address,
  });
  return adminCookie().serialize(token);
}

/** Ends the request's admin session in the database and returns the Set-Cookie value that clears the cookie. */
export async function destroyAdminSession(request: Request): Promise<string> {
  const token = await readSessionToken(request);
  if (token !== null) await deleteAdminSessionByToken(token);
  return clearAdminCookie();
}

/** Set-Cookie value clearing the `__admin` cookie. */
export function clearAdminCookie(): Promise<string> {
  return adminCookie().serialize("", { maxAge: undefined, expires: new Date(0) });
}

// ---------------------------------------------------------------------------
// Redirects

/** Where to go after signing in: an admin page (never the login page itself), else the dashboard. */
export function adminRedirectTarget(to: FormDataEntryValue | string | null | undefined): string {
  const target = safeRedirect(to, DEFAULT_ADMIN_PATH);
  const path = target.split(/[?#]/)[0];
  if (path !== "/admin" && !path.startsWith("/admin/")) return DEFAULT_ADMIN_PATH;
  if (path.startsWith(LOGIN_PATH) || path.startsWith("/admin/logout")) return DEFAULT_ADMIN_PATH;
  return target;
}

// ---------------------------------------------------------------------------
// Sign-in

/**
 * Throttling (numbers in limits.server.ts):
 * - per client address, a hard limit on failures; each attempt is counted as a failure before
 *   its password is checked, in the same step as the check (`reserve`), and given back when it
 *   succeeds or is refused, so a burst of concurrent attempts gets no more than the limit;
 * - per username and address, a growing delay (a minute at most) for the address that failed,
 *   never for the others: nobody can keep the real administrator out by failing on purpose;
 * - per username, from any addresses, a count that only alerts the shop by email;
 * - per address, at most MAX_SIGN_INS_PER_ADDRESS sign-ins in this process at once, checked one
 *   after the other, so that one address cannot fill the password-hashing queue.
 * Attempts refused by any of these are not failures.
 */
const usernameKey = (username: string) => username.trim().toLowerCase();
const delayKey = (username: string, address: string) => `${usernameKey(username)}|${address}`;

/** For tests. */
export async function resetLoginRateLimit() {
  await loginFailuresByAddress.clear();
  await loginDelayByUsernameAndAddress.clear();
  await loginFailuresByUsername.clear();
}

const BUSY_RETRY_SECONDS = 5;
const CONCURRENT_RETRY_SECONDS = 2;

export type AdminLoginRefusal = "invalid" | "invalid_code" | "code_required" | "blocked" | "concurrent" | "busy";

export const INVALID_CODE_MESSAGE = "Code de vérification invalide";
export const CODE_REQUIRED_MESSAGE =
  "Code de vérification requis : ce compte est protégé par la double authentification (champ code).";

export class AdminLoginError extends Error {
  /** 401 invalid credentials or code (or a code needed), 429 throttled or already signing in from this address, 503 too many sign-ins being checked at once. */
  readonly status: 401 | 429 | 503;

  constructor(
    readonly reason: AdminLoginRefusal,
    readonly retryAfterSeconds = 0,
  ) {
    super(
      reason === "blocked"
        ? `Trop de tentatives de connexion. Réessayez dans ${formatWait(retryAfterSeconds)}.`
        : reason === "concurrent"
          ? `Une connexion depuis votre adresse est déjà en cours de vérification. Réessayez dans ${formatWait(retryAfterSeconds)}.`
          : reason === "busy"
            ? "Trop de connexions en cours. Réessayez dans quelques secondes."
            : reason === "invalid_code"
              ? INVALID_CODE_MESSAGE
              : reason === "code_required"
                ? CODE_REQUIRED_MESSAGE
                : "Identifiants invalides",
    );
    this.name = "AdminLoginError";
    this.status = reason === "blocked" || reason === "concurrent" ? 429 : reason === "busy" ? 503 : 401;
  }
}

/**
 * Sign-ins of one address in this process: one is checked at a time, one more waits for it (a
 * double click on « Se connecter », or two colleagues behind the office's one address), others
 * are refused at once.
 */
export const MAX_SIGN_INS_PER_ADDRESS = 2;
const signInsByAddress = new Map<string, { count: number; tail: Promise<void> }>();

async function oneAtATimePerAddress<T>(address: string, task: () => Promise<T>): Promise<T> {
  const entry = signInsByAddress.get(address) ?? { count: 0, tail: Promise.resolve() };
  if (entry.count >= MAX_SIGN_INS_PER_ADDRESS) throw new AdminLoginError("concurrent", CONCURRENT_RETRY_SECONDS);
  entry.count++;
  signInsByAddress.set(address, entry);
  const previous = entry.tail;
  let done = () => {};
  entry.tail = new Promise<void>((resolve) => (done = resolve));
  try {
    await previous;
    return await task();
  } finally {
    done();
    if (--entry.count === 0) signInsByAddress.delete(address);
  }
}

// A well-formed hash of nothing in particular: unknown usernames cost as much time as known ones.
const DUMMY_HASH = `scrypt$32768$8$1$${Buffer.alloc(16, 7).toString("base64")}$${Buffer.alloc(64, 9).toString("base64")}`;

/** One checked attempt: its result, or a failure (with the administrator it concerns, if any, for the alert). */
export type LoginAttempt<T> =
  { ok: true; value: T } | { ok: false; reason: "invalid" | "invalid_code"; admin: { id: number; username: string } | null };

/**
 * Runs one sign-in check (a password, a second-factor code, or both) under the sign-in limits of
 * this username and address: refused while the address or the username|address pair is
 * throttled; counted as a failure until it succeeds; a failure slows this address down for the
 * username and counts toward the shop's alert. A code is checked with the same rules as a
 * password, and only ever after the password was right.
 */
export async function throttledLoginAttempt<T>(
  username: string,
  address: string,
  attempt: () => Promise<LoginAttempt<T>>,
): Promise<T> {
  return await oneAtATimePerAddress(address, async () => {
    const now = Date.now();
    const delay = await loginDelayByUsernameAndAddress.retryAfterSeconds(delayKey(username, address), now);
    if (delay > 0) {
      countRateLimitRefusal(loginDelayByUsernameAndAddress.name);
      throw new AdminLoginError("blocked", delay);
    }
    // Counted as a failure from here on, unless it succeeds or is refused below.
    const reservation = await loginFailuresByAddress.reserve(address, now);
    if (!reservation.ok) throw new AdminLoginError("blocked", reservation.retryAfterSeconds);
    let outcome: LoginAttempt<T>;
    try {
      outcome = await attempt();
    } catch (error) {
      await reservation.refund();
      if (error instanceof HashingBusyError) throw new AdminLoginError("busy", BUSY_RETRY_SECONDS);
      throw error;
    }
    if (!outcome.ok) {
      const failedAt = Date.now();
      await loginDelayByUsernameAndAddress.hit(delayKey(username, address), failedAt);
      await alertIfUnderAttack(outcome.admin, username, address, failedAt);
      throw new AdminLoginError(outcome.reason);
    }
    // A success is not a failure, and clears this address's delay for the username (the
    // address keeps its other failures, the username its count for the alert).
    await reservation.refund();
    await loginDelayByUsernameAndAddress.reset(delayKey(username, address));
    return outcome.value;
  });
}

/**
 * Checks a username and password (no limits: run it inside throttledLoginAttempt). Same outcome
 * whether the user does not exist, the password is wrong or the user is not an administrator.
 */
export async function checkAdminPassword(input: LoginInput): Promise<LoginAttempt<AdminUser>> {
  const [row] = await getDb()
    .select({ ...ADMIN_COLUMNS, isAdmin: users.isAdmin, passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.username, input.username))
    .limit(1);
  const passwordOk = await verifyPassword(input.password, row?.passwordHash ?? DUMMY_HASH);
  if (!row || !passwordOk || !row.isAdmin) return { ok: false, reason: "invalid", admin: row?.isAdmin ? row : null };
  return {
    ok: true,
    value: { id: row.id, username: row.username, email: row.email, firstName: row.firstName, lastName: row.lastName },
  };
}

/** Checks credentials with the rate limits (the password step; the second factor, if any, comes next). */
export async function verifyAdminLogin(input: LoginInput, address: string): Promise<AdminUser> {
  return await throttledLoginAttempt(input.username, address, () => checkAdminPassword(input));
}

/** Counts a failure for the username, from any address; from the threshold on, emails the shop when it is an administrator's (once an hour at most). */
async function alertIfUnderAttack(
  admin: { id: number; username: string } | null,
  username: string,
  address: string,
  now: number,
) {
  const key = usernameKey(username);
  await loginFailuresByUsername.hit(key, now);
  if (!admin || !(await loginFailuresByUsername.isLimited(key, now))) return;
  const { max, windowMs } = LIMITS.loginAttackAlertPerUsername;
  const payload = {
    username: admin.username,
    failures: max,
    windowMinutes: windowMs / 60_000,
    lastAddress: address,
    lastAt: new Date(now).toISOString(),
  };
  await queueAdminLoginAttackEmail(getDb(), admin.id, payload, new Date(now));
}

export const authenticator = new Authenticator<AdminUser>();

/**
 * The client addresses of the sign-ins being checked, by a random id: remix-auth hands the
 * strategy a copy of the request only, so the id goes in one of its headers, set here (a value
 * the browser sent under that name is replaced), and the address stays on the server.
 */
const signInAddresses = new Map<string, string>();
const SIGN_IN_HEADER = "x-shop-sign-in";

authenticator.use(
  new FormStrategy(async ({ form, request }) => {
    const parsed = loginSchema.safeParse({ username: form.get("username"), password: form.get("password") });
    if (!parsed.success) throw new AdminLoginError("invalid");
    const address = signInAddresses.get(request.headers.get(SIGN_IN_HEADER) ?? "");
    if (address === undefined) throw new Error("admin-form strategy used outside signInWithForm()");
    return verifyAdminLogin(parsed.data, address);
  }),
  "admin-form",
);

/** The login form's sign-in (remix-auth's form strategy), for a client address; throws AdminLoginError. */
export async function signInWithForm(request: Request, address: string): Promise<AdminUser> {
  const id = randomUUID();
  signInAddresses.set(id, address);
  try {
    request.headers.set(SIGN_IN_HEADER, id);
    return await authenticator.authenticate("admin-form", request);
  } finally {
    signInAddresses.delete(id);
  }
}

/** The default-credentials hint: demo mode only, and only while the password is the documented demo one. */
export function demoCredentialsHint() {
  return credentialsHintFor(getConfig());
}

export function credentialsHintFor(config: AppConfig): { username: string; password: string } | null {
  if (config.mode !== "demo" || config.adminPassword !== DEMO_ADMIN_PASSWORD) return null;
  return { username: config.adminUsername, password: DEMO_ADMIN_PASSWORD };
}
