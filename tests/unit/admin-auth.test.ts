import { asResponses } from "../helpers/route-response";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { readConfig } from "~/config.server";
import { getDb } from "~/db/client.server";
import { emails, siteSettings, users } from "~/db/schema";
import { action as apiLogin } from "~/routes/api.admin.login";
import { action as apiLogout } from "~/routes/api.admin.logout";
import { loader as sessionLoader } from "~/routes/api.admin.session";
import { loader as contactsLoaderRoute } from "~/routes/admin.contacts";
import { loader as dashboardLoaderRoute } from "~/routes/admin.dashboard";
import { action as loginActionRoute, loader as loginLoaderRoute } from "~/routes/admin_.login";
import { action as logoutActionRoute } from "~/routes/admin_.logout";
import { adminRedirectTarget, credentialsHintFor, resetLoginRateLimit } from "~/services/admin-auth.server";
import { hashPasswordSync } from "~/lib/passwords.server";
import { formRequest, fromAddress, getRequest, jsonRequest, routeArgs, thrown } from "../helpers/requests";
import { adminCookie, cookieFrom } from "./admin-helpers";

const contactsLoader = asResponses(contactsLoaderRoute);
const dashboardLoader = asResponses(dashboardLoaderRoute);
const loginAction = asResponses(loginActionRoute);
const loginLoader = asResponses(loginLoaderRoute);
const logoutAction = asResponses(logoutActionRoute);

const PASSWORD = "motdepasse-test-1";
/** Tests that check many real passwords (scrypt, about 0.1 s each, much more on a loaded machine). */
const SCRYPT_HEAVY_MS = 120_000;
let ipCounter = 0;
/** Each test signs in from its own address, so the per-address limit of one test does not leak into another. */
let ip = "";
beforeEach(async () => {
  await resetLoginRateLimit();
  ip = `198.51.100.${++ipCounter}`;
});

afterEach(() => {
  vi.useRealTimers();
});

/** The login page's action, for a request whose TCP peer is `address` (this test's own by default). */
const login = (
  fields: Record<string, string>,
  { address = ip, headers = {} }: { address?: string; headers?: Record<string, string> } = {},
) => loginAction(routeArgs(formRequest("/admin/login", fields, { headers }), {}, fromAddress(address)));

/** A frozen clock that the test moves forward (only Date: timers and scrypt run as usual). */
function freezeClock() {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date("2026-03-05T10:00:00Z"));
  return { advance: (seconds: number) => vi.setSystemTime(Date.now() + seconds * 1000) };
}

describe("adminRedirectTarget", () => {
  it("sends the login page back to the dashboard and keeps shop pages out of the admin redirect", () => {
    expect(adminRedirectTarget("/admin/login")).toBe("/admin/dashboard");
    expect(adminRedirectTarget("/cgv")).toBe("/admin/dashboard");
    expect(adminRedirectTarget("/admin/contacts?id=3")).toBe("/admin/contacts?id=3");
    for (const unsafe of [
      "//evil.example/admin",
      "/\\evil.example/admin",
      "/\t/evil.example/admin",
      "https://evil.example/admin",
      "",
    ]) {
      expect(adminRedirectTarget(unsafe), unsafe).toBe("/admin/dashboard");
    }
  });
});

describe("admin sign-in page", () => {
  it("gives the spec's messages when fields are empty", async () => {
    const response = await login({ username: "", password: "" });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.result.error).toMatchObject({
      username: ["Le nom d'utilisateur est requis"],
      password: ["Le mot de passe est requis"],
    });
  });

  it("signs in, sets an HttpOnly SameSite=Lax cookie holding no user data in clear, and redirects with the toast", async () => {
    const response = await login({ username: "admin", password: PASSWORD, redirectTo: "/admin/orders?status=shipped" });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/admin/orders?status=shipped");
    const raw = response.headers.getSetCookie().find((c) => c.startsWith("__admin="))!;
    expect(raw).toMatch(/HttpOnly/i);
    expect(raw).toMatch(/SameSite=Lax/i);
    expect(raw).not.toMatch(/Secure/); // demo mode
    expect(raw).not.toContain("admin@");
    expect(cookieFrom(response, "toast-session")).not.toBeNull();
  });

  it("refuses an open redirect after signing in", async () => {
    const response = await login({ username: "admin", password: PASSWORD, redirectTo: "//evil.example/x" });
    expect(response.headers.get("Location")).toBe("/admin/dashboard");
  });

  it("answers the same way for a wrong password, an unknown user and a non-admin user", async () => {
    await getDb()
      .insert(users)
      .values({
        username: "cliente",
        email: "cliente@example.fr",
        passwordHash: hashPasswordSync("motdepasse-cliente"),
        isAdmin: false,
      });
    const bodies = [];
    for (const fields of [
      { username: "admin", password: "mauvais-mot-de-passe" },
      { username: "personne", password: "mauvais-mot-de-passe" },
      { username: "cliente", password: "motdepasse-cliente" },
    ]) {
      const response = await login(fields);
      expect(response.status).toBe(401);
      expect(cookieFrom(response, "__admin")).toBeNull();
      const body = await response.json();
      expect(body.toast).toEqual({ message: "Échec de la connexion", description: "Identifiants invalides", type: "error" });
      bodies.push(body.result.error);
    }
    expect(bodies[0]).toEqual(bodies[1]);
    expect(bodies[1]).toEqual(bodies[2]);
  });

  it(
    "slows a username down after 3 failures from one address, for that address only: 429 with Retry-After, then the right password works",
    { timeout: SCRYPT_HEAVY_MS },
    async () => {
      const clock = freezeClock();
      for (let i = 0; i < 3; i++) {
        expect((await login({ username: "admin", password: `faux-${i}` }, { address: "203.0.113.7" })).status).toBe(401);
      }
      const early = await login({ username: "admin", password: PASSWORD }, { address: "203.0.113.7" });
      expect(early.status).toBe(429);
      expect(early.headers.get("Retry-After")).toBe("2");
      const body = await early.json();
      expect(body.toast?.description).toBe("Trop de tentatives de connexion. Réessayez dans 2 secondes.");
      expect(cookieFrom(early, "__admin")).toBeNull();
      // Another address, with no failure of its own, is not slowed down.
      expect((await login({ username: "admin", password: PASSWORD }, { address: "203.0.113.99" })).status).toBe(302);
      clock.advance(2);
      expect((await login({ username: "admin", password: PASSWORD }, { address: "203.0.113.7" })).status).toBe(302);
    },
  );

  it(
    "never locks the administrator out: after 20 wrong passwords from 20 other addresses, the right one from a fresh address succeeds at once",
    { timeout: SCRYPT_HEAVY_MS },
    async () => {
      freezeClock();
      for (let i = 0; i < 20; i++) {
        expect((await login({ username: "Admin ", password: `faux-${i}` }, { address: `203.0.113.${i}` })).status).toBe(401);
      }
      const success = await login({ username: "admin", password: PASSWORD }, { address: "192.0.2.50" });
      expect(success.status).toBe(302);
      expect(cookieFrom(success, "__admin")).not.toBeNull();
    },
  );

  it(
    "a wrong password every 30 s from one address for 3 minutes never delays the administrator signing in from another address",
    { timeout: SCRYPT_HEAVY_MS },
    async () => {
      const clock = freezeClock();
      const adminStatuses: number[] = [];
      for (let second = 0; second <= 180; second += 30) {
        const attack = await login({ username: "admin", password: `faux-${second}` }, { address: "203.0.113.66" });
        expect(attack.status, `attack at ${second} s`).toBe(401);
        if (second % 90 === 0) {
          // A second after the attacker's 1st, 4th and 7th failures.
          clock.advance(1);
          adminStatuses.push((await login({ username: "admin", password: PASSWORD }, { address: "192.0.2.60" })).status);
          clock.advance(29);
        } else clock.advance(30);
      }
      expect(adminStatuses).toEqual([302, 302, 302]);
    },
  );

  it(
    "answers 30 wrong passwords sent at once from one address with 10 refusals 401 at most, the rest 429; the administrator signing in meanwhile from elsewhere never gets a 503",
    { timeout: SCRYPT_HEAVY_MS },
    async () => {
      freezeClock();
      const attack = Array.from({ length: 30 }, (_, i) =>
        login({ username: "admin", password: `faux-${i}` }, { address: "203.0.113.77" }),
      );
      const admin = login({ username: "admin", password: PASSWORD }, { address: "192.0.2.70" });
      const statuses = (await Promise.all(attack)).map((r) => r.status);
      const counts = { 401: statuses.filter((s) => s === 401).length, 429: statuses.filter((s) => s === 429).length };
      expect(counts[401]).toBeGreaterThan(0);
      expect(counts[401]).toBeLessThanOrEqual(10);
      expect(counts[401] + counts[429]).toBe(30);
      const refused = (await Promise.all(attack)).find((r) => r.status === 429)!;
      expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
      expect((await refused.json()).toast?.description).toMatch(/Réessayez dans \d+ secondes?\.$/);
      expect((await admin).status).toBe(302);
    },
  );

  it(
    "emails the shop when the administrator's username is under attack (10 failures in 15 minutes, from any addresses), once an hour at most",
    { timeout: SCRYPT_HEAVY_MS },
    async () => {
      const clock = freezeClock();
      const [settings] = await getDb().select({ email: siteSettings.siteEmail }).from(siteSettings).limit(1);
      const alerts = async () => (await getDb().select().from(emails)).filter((e) => e.kind === "admin_login_attack");
      await getDb().delete(emails);
      const fail = async (n: number, prefix: string) => {
        for (let i = 0; i < n; i++) {
          expect((await login({ username: "admin", password: `faux-${i}` }, { address: `${prefix}.${i}` })).status).toBe(401);
          clock.advance(10);
        }
      };
      await fail(9, "203.0.113");
      expect(await alerts()).toHaveLength(0);
      await fail(1, "198.18.0");
      const [alert] = await alerts();
      expect(alert).toMatchObject({ toAddress: settings!.email, status: "pending" });
      // Still under attack in the same hour: no second email.
      await fail(10, "198.18.1");
      expect(await alerts()).toHaveLength(1);
      // An hour later, a new attack: a new email.
      clock.advance(3600);
      await fail(10, "198.18.2");
      expect(await alerts()).toHaveLength(2);
      // Failures on an unknown username write to nobody.
      await getDb().delete(emails);
      clock.advance(3600);
      for (let i = 0; i < 12; i++) await login({ username: "personne", password: "faux" }, { address: `198.18.3.${i}` });
      expect(await alerts()).toHaveLength(0);
    },
  );

  it(
    "blocks an address after 10 failures for 15 minutes, whatever the usernames; another address is not affected",
    { timeout: SCRYPT_HEAVY_MS },
    async () => {
      const clock = freezeClock();
      for (let i = 0; i < 10; i++) {
        expect((await login({ username: `inconnu-${i}`, password: "faux-mot-de-passe" })).status).toBe(401);
      }
      const blocked = await login({ username: "admin", password: PASSWORD });
      expect(blocked.status).toBe(429);
      expect(Number(blocked.headers.get("Retry-After"))).toBeGreaterThan(60);
      expect((await blocked.json()).toast?.description).toMatch(
        /^Trop de tentatives de connexion\. Réessayez dans \d+ minutes\.$/,
      );
      expect((await login({ username: "admin", password: PASSWORD }, { address: "192.0.2.200" })).status).toBe(302);
      clock.advance(Number(blocked.headers.get("Retry-After")));
      expect((await login({ username: "admin", password: PASSWORD })).status).toBe(302);
    },
  );

  it(
    "keys the address on the TCP peer: a rotated X-Forwarded-For does not escape the limit",
    { timeout: SCRYPT_HEAVY_MS },
    async () => {
      for (let i = 0; i < 10; i++) {
        const response = await login(
          { username: `inconnu-${i}`, password: "faux-mot-de-passe" },
          { headers: { "X-Forwarded-For": `198.18.0.${i}` } },
        );
        expect(response.status).toBe(401);
      }
      const rotated = await login(
        { username: "admin", password: PASSWORD },
        { headers: { "X-Forwarded-For": "198.18.1.1", "X-Real-IP": "198.18.1.2" } },
      );
      expect(rotated.status).toBe(429);
    },
  );

  it("refuses a form posted from another site", async () => {
    const response = await thrown(
      login({ username: "admin", password: PASSWORD }, { headers: { Origin: "https://evil.example" } }),
    );
    expect(response.status).toBe(403);
  });

  it("sends a signed-in administrator straight to the dashboard", async () => {
    const response = await thrown(loginLoader(routeArgs(getRequest("/admin/login", { Cookie: await adminCookie() }))));
    expect(response.headers.get("Location")).toBe("/admin/dashboard");
  });

  it("shows the default-credentials hint only in demo mode with the demo password", () => {
    const demo = readConfig({ DATABASE_URL: ":memory:" } as unknown as NodeJS.ProcessEnv);
    expect(credentialsHintFor(demo)).toEqual({ username: "admin", password: "admin-demo-2026" });
    const custom = readConfig({ DATABASE_URL: ":memory:", ADMIN_PASSWORD: "un-autre-secret-1" } as unknown as NodeJS.ProcessEnv);
    expect(credentialsHintFor(custom)).toBeNull();
    const live = readConfig({
      DATABASE_URL: ":memory:",
      STRIPE_SECRET_KEY: "sk_live_x",
      STRIPE_PUBLISHABLE_KEY: "pk_live_x",
      STRIPE_WEBHOOK_SECRET: "whsec_x",
      SESSION_SECRET: "s".repeat(32),
      ADMIN_PASSWORD: "un-autre-secret-1",
      SMTP_URL: "smtp://smtp.example.fr:587",
    } as unknown as NodeJS.ProcessEnv);
    expect(credentialsHintFor(live)).toBeNull();
  });
});

describe("admin pages without a session", () => {
  it("redirect to the login page with a redirectTo", async () => {
    const response = await thrown(dashboardLoader(routeArgs(getRequest("/admin/orders?page=2"))));
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/admin/login?redirectTo=%2Fadmin%2Forders%3Fpage%3D2");
    expect(response.headers.get("Cache-Control")).toBe("no-store");
  });

  it("/admin/contacts adds the 'Accès refusé' toast", async () => {
    const response = await thrown(contactsLoader(routeArgs(getRequest("/admin/contacts"))));
    expect(response.headers.get("Location")).toBe("/admin/login?redirectTo=%2Fadmin%2Fcontacts");
    expect(cookieFrom(response, "toast-session")).not.toBeNull();
  });

  it("refuse a cookie whose user is no longer an administrator", async () => {
    await getDb()
      .insert(users)
      .values({
        username: "ancien",
        email: "ancien@example.fr",
        passwordHash: hashPasswordSync("motdepasse-ancien"),
        isAdmin: true,
      });
    const cookie = await adminCookie("ancien");
    const ok = await dashboardLoader(routeArgs(getRequest("/admin/dashboard", { Cookie: cookie })));
    expect(ok.status).toBe(200);
    await getDb().update(users).set({ isAdmin: false }).where(eqUsername("ancien"));
    const response = await thrown(dashboardLoader(routeArgs(getRequest("/admin/dashboard", { Cookie: cookie }))));
    expect(response.headers.get("Location")).toBe("/admin/login");
  });

  it("send no-store on admin pages", async () => {
    const response = await dashboardLoader(routeArgs(getRequest("/admin/dashboard", { Cookie: await adminCookie() })));
    expect(response.headers.get("Cache-Control")).toBe("no-store");
  });
});

describe("JSON sign-in API", () => {
  it("signs in, reports the session and signs out", async () => {
    const response = await apiLogin(
      routeArgs(jsonRequest("/api/admin/login", "POST", { username: "admin", password: PASSWORD }), {}, fromAddress(ip)),
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ success: true });
    const cookie = cookieFrom(response, "__admin")!;
    const session = await sessionLoader(routeArgs(getRequest("/api/admin/session", { Cookie: cookie })));
    expect(session.status).toBe(200);
    expect(await session.json()).toMatchObject({ authenticated: true, user: { username: "admin" } });
    const out = await apiLogout(routeArgs(jsonRequest("/api/admin/logout", "POST", undefined, { Cookie: cookie })));
    expect(out.status).toBe(200);
    expect(out.headers.get("Set-Cookie")).toMatch(/__admin=;/);
  });

  it("answers 401 on bad credentials and 429 with Retry-After once throttled", async () => {
    freezeClock();
    const send = (password: string) =>
      apiLogin(routeArgs(jsonRequest("/api/admin/login", "POST", { username: "admin", password }), {}, fromAddress(ip)));
    for (let i = 0; i < 3; i++) {
      const response = await send("faux");
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ success: false, message: "Identifiants invalides" });
    }
    const blocked = await send(PASSWORD);
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get("Retry-After")).toBe("2");
    const body = await blocked.json();
    expect(body).toMatchObject({
      success: false,
      error: "Trop de tentatives de connexion. Réessayez dans 2 secondes.",
      issues: [],
    });
  });

  it("validates the body", async () => {
    const response = await apiLogin(routeArgs(jsonRequest("/api/admin/login", "POST", { username: "" }), {}, fromAddress(ip)));
    expect(response.status).toBe(422);
  });

  it("session without a cookie is a 401", async () => {
    const response = await sessionLoader(routeArgs(getRequest("/api/admin/session")));
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ authenticated: false });
  });
});

describe("sign-out page action", () => {
  it("clears the cookie and goes back to the login page with a toast", async () => {
    const response = await logoutAction(
      routeArgs(formRequest("/admin/logout", {}, { headers: { Cookie: await adminCookie() } })),
    );
    expect(response.headers.get("Location")).toBe("/admin/login");
    expect(response.headers.getSetCookie().some((c) => c.startsWith("__admin=;"))).toBe(true);
    expect(cookieFrom(response, "toast-session")).not.toBeNull();
  });
});

function eqUsername(name: string) {
  return eq(users.username, name);
}
