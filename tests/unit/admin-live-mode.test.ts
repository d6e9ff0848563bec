import { toResponse } from "../helpers/route-response";
import { describe, expect, it } from "vitest";
import { formRequest, getRequest, routeArgs } from "../helpers/requests";

/**
 * Live mode (SHOP_MODE=live, Stripe keys set): the debug tools answer 404, the login page shows no
 * credentials hint, and the admin cookie is Secure. Modules are imported after the
 * environment is set, so the configuration is read in live mode.
 */
process.env.SHOP_MODE = "live";
process.env.STRIPE_SECRET_KEY = "sk_test_live_mode_unit";
process.env.STRIPE_PUBLISHABLE_KEY = "pk_test_live_mode_unit";
process.env.STRIPE_WEBHOOK_SECRET = "whsec_live_mode_unit";
process.env.SESSION_SECRET = "une-cle-de-session-de-test-assez-longue";
process.env.SMTP_URL = "smtp://127.0.0.1:9";

describe("admin in live mode", () => {
  it("hides the debug page and the public contacts API (404)", async () => {
    const { getConfig } = await import("~/config.server");
    expect(getConfig().mode).toBe("live");
    const page = await import("~/routes/admin_.test-contacts");
    await expect(page.loader(routeArgs(getRequest("/admin/test-contacts")))).rejects.toMatchObject({ status: 404 });
    const api = await import("~/routes/api.public.contacts");
    expect((await api.loader(routeArgs(getRequest("/api/public/contacts")))).status).toBe(404);
  });

  it("shows no credentials hint and sets a Secure cookie", async () => {
    const login = await import("~/routes/admin_.login");
    const data = await toResponse(await login.loader(routeArgs(getRequest("/admin/login")))).json();
    expect(data.hint).toBeNull();
    const response = toResponse(
      await login.action(
        routeArgs(
          formRequest(
            "/admin/login",
            { username: "admin", password: "motdepasse-test-1" },
            { headers: { "X-Forwarded-For": "192.0.2.77" } },
          ),
        ),
      ),
    );
    expect(response.status).toBe(302);
    const cookie = response.headers.getSetCookie().find((c) => c.startsWith("__admin="))!;
    expect(cookie).toMatch(/; Secure/);
  });

  it("warns on the dashboard about each administrator without a second factor, until they turn it on", async () => {
    const { getDb } = await import("~/db/client.server");
    const { users } = await import("~/db/schema");
    const { hashPasswordSync } = await import("~/lib/passwords.server");
    const { confirmTotpEnrolment, getTotpStatus, startTotpEnrolment } = await import("~/services/admin-totp.server");
    const { generateTOTP } = await import("@epic-web/totp");
    const { adminCookie } = await import("./admin-helpers");
    const dashboard = await import("~/routes/admin.dashboard");
    const [second] = await getDb()
      .insert(users)
      .values({
        username: "gerante",
        email: "gerante@example.fr",
        passwordHash: hashPasswordSync("motdepasse-gerante-1"),
        isAdmin: true,
      })
      .returning({ id: users.id, username: users.username });
    const missing = async () =>
      (
        await toResponse(
          await dashboard.loader(routeArgs(getRequest("/admin/dashboard", { Cookie: await adminCookie() }))),
        ).json()
      ).secondFactor.missing.map((admin: { username: string }) => admin.username);
    expect(await missing()).toEqual(["admin", "gerante"]);

    await startTotpEnrolment(second.id);
    const status = await getTotpStatus(second);
    if (status.state !== "pending") throw new Error("expected pending");
    const { otp } = await generateTOTP({ secret: status.secret, period: 30, digits: 6, algorithm: "SHA-1" });
    await confirmTotpEnrolment(second.id, otp);
    expect(await missing()).toEqual(["admin"]);
  });
});
