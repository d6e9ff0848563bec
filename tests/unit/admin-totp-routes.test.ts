import { generateTOTP } from "@epic-web/totp";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { getDb } from "~/db/client.server";
import { users } from "~/db/schema";
import { hashPasswordSync } from "~/lib/passwords.server";
import { loader as dashboardLoaderRoute } from "~/routes/admin.dashboard";
import { action as securityActionRoute, loader as securityLoaderRoute } from "~/routes/admin.securite";
import { action as loginActionRoute } from "~/routes/admin_.login";
import { action as verifyActionRoute, loader as verifyLoaderRoute } from "~/routes/admin_.login_.verification";
import { action as apiLogin } from "~/routes/api.admin.login";
import { resetLoginRateLimit } from "~/services/admin-auth.server";
import { getTotpStatus, hasTotp } from "~/services/admin-totp.server";
import { asResponses } from "../helpers/route-response";
import { formRequest, fromAddress, getRequest, jsonRequest, routeArgs, thrown } from "../helpers/requests";
import { adminCookie, cookieFrom } from "./admin-helpers";

/**
 * The second factor through the pages and the API, called with real requests: the code step
 * between the password and the session, the remembered browser, recovery codes, the sign-in
 * limits applied to codes, the JSON API's `code`, and the security page.
 */

const loginAction = asResponses(loginActionRoute);
const verifyAction = asResponses(verifyActionRoute);
const verifyLoader = asResponses(verifyLoaderRoute);
const securityAction = asResponses(securityActionRoute);
const securityLoader = asResponses(securityLoaderRoute);
const dashboardLoader = asResponses(dashboardLoaderRoute);

const PASSWORD = "motdepasse-totp-routes-1";
const STEP_MS = 30_000;
let ipCounter = 0;
let ip = "";
let clock = new Date("2026-03-05T10:00:05Z").getTime();

beforeEach(async () => {
  await resetLoginRateLimit();
  ip = `203.0.113.${++ipCounter}`;
  // Each test starts well after the previous one's codes: no code is ever reused by accident.
  clock += 100 * STEP_MS;
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(clock);
});

afterEach(() => {
  vi.useRealTimers();
});

async function codeAt(secret: string, ms = Date.now()): Promise<string> {
  const now = Date.now();
  vi.setSystemTime(ms);
  const { otp } = await generateTOTP({ secret, period: 30, digits: 6, algorithm: "SHA-1" });
  vi.setSystemTime(now);
  return otp;
}

async function wrongCode(secret: string): Promise<string> {
  const right: string[] = [];
  // One after the other: codeAt moves the clock and puts it back.
  for (const d of [-1, 0, 1]) right.push(await codeAt(secret, Date.now() + d * STEP_MS));
  for (let n = 0; ; n++) if (!right.includes(String(n).padStart(6, "0"))) return String(n).padStart(6, "0");
}

const cookieHeader = (...cookies: (string | null)[]) => cookies.filter(Boolean).join("; ");

/** An administrator who turned the factor on through the security page. */
async function enrolledAdmin() {
  const username = `totp-route-${ipCounter}-${Date.now().toString(36)}`;
  await getDb()
    .insert(users)
    .values({ username, email: `${username}@example.fr`, passwordHash: hashPasswordSync(PASSWORD), isAdmin: true });
  const session = await adminCookie(username);
  const start = await securityAction(
    routeArgs(formRequest("/admin/securite", { intent: "start" }, { headers: { Cookie: session } })),
  );
  expect(start.status).toBe(302);
  const page = await (await securityLoader(routeArgs(getRequest("/admin/securite", { Cookie: session })))).json();
  expect(page.status.state).toBe("pending");
  const secret: string = page.status.secret;
  const confirm = await securityAction(
    routeArgs(
      formRequest("/admin/securite", { intent: "confirm", code: await codeAt(secret) }, { headers: { Cookie: session } }),
    ),
  );
  expect(confirm.status).toBe(200);
  const body = await confirm.json();
  expect(body.recoveryCodes).toHaveLength(10);
  // The next code to use is the next step's: the enrolment used this one.
  return { username, secret, session, recoveryCodes: body.recoveryCodes as string[] };
}

const signInWithPassword = (username: string, extra: Record<string, string> = {}, cookie = "", address = ip) =>
  loginAction(
    routeArgs(
      formRequest("/admin/login", { username, password: PASSWORD, ...extra }, { headers: cookie ? { Cookie: cookie } : {} }),
      {},
      fromAddress(address),
    ),
  );

const submitCode = (pending: string, fields: Record<string, string>, address = ip, extraCookie = "") =>
  verifyAction(
    routeArgs(
      formRequest("/admin/login/verification", fields, { headers: { Cookie: cookieHeader(pending, extraCookie) } }),
      {},
      fromAddress(address),
    ),
  );

describe("signing in with the second factor", () => {
  it("opens no session after the password: the code page comes first, then the session and the page asked for", async () => {
    const { username, secret } = await enrolledAdmin();
    const password = await signInWithPassword(username, { redirectTo: "/admin/orders" });
    expect(password.status).toBe(302);
    expect(password.headers.get("Location")).toBe("/admin/login/verification");
    expect(cookieFrom(password, "__admin")).toBeNull();
    const pending = cookieFrom(password, "__admin_login")!;
    expect(pending).not.toBeNull();
    expect(password.headers.getSetCookie().find((c) => c.startsWith("__admin_login="))).toMatch(/HttpOnly/i);

    const page = await verifyLoader(routeArgs(getRequest("/admin/login/verification", { Cookie: pending })));
    expect(page.status).toBe(200);
    expect((await page.json()).username).toBe(username);

    const wrong = await submitCode(pending, { intent: "code", code: await wrongCode(secret) });
    expect(wrong.status).toBe(401);
    expect(cookieFrom(wrong, "__admin")).toBeNull();
    expect((await wrong.json()).toast.description).toBe("Code de vérification invalide");

    const right = await submitCode(pending, { intent: "code", code: await codeAt(secret, Date.now() + STEP_MS) });
    expect(right.status).toBe(302);
    expect(right.headers.get("Location")).toBe("/admin/orders");
    const session = cookieFrom(right, "__admin")!;
    expect(session).not.toBeNull();
    expect(right.headers.getSetCookie().find((c) => c.startsWith("__admin_login="))).toMatch(/Expires=Thu, 01 Jan 1970/);
    expect(cookieFrom(right, "__admin_device")).toBeNull(); // not asked to remember
    expect((await dashboardLoader(routeArgs(getRequest("/admin/dashboard", { Cookie: session })))).status).toBe(200);
  });

  it("refuses a code already used, even within its window", async () => {
    const { username, secret } = await enrolledAdmin();
    const code = await codeAt(secret, Date.now() + STEP_MS);
    const first = cookieFrom(await signInWithPassword(username), "__admin_login")!;
    expect((await submitCode(first, { intent: "code", code })).status).toBe(302);
    const second = cookieFrom(await signInWithPassword(username), "__admin_login")!;
    const replay = await submitCode(second, { intent: "code", code });
    expect(replay.status).toBe(401);
    expect(cookieFrom(replay, "__admin")).toBeNull();
  });

  it("sends an expired or missing code step back to the password", async () => {
    const { username } = await enrolledAdmin();
    const pending = cookieFrom(await signInWithPassword(username), "__admin_login")!;
    vi.setSystemTime(Date.now() + 5 * 60_000 + 1);
    const expired = await thrown(verifyLoaderRoute(routeArgs(getRequest("/admin/login/verification", { Cookie: pending }))));
    expect(expired.status).toBe(302);
    expect(expired.headers.get("Location")).toBe("/admin/login");
    const none = await thrown(verifyLoaderRoute(routeArgs(getRequest("/admin/login/verification"))));
    expect(none.headers.get("Location")).toBe("/admin/login");
  });

  it("remembers the browser when asked: the next sign-in there needs only the password, elsewhere the code", async () => {
    const { username, secret } = await enrolledAdmin();
    const pending = cookieFrom(await signInWithPassword(username), "__admin_login")!;
    const right = await submitCode(pending, { intent: "code", code: await codeAt(secret, Date.now() + STEP_MS), remember: "on" });
    expect(right.status).toBe(302);
    const device = cookieFrom(right, "__admin_device")!;
    const raw = right.headers.getSetCookie().find((c) => c.startsWith("__admin_device="))!;
    expect(raw).toMatch(/HttpOnly/i);
    expect(raw).toMatch(/Max-Age=2592000/);

    const remembered = await signInWithPassword(username, {}, device);
    expect(remembered.headers.get("Location")).toBe("/admin/dashboard");
    expect(cookieFrom(remembered, "__admin")).not.toBeNull();

    const elsewhere = await signInWithPassword(username);
    expect(elsewhere.headers.get("Location")).toBe("/admin/login/verification");
    expect(cookieFrom(elsewhere, "__admin")).toBeNull();

    // The password is still required on the remembered browser.
    const wrongPassword = await loginAction(
      routeArgs(
        formRequest("/admin/login", { username, password: "pas-le-bon" }, { headers: { Cookie: device } }),
        {},
        fromAddress(ip),
      ),
    );
    expect(wrongPassword.status).toBe(401);
  });

  it("accepts a recovery code once instead of the code", async () => {
    const { username, recoveryCodes } = await enrolledAdmin();
    const first = cookieFrom(await signInWithPassword(username), "__admin_login")!;
    const used = await submitCode(first, { intent: "recovery", recoveryCode: recoveryCodes[3] });
    expect(used.status).toBe(302);
    expect(cookieFrom(used, "__admin")).not.toBeNull();
    const second = cookieFrom(await signInWithPassword(username), "__admin_login")!;
    const again = await submitCode(second, { intent: "recovery", recoveryCode: recoveryCodes[3] });
    expect(again.status).toBe(401);
    expect((await again.json()).toast.description).toBe("Code de secours invalide ou déjà utilisé");
  });

  it("gives a clear message for a code that is not 6 digits, without counting it", async () => {
    const { username } = await enrolledAdmin();
    const pending = cookieFrom(await signInWithPassword(username), "__admin_login")!;
    const response = await submitCode(pending, { intent: "code", code: "12ab" });
    expect(response.status).toBe(400);
    expect((await response.json()).result.error.code).toEqual(["Le code de vérification est composé de 6 chiffres"]);
  });

  it("counts wrong codes in the sign-in limits: this address slows down for this account, another address does not", async () => {
    const { username, secret } = await enrolledAdmin();
    const pending = cookieFrom(await signInWithPassword(username), "__admin_login")!;
    const bad = await wrongCode(secret);
    for (let i = 0; i < 3; i++) expect((await submitCode(pending, { intent: "code", code: bad })).status).toBe(401);
    const slowed = await submitCode(pending, { intent: "code", code: await codeAt(secret, Date.now() + STEP_MS) });
    expect(slowed.status).toBe(429);
    expect(Number(slowed.headers.get("Retry-After"))).toBeGreaterThan(0);
    // The administrator on another address is not held back by these failures.
    const elsewhere = "198.18.0.9";
    const theirs = cookieFrom(await signInWithPassword(username, {}, "", elsewhere), "__admin_login")!;
    const ok = await submitCode(theirs, { intent: "code", code: await codeAt(secret, Date.now() + STEP_MS) }, elsewhere);
    expect(ok.status).toBe(302);
  });

  it("blocks the address after 10 failed codes, like 10 failed passwords", async () => {
    const { username, secret } = await enrolledAdmin();
    const bad = await wrongCode(secret);
    let failures = 0;
    for (let i = 0; i < 12; i++) {
      // The right password each time (a success, not counted), then a wrong code.
      const password = await signInWithPassword(username);
      if (password.status === 429) break;
      const response = await submitCode(cookieFrom(password, "__admin_login")!, { intent: "code", code: bad });
      expect(response.status).toBe(401);
      failures++;
    }
    expect(failures).toBe(10);
    const blocked = await signInWithPassword(username);
    expect(blocked.status).toBe(429);
    expect((await blocked.json()).toast.description).toMatch(/^Trop de tentatives de connexion/);
  });
});

describe("POST /api/admin/login with the second factor", () => {
  const api = (body: Record<string, string>, address = ip) =>
    apiLogin(routeArgs(jsonRequest("/api/admin/login", "POST", body), {}, fromAddress(address)));

  it("asks for the code (401 totp_required), refuses a wrong one (invalid_code) and signs in with a right one", async () => {
    const { username, secret, recoveryCodes } = await enrolledAdmin();
    const missing = await api({ username, password: PASSWORD });
    expect(missing.status).toBe(401);
    expect(cookieFrom(missing, "__admin")).toBeNull();
    expect(await missing.json()).toMatchObject({ success: false, code: "totp_required", issues: [{ path: "code" }] });

    const wrong = await api({ username, password: PASSWORD, code: await wrongCode(secret) });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ code: "invalid_code", error: "Code de vérification invalide" });

    const right = await api({ username, password: PASSWORD, code: await codeAt(secret, Date.now() + STEP_MS) });
    expect(right.status).toBe(200);
    expect(cookieFrom(right, "__admin")).not.toBeNull();

    const recovery = await api({ username, password: PASSWORD, code: recoveryCodes[0] });
    expect(recovery.status).toBe(200);
  });

  it("never tries the code when the password is wrong, and answers 422 for a malformed code", async () => {
    const { username, secret } = await enrolledAdmin();
    const response = await api({ username, password: "pas-le-bon", code: await codeAt(secret, Date.now() + STEP_MS) });
    expect(response.status).toBe(401);
    const body = await response.json();
    expect(body.error).toBe("Identifiants invalides");
    expect(body.code).toBeUndefined();
    // The code was not spent: it still signs in.
    const right = await api({ username, password: PASSWORD, code: await codeAt(secret, Date.now() + STEP_MS) });
    expect(right.status).toBe(200);
    const malformed = await api({ username, password: PASSWORD, code: "12" });
    expect(malformed.status).toBe(422);
    expect((await malformed.json()).issues[0].path).toBe("code");
  });

  it("signs an account without the factor in with the password alone", async () => {
    const response = await api({ username: "admin", password: "motdepasse-test-1" });
    expect(response.status).toBe(200);
  });
});

describe("the security page", () => {
  it("is for signed-in administrators only", async () => {
    const response = await thrown(securityLoaderRoute(routeArgs(getRequest("/admin/securite"))));
    expect(response.headers.get("Location")).toBe("/admin/login?redirectTo=%2Fadmin%2Fsecurite");
  });

  it("turns the factor off with the password, not with a wrong one; then sign-in needs the password only", async () => {
    const { username, session } = await enrolledAdmin();
    const disable = (fields: Record<string, string>) =>
      securityAction(
        routeArgs(
          formRequest("/admin/securite", { intent: "disable", ...fields }, { headers: { Cookie: session } }),
          {},
          fromAddress(ip),
        ),
      );
    const empty = await disable({});
    expect(empty.status).toBe(400);
    expect((await empty.json()).result.error.code).toEqual(["Saisissez un code de vérification ou votre mot de passe"]);
    const wrong = await disable({ password: "pas-le-bon" });
    expect(wrong.status).toBe(401);
    expect((await wrong.json()).result.error.password).toEqual(["Mot de passe incorrect"]);
    const [user] = await getDb().select().from(users).where(eqUsername(username));
    expect(await hasTotp(user.id)).toBe(true);

    const done = await disable({ password: PASSWORD });
    expect(done.status).toBe(302);
    expect(await hasTotp(user.id)).toBe(false);
    const signIn = await signInWithPassword(username);
    expect(signIn.headers.get("Location")).toBe("/admin/dashboard");
    expect(cookieFrom(signIn, "__admin")).not.toBeNull();
  });

  it("gives new recovery codes for a current code, and never shows the secret once the factor is on", async () => {
    const { username, secret, session, recoveryCodes } = await enrolledAdmin();
    const page = await (await securityLoader(routeArgs(getRequest("/admin/securite", { Cookie: session })))).json();
    expect(page.status).toMatchObject({ state: "on", recoveryCodesLeft: 10 });
    expect(JSON.stringify(page)).not.toContain(secret);
    const response = await securityAction(
      routeArgs(
        formRequest(
          "/admin/securite",
          { intent: "regenerate", code: await codeAt(secret, Date.now() + STEP_MS) },
          { headers: { Cookie: session } },
        ),
        {},
        fromAddress(ip),
      ),
    );
    expect(response.status).toBe(200);
    const fresh: string[] = (await response.json()).recoveryCodes;
    expect(fresh).toHaveLength(10);
    expect(fresh).not.toContain(recoveryCodes[0]);
    const [user] = await getDb().select().from(users).where(eqUsername(username));
    expect(await getTotpStatus(user)).toMatchObject({ state: "on", recoveryCodesLeft: 10 });
  });

  it("refuses a wrong first code: the factor stays off", async () => {
    const username = `totp-pending-${Date.now().toString(36)}`;
    await getDb()
      .insert(users)
      .values({ username, email: `${username}@example.fr`, passwordHash: hashPasswordSync(PASSWORD), isAdmin: true });
    const session = await adminCookie(username);
    await securityAction(routeArgs(formRequest("/admin/securite", { intent: "start" }, { headers: { Cookie: session } })));
    const page = await (await securityLoader(routeArgs(getRequest("/admin/securite", { Cookie: session })))).json();
    const response = await securityAction(
      routeArgs(
        formRequest(
          "/admin/securite",
          { intent: "confirm", code: await wrongCode(page.status.secret) },
          { headers: { Cookie: session } },
        ),
      ),
    );
    expect(response.status).toBe(400);
    expect((await response.json()).result.error.code[0]).toMatch(/^Code de vérification invalide/);
    const after = await (await securityLoader(routeArgs(getRequest("/admin/securite", { Cookie: session })))).json();
    expect(after.status.state).toBe("pending");
  });
});

describe("the dashboard in demo mode", () => {
  it("does not ask for the second factor", async () => {
    const response = await dashboardLoader(routeArgs(getRequest("/admin/dashboard", { Cookie: await adminCookie() })));
    expect((await response.json()).secondFactor.missing).toEqual([]);
  });
});

function eqUsername(username: string) {
  return eq(users.username, username);
}
