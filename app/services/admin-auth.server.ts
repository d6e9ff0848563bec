import { createCookieSessionStorage, type SessionStorage } from "@remix-run/node";
import { and, eq } from "drizzle-orm";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { type AppConfig, DEMO_ADMIN_PASSWORD, getConfig } from "~/config.server";
import { getDb } from "~/db/client.server";
import { users } from "~/db/schema";
import { safeRedirect } from "~/lib/safe-redirect";
import { loginSchema, type LoginInput } from "~/schemas/login";
import { verifyPassword } from "~/lib/passwords.server";
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
const SESSION_MAX_AGE = 60 * 60 * 12; // 12 hours

// ---------------------------------------------------------------------------
// Session: a signed cookie holding only the user id.

let storage: SessionStorage | undefined;

function adminSessionStorage(): SessionStorage {
  if (!storage) {
    const config = getConfig();
    storage = createCookieSessionStorage({
      cookie: {
        name: "__admin",
        httpOnly: true,
        sameSite: "lax",
        path: "/",
        secure: config.mode === "live",
        secrets: config.sessionSecrets,
        maxAge: SESSION_MAX_AGE,
      },
    });
  }
  return storage;
}

async function readSessionUserId(request: Request): Promise<number | null> {
  const session = await adminSessionStorage().getSession(request.headers.get("Cookie"));
  const id = session.get("userId");
  return typeof id === "number" && Number.isInteger(id) && id > 0 ? id : null;
}

/** The signed-in administrator, checked against the database on every request, or null. */
export async function getAdminUser(request: Request): Promise<AdminUser | null> {
  const id = await readSessionUserId(request);
  if (id === null) return null;
  const row = getDb()
    .select(ADMIN_COLUMNS)
    .from(users)
    .where(and(eq(users.id, id), eq(users.isAdmin, true)))
    .get();
  return row ?? null;
}

/** True when the request carries a signed admin session cookie, even one of a user who is no longer an administrator. */
export async function hasAdminSessionCookie(request: Request): Promise<boolean> {
  return (await readSessionUserId(request)) !== null;
}

/** Set-Cookie value opening an admin session for this user. */
export async function createAdminSession(user: AdminUser): Promise<string> {
  const sessionStorage = adminSessionStorage();
  const session = await sessionStorage.getSession();
  session.set("userId", user.id);
  return sessionStorage.commitSession(session);
}

/** Set-Cookie value ending the admin session. */
export async function destroyAdminSession(request: Request): Promise<string> {
  const sessionStorage = adminSessionStorage();
  const session = await sessionStorage.getSession(request.headers.get("Cookie"));
  return sessionStorage.destroySession(session);
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
