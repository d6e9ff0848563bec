import { asResponses } from "../helpers/route-response";
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { adminSessions, users } from "~/db/schema";
import { hashPasswordSync } from "~/lib/passwords.server";
import { describeUserAgent } from "~/lib/user-agent";
import { loader as dashboardLoaderRoute } from "~/routes/admin.dashboard";
import { action as sessionsActionRoute, loader as sessionsLoaderRoute } from "~/routes/admin.sessions";
import { action as usersListActionRoute } from "~/routes/admin.users._index";
import { action as editActionRoute } from "~/routes/admin.users.edit.$id";
import { action as loginActionRoute } from "~/routes/admin_.login";
import { action as logoutActionRoute } from "~/routes/admin_.logout";
import { action as apiLogin } from "~/routes/api.admin.login";
import { action as apiLogout } from "~/routes/api.admin.logout";
import { loader as sessionLoader } from "~/routes/api.admin.session";
import { loader as apiSessions } from "~/routes/api.admin.sessions";
import { action as apiRevoke } from "~/routes/api.admin.sessions.$id";
import { loader as apiUsers } from "~/routes/api.users";
import { resetLoginRateLimit } from "~/services/admin-auth.server";
import { ADMIN_SESSION_TTL_MS, type AdminSessionView } from "~/services/admin-sessions.server";
import { formRequest, getRequest, jsonRequest, fromAddress, routeArgs, thrown } from "../helpers/requests";
import { cookieFrom } from "./admin-helpers";

const dashboardLoader = asResponses(dashboardLoaderRoute);
const sessionsAction = asResponses(sessionsActionRoute);
const sessionsLoader = asResponses(sessionsLoaderRoute);
const usersListAction = asResponses(usersListActionRoute);
const editAction = asResponses(editActionRoute);
const loginAction = asResponses(loginActionRoute);
const logoutAction = asResponses(logoutActionRoute);

/**
 * Admin sessions are rows of admin_sessions: every sign-in opens a new one, and signing out,
 * a password change, a demotion, expiry or a revocation from the sessions page ends them.
 */

const CHROME_LINUX = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";
const FIREFOX_WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0";

let counter = 0;
beforeEach(async () => await resetLoginRateLimit());

/** A fresh administrator of this test (so that changing their password or rights touches no other test). */
async function newAdmin(password = "motdepasse-session-1") {
  const username = `gerant${++counter}`;
  const id = (
    await getDb()
      .insert(users)
      .values({ username, email: `${username}@example.fr`, passwordHash: hashPasswordSync(password), isAdmin: true })
      .returning({ id: users.id })
  )[0].id;
  return { id, username, password, email: `${username}@example.fr` };
}

/** Signs in through the login page and returns the Cookie header of the new session. */
async function signIn(user: { username: string; password: string }, userAgent = CHROME_LINUX) {
  const response = await loginAction(
    routeArgs(
      formRequest("/admin/login", { username: user.username, password: user.password }, { headers: { "User-Agent": userAgent } }),
      {},
      fromAddress(`203.0.113.${++counter % 250}`),
    ),
  );
  expect(response.status).toBe(302);
  return cookieFrom(response, "__admin")!;
}

/** The session API's status for this cookie: 200 while the session lives, 401 after. */
const apiStatus = async (cookie: string) =>
  (await sessionLoader(routeArgs(getRequest("/api/admin/session", { Cookie: cookie })))).status;

/** The dashboard with this cookie: 200, or the redirect to the login page (which clears the cookie). */
async function pageOutcome(cookie: string): Promise<string> {
  try {
    const response = await dashboardLoader(routeArgs(getRequest("/admin/dashboard", { Cookie: cookie })));
    return String(response.status);
  } catch (error) {
    if (!(error instanceof Response)) throw error;
    expect(error.headers.getSetCookie().some((c) => c.startsWith("__admin=;"))).toBe(true);
    return `${error.status} ${error.headers.get("Location")}`;
  }
}

const sessionRows = async (userId: number) => await getDb().select().from(adminSessions).where(eq(adminSessions.userId, userId));

async function listed(cookie: string): Promise<AdminSessionView[]> {
  const response = await apiSessions(routeArgs(getRequest("/api/admin/sessions", { Cookie: cookie })));
  expect(response.status).toBe(200);
  return response.json();
}

const editForm = (user: { username: string; email: string }, extra: Record<string, string>) => ({
  username: user.username,
  email: user.email,
  firstName: "",
  lastName: "",
  address: "",
  city: "",
  postalCode: "",
  country: "",
  phone: "",
  ...extra,
});

async function edit(actorCookie: string, user: { id: number; username: string; email: string }, extra: Record<string, string>) {
  const response = await editAction(
    routeArgs(formRequest(`/admin/users/edit/${user.id}`, editForm(user, extra), { headers: { Cookie: actorCookie } }), {
      id: String(user.id),
    }),
  );
  expect(response.status).toBe(302);
  return response;
}

describe("signing in", () => {
  it("gives a new random cookie at each sign-in, and each one works", async () => {
    const user = await newAdmin();
    const first = await signIn(user);
    const second = await signIn(user);
    expect(first).not.toBe(second);
    expect(await apiStatus(first)).toBe(200);
    expect(await apiStatus(second)).toBe(200);
    expect(await pageOutcome(first)).toBe("200");
    expect(await sessionRows(user.id)).toHaveLength(2);
  });

  it("keeps only a hash of the token: the cookie value is not in the database, and holds no user id", async () => {
    const user = await newAdmin();
    const cookie = await signIn(user);
    const [row] = await sessionRows(user.id);
    const value = decodeURIComponent(cookie.slice("__admin=".length));
    const token = JSON.parse(Buffer.from(value.split(".")[0], "base64").toString()) as string;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(JSON.stringify(row)).not.toContain(token);
    expect(row.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row).toMatchObject({ userAgent: CHROME_LINUX, address: expect.stringMatching(/^203\.0\.113\./) });
    expect(Date.parse(row.expiresAt) - Date.parse(row.createdAt)).toBe(ADMIN_SESSION_TTL_MS);
  });

  it("refuses a forged or tampered cookie", async () => {
    const user = await newAdmin();
    const cookie = await signIn(user);
    expect(await apiStatus("__admin=eyJ1c2VySWQiOjF9.Zm9yZ2Vk")).toBe(401);
    expect(await apiStatus(`${cookie.slice(0, -3)}abc`)).toBe(401);
  });

  it("signing in again from the same browser replaces its previous session", async () => {
    const user = await newAdmin();
    const before = await signIn(user);
    const response = await loginAction(
      routeArgs(
        formRequest("/admin/login", { username: user.username, password: user.password }, { headers: { Cookie: before } }),
        {},
        fromAddress("198.51.100.202"),
      ),
    );
    const after = cookieFrom(response, "__admin")!;
    expect(await apiStatus(before)).toBe(401);
    expect(await apiStatus(after)).toBe(200);
    expect(await sessionRows(user.id)).toHaveLength(1);
  });

  it("the JSON login opens a session of its own too", async () => {
    const user = await newAdmin();
    const response = await apiLogin(
      routeArgs(
        jsonRequest("/api/admin/login", "POST", { username: user.username, password: user.password }),
        {},
        fromAddress("198.51.100.201"),
      ),
    );
    expect(response.status).toBe(200);
    expect(await apiStatus(cookieFrom(response, "__admin")!)).toBe(200);
  });
});

describe("signing out", () => {
  it("the sign-out page deletes the session: the same cookie then gets 401 from the API and the login page from admin pages", async () => {
    const user = await newAdmin();
    const cookie = await signIn(user);
    const other = await signIn(user);
    const out = await logoutAction(routeArgs(formRequest("/admin/logout", {}, { headers: { Cookie: cookie } })));
    expect(out.headers.get("Location")).toBe("/admin/login");
    expect(await apiStatus(cookie)).toBe(401);
    expect((await apiUsers(routeArgs(getRequest("/api/users", { Cookie: cookie })))).status).toBe(401);
    expect(await pageOutcome(cookie)).toBe("302 /admin/login");
    // Only that session: the other one is still signed in.
    expect(await apiStatus(other)).toBe(200);
  });

  it("POST /api/admin/logout deletes the session too", async () => {
    const user = await newAdmin();
    const cookie = await signIn(user);
    const out = await apiLogout(routeArgs(jsonRequest("/api/admin/logout", "POST", undefined, { Cookie: cookie })));
    expect(out.status).toBe(200);
    expect(await sessionRows(user.id)).toHaveLength(0);
    expect(await apiStatus(cookie)).toBe(401);
    expect(await pageOutcome(cookie)).toBe("302 /admin/login");
  });
});

describe("password and rights changes", () => {
  it("a password set by another administrator closes all the user's sessions", async () => {
    const boss = await newAdmin();
    const user = await newAdmin();
    const bossCookie = await signIn(boss);
    const cookies = [await signIn(user), await signIn(user, FIREFOX_WINDOWS)];
    await edit(bossCookie, user, { password: "nouveau-motdepasse-1", isAdmin: "on" });
    for (const cookie of cookies) expect(await apiStatus(cookie)).toBe(401);
    expect(await sessionRows(user.id)).toHaveLength(0);
    expect(await apiStatus(bossCookie)).toBe(200);
  });

  it("an edit without a new password closes nothing", async () => {
    const boss = await newAdmin();
    const user = await newAdmin();
    const bossCookie = await signIn(boss);
    const cookie = await signIn(user);
    await edit(bossCookie, user, { city: "Lyon", isAdmin: "on" });
    expect(await apiStatus(cookie)).toBe(200);
  });

  it("changing one's own password keeps the current session and closes the others", async () => {
    const me = await newAdmin();
    const current = await signIn(me);
    const elsewhere = await signIn(me, FIREFOX_WINDOWS);
    const response = await edit(current, me, { password: "mon-nouveau-motdepasse", isAdmin: "on" });
    expect(response.headers.get("Location")).toBe("/admin/users");
    expect(await apiStatus(current)).toBe(200);
    expect(await pageOutcome(current)).toBe("200");
    expect(await apiStatus(elsewhere)).toBe(401);
    expect(await sessionRows(me.id)).toHaveLength(1);
  });

  it("after a demotion and a new promotion, the old cookie stays refused", async () => {
    const boss = await newAdmin();
    const user = await newAdmin();
    const bossCookie = await signIn(boss);
    const cookie = await signIn(user);
    await edit(bossCookie, user, {});
    expect((await getDb().select({ isAdmin: users.isAdmin }).from(users).where(eq(users.id, user.id)).limit(1))[0]!.isAdmin).toBe(
      false,
    );
    expect(await sessionRows(user.id)).toHaveLength(0);
    await edit(bossCookie, user, { isAdmin: "on" });
    expect(await apiStatus(cookie)).toBe(401);
    expect(await pageOutcome(cookie)).toBe("302 /admin/login");
    // Signing in again works.
    expect(await apiStatus(await signIn(user))).toBe(200);
  });

  it("deleting a user deletes their sessions", async () => {
    const boss = await newAdmin();
    const user = await newAdmin();
    const bossCookie = await signIn(boss);
    const cookie = await signIn(user);
    const response = await usersListAction(
      routeArgs(
        formRequest("/admin/users?index", { intent: "delete", id: String(user.id) }, { headers: { Cookie: bossCookie } }),
      ),
    );
    expect(response.status).toBe(302);
    expect(await sessionRows(user.id)).toHaveLength(0);
    expect(await apiStatus(cookie)).toBe(401);
  });
});

describe("expiry", () => {
  it("an expired session gets 401 and is deleted; its cookie gets the login page", async () => {
    const user = await newAdmin();
    const cookie = await signIn(user);
    const pageCookie = await signIn(user);
    await getDb()
      .update(adminSessions)
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where(eq(adminSessions.userId, user.id));
    expect(await apiStatus(cookie)).toBe(401);
    expect(await sessionRows(user.id)).toHaveLength(1);
    expect(await pageOutcome(pageCookie)).toBe("302 /admin/login");
    expect(await sessionRows(user.id)).toHaveLength(0);
  });

  it("signing in purges the user's expired sessions", async () => {
    const user = await newAdmin();
    await signIn(user);
    await signIn(user);
    await getDb()
      .update(adminSessions)
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where(eq(adminSessions.userId, user.id));
    await signIn(user);
    expect(await sessionRows(user.id)).toHaveLength(1);
  });

  it("writes last_seen_at at most once a minute", async () => {
    const user = await newAdmin();
    const cookie = await signIn(user);
    const set = async (ms: number) => {
      await getDb()
        .update(adminSessions)
        .set({ lastSeenAt: new Date(Date.now() - ms).toISOString() })
        .where(eq(adminSessions.userId, user.id));
    };
    const seen = async () => (await sessionRows(user.id))[0].lastSeenAt;
    await set(30_000);
    const before = await seen();
    expect(await apiStatus(cookie)).toBe(200);
    expect(await seen()).toBe(before);
    await set(90_000);
    expect(await apiStatus(cookie)).toBe(200);
    expect(Date.now() - Date.parse(await seen())).toBeLessThan(5_000);
  });
});

describe("sessions page", () => {
  const post = (cookie: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
    sessionsAction(routeArgs(formRequest("/admin/sessions", fields, { headers: { Cookie: cookie, ...headers } })));

  it("lists the administrator's sessions, the current one marked, with device, dates and address", async () => {
    const me = await newAdmin();
    const someoneElse = await newAdmin();
    await signIn(someoneElse);
    const current = await signIn(me);
    await signIn(me, FIREFOX_WINDOWS);
    const response = await sessionsLoader(routeArgs(getRequest("/admin/sessions", { Cookie: current })));
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    const { sessions } = (await response.json()) as { sessions: AdminSessionView[] };
    expect(sessions).toHaveLength(2);
    // The current session first, although the other one is more recent.
    expect(sessions.map((s) => [s.current, s.device])).toEqual([
      [true, "Chrome sur Linux"],
      [false, "Firefox sur Windows"],
    ]);
    for (const s of sessions) {
      expect(s.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(s.address).toMatch(/^203\.0\.113\./);
      expect(Date.parse(s.expiresAt) - Date.parse(s.createdAt)).toBe(ADMIN_SESSION_TTL_MS);
      expect(JSON.stringify(s)).not.toMatch(/token|hash/i);
    }
  });

  it("'Révoquer' ends that session: its cookie then gets 401 and the login page", async () => {
    const me = await newAdmin();
    const current = await signIn(me);
    const other = await signIn(me, FIREFOX_WINDOWS);
    const target = (await listed(current)).find((s) => !s.current)!;
    const response = await post(current, { intent: "revoke", id: target.id });
    expect(response.headers.get("Location")).toBe("/admin/sessions");
    expect(cookieFrom(response, "toast-session")).not.toBeNull();
    expect(await apiStatus(other)).toBe(401);
    expect(await pageOutcome(other)).toBe("302 /admin/login");
    expect(await apiStatus(current)).toBe(200);
  });

  it("'Révoquer les autres sessions' keeps the current one only", async () => {
    const me = await newAdmin();
    const someoneElse = await newAdmin();
    const theirs = await signIn(someoneElse);
    const others = [await signIn(me, FIREFOX_WINDOWS), await signIn(me)];
    const current = await signIn(me);
    const response = await post(current, { intent: "revoke-others" });
    expect(response.headers.get("Location")).toBe("/admin/sessions");
    for (const cookie of others) expect(await apiStatus(cookie)).toBe(401);
    expect(await apiStatus(current)).toBe(200);
    expect((await listed(current)).map((s) => s.current)).toEqual([true]);
    // Another administrator's sessions are not touched.
    expect(await apiStatus(theirs)).toBe(200);
  });

  it("cannot revoke another administrator's session, and refuses a form from another site", async () => {
    const me = await newAdmin();
    const someoneElse = await newAdmin();
    const theirs = await signIn(someoneElse);
    const theirId = (await listed(theirs))[0].id;
    const current = await signIn(me);
    const response = await post(current, { intent: "revoke", id: theirId });
    expect(response.headers.get("Location")).toBe("/admin/sessions");
    expect(await apiStatus(theirs)).toBe(200);
    const other = await signIn(me);
    const target = (await listed(current)).find((s) => !s.current)!;
    const refused = await thrown(post(current, { intent: "revoke", id: target.id }, { Origin: "https://evil.example" }));
    expect(refused.status).toBe(403);
    expect(await apiStatus(other)).toBe(200);
  });

  it("revoking the current session signs out", async () => {
    const me = await newAdmin();
    const current = await signIn(me);
    const mine = (await listed(current))[0];
    const response = await post(current, { intent: "revoke", id: mine.id });
    expect(response.headers.get("Location")).toBe("/admin/login");
    expect(response.headers.getSetCookie().some((c) => c.startsWith("__admin=;"))).toBe(true);
    expect(await apiStatus(current)).toBe(401);
  });

  it("without a session, the page sends to the login page", async () => {
    const response = await thrown(sessionsLoader(routeArgs(getRequest("/admin/sessions"))));
    expect(response.headers.get("Location")).toBe("/admin/login?redirectTo=%2Fadmin%2Fsessions");
  });
});

describe("sessions API", () => {
  const del = (cookie: string, id: string) =>
    apiRevoke(routeArgs(jsonRequest(`/api/admin/sessions/${id}`, "DELETE", undefined, { Cookie: cookie }), { id }));

  it("DELETE /api/admin/sessions/{id} revokes one's own session; another's is a 404, a bad id a 400", async () => {
    const me = await newAdmin();
    const someoneElse = await newAdmin();
    const theirs = await signIn(someoneElse);
    const current = await signIn(me);
    const other = await signIn(me, FIREFOX_WINDOWS);
    const target = (await listed(current)).find((s) => !s.current)!;
    const response = await del(current, target.id);
    expect(response.status).toBe(204);
    expect(response.headers.get("Set-Cookie")).toBeNull();
    expect(await apiStatus(other)).toBe(401);
    expect((await del(current, target.id)).status).toBe(404);
    expect((await del(current, (await listed(theirs))[0].id)).status).toBe(404);
    expect(await apiStatus(theirs)).toBe(200);
    expect((await del(current, "pas-un-id")).status).toBe(400);
    expect(await apiStatus(current)).toBe(200);
  });

  it("DELETE of the current session clears the cookie", async () => {
    const me = await newAdmin();
    const current = await signIn(me);
    const response = await del(current, (await listed(current))[0].id);
    expect(response.status).toBe(204);
    expect(response.headers.get("Set-Cookie")).toMatch(/^__admin=;/);
    expect(await apiStatus(current)).toBe(401);
  });

  it("answers 401 without a session", async () => {
    expect((await apiSessions(routeArgs(getRequest("/api/admin/sessions")))).status).toBe(401);
  });
});

describe("describeUserAgent", () => {
  it("summarises common browsers and systems, and shortens what it does not know", () => {
    expect(describeUserAgent(CHROME_LINUX)).toBe("Chrome sur Linux");
    expect(describeUserAgent(FIREFOX_WINDOWS)).toBe("Firefox sur Windows");
    expect(
      describeUserAgent(
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
      ),
    ).toBe("Safari sur iPhone");
    expect(
      describeUserAgent(
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0",
      ),
    ).toBe("Edge sur macOS");
    expect(
      describeUserAgent(
        "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36",
      ),
    ).toBe("Chrome sur Android");
    expect(describeUserAgent("curl/8.5.0")).toBe("curl/8.5.0");
    expect(describeUserAgent(`robot/${"x".repeat(100)}`)).toHaveLength(60);
    expect(describeUserAgent(null)).toBe("Navigateur inconnu");
  });
});
