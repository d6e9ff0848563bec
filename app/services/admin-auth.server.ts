import { createCookie, type Cookie } from "@remix-run/node";
import { and, eq } from "drizzle-orm";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { type AppConfig, DEMO_ADMIN_PASSWORD, getConfig } from "~/config.server";
import { getDb } from "~/db/client.server";
import { users } from "~/db/schema";
import { safeRedirect } from "~/lib/safe-redirect";
import { loginSchema, type LoginInput } from "~/schemas/login";
import { verifyPassword } from "~/lib/passwords.server";
import { ADMIN_SESSION_TTL_MS, deleteAdminSessionByToken, findAdminSession, openAdminSession } from "./admin-sessions.server";
import { createRateLimiter, waitInMinutes } from "./rate-limit.server";

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
  const session = findAdminSession(token);
  if (!session) return null;
  const row = getDb()
    .select(ADMIN_COLUMNS)
    .from(users)
    .where(and(eq(users.id, session.userId), eq(users.isAdmin, true)))
    .get();
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
export async function createAdminSession(user: Pick<AdminUser, "id">, request: Request): Promise<string> {
  const previous = await readSessionToken(request);
  if (previous !== null) deleteAdminSessionByToken(previous);
  const address = clientAddress(request);
  const { token } = openAdminSession(user.id, { userAgent: request.headers.get("User-Agent"), address: address === "unknown" ? null : address });
  return adminCookie().serialize(token);
}

/** Ends the request's admin session in the database and returns the Set-Cookie value that clears the cookie. */
export async function destroyAdminSession(request: Request): Promise<string> {
  const token = await readSessionToken(request);
  if (token !== null) deleteAdminSessionByToken(token);
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
 * Rate limit: failed sign-ins are counted per client address and per username over a
 * sliding 15-minute window (in memory: a restart only gives an attacker a fresh window).
 */
const LOGIN_WINDOW_MS = 15 * 60 * 1000;
/** Failures allowed per username in the window; the next attempt is refused (429). */
const loginFailuresByUsername = createRateLimiter({ windowMs: LOGIN_WINDOW_MS, max: 5 });
/** Failures allowed per client address (higher: several people may share one address). */
const loginFailuresByAddress = createRateLimiter({ windowMs: LOGIN_WINDOW_MS, max: 20 });

const usernameKey = (username: string) => username.trim().toLowerCase();

/** Seconds before this address and username may try again; 0 when they may now. */
function loginRetryAfterSeconds(address: string, username: string): number {
  return Math.max(loginFailuresByAddress.retryAfterSeconds(address), loginFailuresByUsername.retryAfterSeconds(usernameKey(username)));
}

function tooManyAttemptsMessage(retryAfterSeconds: number) {
  return `Trop de tentatives de connexion. Réessayez dans ${waitInMinutes(retryAfterSeconds)}.`;
}

/** For tests. */
export function resetLoginRateLimit() {
  loginFailuresByAddress.clear();
  loginFailuresByUsername.clear();
}

export class AdminLoginError extends Error {
  constructor(
    readonly reason: "invalid" | "blocked",
    readonly retryAfterSeconds = 0,
  ) {
    super(reason === "blocked" ? tooManyAttemptsMessage(retryAfterSeconds) : "Identifiants invalides");
    this.name = "AdminLoginError";
  }
}

// A well-formed hash of nothing in particular: unknown usernames cost as much time as known ones.
const DUMMY_HASH = `scrypt$32768$8$1$${Buffer.alloc(16, 7).toString("base64")}$${Buffer.alloc(64, 9).toString("base64")}`;

/** The client's address: first hop of X-Forwarded-For, else X-Real-IP, else one shared bucket. */
export function clientAddress(request: Request): string {
  const forwarded = request.headers.get("X-Forwarded-For")?.split(",")[0]?.trim();
  const real = request.headers.get("X-Real-IP")?.trim();
  return (forwarded || real || "unknown").slice(0, 100);
}

/**
 * Checks credentials with the rate limit. Same answer whether the user does not exist,
 * the password is wrong or the user is not an administrator.
 */
export async function verifyAdminLogin(input: LoginInput, address: string): Promise<AdminUser> {
  const retryAfterSeconds = loginRetryAfterSeconds(address, input.username);
  if (retryAfterSeconds > 0) throw new AdminLoginError("blocked", retryAfterSeconds);
  const row = getDb()
    .select({ ...ADMIN_COLUMNS, isAdmin: users.isAdmin, passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.username, input.username))
    .get();
  const passwordOk = await verifyPassword(input.password, row?.passwordHash ?? DUMMY_HASH);
  if (!row || !passwordOk || !row.isAdmin) {
    loginFailuresByAddress.hit(address);
    loginFailuresByUsername.hit(usernameKey(input.username));
    throw new AdminLoginError("invalid");
  }
  // A successful sign-in clears the username's failures (the address keeps its count).
  loginFailuresByUsername.reset(usernameKey(input.username));
  return { id: row.id, username: row.username, email: row.email, firstName: row.firstName, lastName: row.lastName };
}

export const authenticator = new Authenticator<AdminUser>();

authenticator.use(
  new FormStrategy(async ({ form, request }) => {
    const parsed = loginSchema.safeParse({ username: form.get("username"), password: form.get("password") });
    if (!parsed.success) throw new AdminLoginError("invalid");
    return verifyAdminLogin(parsed.data, clientAddress(request));
  }),
  "admin-form",
);

/** The default-credentials hint: demo mode only, and only while the password is the documented demo one. */
export function demoCredentialsHint() {
  return credentialsHintFor(getConfig());
}

export function credentialsHintFor(config: AppConfig): { username: string; password: string } | null {
  if (config.mode !== "demo" || config.adminPassword !== DEMO_ADMIN_PASSWORD) return null;
  return { username: config.adminUsername, password: DEMO_ADMIN_PASSWORD };
}
