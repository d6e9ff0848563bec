import { AsyncLocalStorage } from "node:async_hooks";
import { createCookieSessionStorage, type SessionStorage } from "@remix-run/node";
import { and, eq } from "drizzle-orm";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { type AppConfig, DEMO_ADMIN_PASSWORD, getConfig } from "~/config.server";
import { getDb } from "~/db/client.server";
import { users } from "~/db/schema";
import { safeRedirect } from "~/lib/safe-redirect";
import { loginSchema, type LoginInput } from "~/schemas/login";
import { HashingBusyError, verifyPassword } from "~/lib/passwords.server";
import { loginDelayByUsername, loginFailuresByAddress } from "./limits.server";
import { formatWait } from "./rate-limit.server";

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
 * Throttling (numbers in limits.server.ts): failed sign-ins are counted per client address
 * (a hard limit) and per username (a growing delay of a minute at most, never a lock, so
 * that nobody can lock the real administrator out by failing on purpose). Attempts refused
 * by either are not failures.
 */
const usernameKey = (username: string) => username.trim().toLowerCase();

/** Seconds before this address and username may try again; 0 when they may now. */
function loginRetryAfterSeconds(address: string, username: string): number {
  return Math.max(loginFailuresByAddress.retryAfterSeconds(address), loginDelayByUsername.retryAfterSeconds(usernameKey(username)));
}

/** For tests. */
export function resetLoginRateLimit() {
  loginFailuresByAddress.clear();
  loginDelayByUsername.clear();
}

const BUSY_RETRY_SECONDS = 5;

export class AdminLoginError extends Error {
  /** 401 invalid credentials, 429 throttled, 503 too many sign-ins being checked at once. */
  readonly status: 401 | 429 | 503;

  constructor(
    readonly reason: "invalid" | "blocked" | "busy",
    readonly retryAfterSeconds = 0,
  ) {
    super(
      reason === "blocked"
        ? `Trop de tentatives de connexion. Réessayez dans ${formatWait(retryAfterSeconds)}.`
        : reason === "busy"
          ? "Trop de connexions en cours. Réessayez dans quelques secondes."
          : "Identifiants invalides",
    );
    this.name = "AdminLoginError";
    this.status = reason === "invalid" ? 401 : reason === "blocked" ? 429 : 503;
  }
}

// A well-formed hash of nothing in particular: unknown usernames cost as much time as known ones.
const DUMMY_HASH = `scrypt$32768$8$1$${Buffer.alloc(16, 7).toString("base64")}$${Buffer.alloc(64, 9).toString("base64")}`;

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
  let passwordOk: boolean;
  try {
    passwordOk = await verifyPassword(input.password, row?.passwordHash ?? DUMMY_HASH);
  } catch (error) {
    if (error instanceof HashingBusyError) throw new AdminLoginError("busy", BUSY_RETRY_SECONDS);
    throw error;
  }
  if (!row || !passwordOk || !row.isAdmin) {
    loginFailuresByAddress.hit(address);
    loginDelayByUsername.hit(usernameKey(input.username));
    throw new AdminLoginError("invalid");
  }
  // A successful sign-in clears the username's failures (the address keeps its count).
  loginDelayByUsername.reset(usernameKey(input.username));
  return { id: row.id, username: row.username, email: row.email, firstName: row.firstName, lastName: row.lastName };
}

export const authenticator = new Authenticator<AdminUser>();

/** The client address of the sign-in being checked: remix-auth hands the strategy a copy of the request only. */
const signInAddress = new AsyncLocalStorage<string>();

authenticator.use(
  new FormStrategy(async ({ form }) => {
    const parsed = loginSchema.safeParse({ username: form.get("username"), password: form.get("password") });
    if (!parsed.success) throw new AdminLoginError("invalid");
    const address = signInAddress.getStore();
    if (address === undefined) throw new Error("admin-form strategy used outside signInWithForm()");
    return verifyAdminLogin(parsed.data, address);
  }),
  "admin-form",
);

/** The login form's sign-in (remix-auth's form strategy), for a client address; throws AdminLoginError. */
export function signInWithForm(request: Request, address: string): Promise<AdminUser> {
  return signInAddress.run(address, () => authenticator.authenticate("admin-form", request));
}

/** The default-credentials hint: demo mode only, and only while the password is the documented demo one. */
export function demoCredentialsHint() {
  return credentialsHintFor(getConfig());
}

export function credentialsHintFor(config: AppConfig): { username: string; password: string } | null {
  if (config.mode !== "demo" || config.adminPassword !== DEMO_ADMIN_PASSWORD) return null;
  return { username: config.adminUsername, password: DEMO_ADMIN_PASSWORD };
}
