import { generateTOTP } from "@epic-web/totp";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { getDb } from "~/db/client.server";
import { adminRecoveryCodes, adminTotp, adminTrustedDevices, users } from "~/db/schema";
import { hashPasswordSync } from "~/lib/passwords.server";
import { revokeUserSessions } from "~/services/admin-sessions.server";
import {
  checkSecondFactor,
  confirmTotpEnrolment,
  disableTotp,
  getTotpStatus,
  hasTotp,
  regenerateRecoveryCodes,
  startTotpEnrolment,
} from "~/services/admin-totp.server";
import { isTrustedDevice, rememberDevice, TRUSTED_DEVICE_TTL_MS } from "~/services/admin-trusted-devices.server";
import { openSecret, sealSecret } from "~/services/secret-box.server";
import { updateUser } from "~/services/users.server";
import { getRequest } from "../helpers/requests";

/**
 * The second factor's service: enrolment, codes within one step of the clock and never twice,
 * single-use recovery codes, the secret encrypted at rest, and remembered browsers that expire
 * after 30 days and are forgotten when the factor goes, the password changes or the sessions are
 * revoked.
 */

const T0 = new Date("2026-03-05T10:00:10Z").getTime();
const STEP_MS = 30_000;

afterEach(() => {
  vi.useRealTimers();
});

/** Date only: the library and the service read the clock through it. */
function clockAt(ms: number) {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(ms);
}

/** The code an authenticator app shows at `ms` for this secret. */
async function codeAt(secret: string, ms: number): Promise<string> {
  const now = Date.now();
  vi.setSystemTime(ms);
  const { otp } = await generateTOTP({ secret, period: 30, digits: 6, algorithm: "SHA-1" });
  vi.setSystemTime(now);
  return otp;
}

/** A 6-digit code that is not the right one at `ms`, nor one step either side. */
async function wrongCode(secret: string, ms: number): Promise<string> {
  const right: string[] = [];
  // One after the other: codeAt moves the clock and puts it back.
  for (const t of [ms - STEP_MS, ms, ms + STEP_MS]) right.push(await codeAt(secret, t));
  for (let n = 0; ; n++) {
    const candidate = String(n).padStart(6, "0");
    if (!right.includes(candidate)) return candidate;
  }
}

let counter = 0;
async function newAdmin() {
  const username = `totp-${++counter}-${Date.now().toString(36)}`;
  const [user] = await getDb()
    .insert(users)
    .values({ username, email: `${username}@example.fr`, passwordHash: hashPasswordSync("motdepasse-totp-1"), isAdmin: true })
    .returning({ id: users.id, username: users.username });
  return user;
}

/** An administrator with the factor on; returns the secret (as the app has it) and the recovery codes. */
async function enrolled() {
  clockAt(T0);
  const user = await newAdmin();
  await startTotpEnrolment(user.id);
  const status = await getTotpStatus(user);
  if (status.state !== "pending") throw new Error("enrolment not started");
  const recoveryCodes = await confirmTotpEnrolment(user.id, await codeAt(status.secret, T0));
  return { user, secret: status.secret, recoveryCodes };
}

describe("enrolment", () => {
  it("shows the secret, its otpauth URI and an SVG QR code until a right code turns the factor on; then never again", async () => {
    clockAt(T0);
    const user = await newAdmin();
    expect(await getTotpStatus(user)).toEqual({ state: "off" });
    await startTotpEnrolment(user.id);
    const pending = await getTotpStatus(user);
    if (pending.state !== "pending") throw new Error("expected pending");
    expect(pending.secret).toMatch(/^[A-Z2-7]{32}$/); // 160 bits
    expect(pending.uri).toBe(
      `otpauth://totp/Maison%20%C3%89clat:${user.username}?secret=${pending.secret}&issuer=Maison+%C3%89clat&algorithm=SHA1&digits=6&period=30`,
    );
    expect(pending.qrSvg).toMatch(/^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(await hasTotp(user.id)).toBe(false);

    // Stored encrypted, bound to the user.
    const [row] = await getDb().select().from(adminTotp).where(eq(adminTotp.userId, user.id));
    expect(row.encryptedSecret).not.toContain(pending.secret);
    expect(row.encryptedSecret).toMatch(/^v1\./);

    await expect(confirmTotpEnrolment(user.id, await wrongCode(pending.secret, T0))).rejects.toMatchObject({
      status: 400,
      field: "code",
    });
    expect(await hasTotp(user.id)).toBe(false);

    const codes = await confirmTotpEnrolment(user.id, await codeAt(pending.secret, T0));
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[0-9a-hjkmnp-tv-z]{4}-[0-9a-hjkmnp-tv-z]{4}-[0-9a-hjkmnp-tv-z]{4}$/);
    expect(await hasTotp(user.id)).toBe(true);
    const on = await getTotpStatus(user);
    expect(on).toMatchObject({ state: "on", recoveryCodesLeft: 10 });
    expect(JSON.stringify(on)).not.toContain(pending.secret);

    // Stored as hashes only.
    const stored = await getDb().select().from(adminRecoveryCodes).where(eq(adminRecoveryCodes.userId, user.id));
    expect(stored).toHaveLength(10);
    for (const code of codes) expect(JSON.stringify(stored)).not.toContain(code.replace(/-/g, ""));

    await expect(startTotpEnrolment(user.id)).rejects.toMatchObject({ status: 409 });
  });

  it("draws a new secret when the enrolment is started again, and the old one's codes no longer confirm it", async () => {
    clockAt(T0);
    const user = await newAdmin();
    await startTotpEnrolment(user.id);
    const first = await getTotpStatus(user);
    await startTotpEnrolment(user.id);
    const second = await getTotpStatus(user);
    if (first.state !== "pending" || second.state !== "pending") throw new Error("expected pending");
    expect(second.secret).not.toBe(first.secret);
    const oldCode = await codeAt(first.secret, T0);
    if (oldCode !== (await codeAt(second.secret, T0))) {
      await expect(confirmTotpEnrolment(user.id, oldCode)).rejects.toMatchObject({ status: 400 });
    }
    await confirmTotpEnrolment(user.id, await codeAt(second.secret, T0));
    expect(await hasTotp(user.id)).toBe(true);
  });
});

describe("codes", () => {
  it("accepts the codes of one step before and one step after the clock, not two", async () => {
    const { user, secret } = await enrolled();
    const now = T0 + 10 * STEP_MS;
    vi.setSystemTime(now);
    expect(await checkSecondFactor(user.id, await codeAt(secret, now - 2 * STEP_MS))).toBe(false);
    expect(await checkSecondFactor(user.id, await codeAt(secret, now - STEP_MS))).toBe(true);
    expect(await checkSecondFactor(user.id, await codeAt(secret, now + STEP_MS))).toBe(true);
    const later = now + 10 * STEP_MS;
    vi.setSystemTime(later);
    expect(await checkSecondFactor(user.id, await codeAt(secret, later + 2 * STEP_MS))).toBe(false);
    expect(await checkSecondFactor(user.id, (await codeAt(secret, later)).replace(/^(\d{3})/, "$1 "))).toBe(true); // « 123 456 »
  });

  it("refuses a code already used, and an earlier step's code once a later one was used", async () => {
    const { user, secret } = await enrolled();
    const now = T0 + 4 * STEP_MS;
    vi.setSystemTime(now);
    const code = await codeAt(secret, now);
    expect(await checkSecondFactor(user.id, code)).toBe(true);
    expect(await checkSecondFactor(user.id, code)).toBe(false);
    // The step before is still in the window, but older than the one used.
    expect(await checkSecondFactor(user.id, await codeAt(secret, now - STEP_MS))).toBe(false);
    // The code used at enrolment (T0) cannot sign in either, even within its window.
    const again = await enrolled();
    vi.setSystemTime(T0 + 5_000);
    expect(await checkSecondFactor(again.user.id, await codeAt(again.secret, T0))).toBe(false);
    expect(await checkSecondFactor(again.user.id, await codeAt(again.secret, T0 + STEP_MS))).toBe(true);
  });

  it("refuses every code of a user whose factor is off, and another user's code", async () => {
    const { user, secret } = await enrolled();
    const other = await enrolled();
    vi.setSystemTime(T0 + 3 * STEP_MS);
    const code = await codeAt(secret, T0 + 3 * STEP_MS);
    if (code !== (await codeAt(other.secret, T0 + 3 * STEP_MS))) expect(await checkSecondFactor(other.user.id, code)).toBe(false);
    await disableTotp(user.id);
    expect(await checkSecondFactor(user.id, code)).toBe(false);
    expect(await getTotpStatus(user)).toEqual({ state: "off" });
  });
});

describe("recovery codes", () => {
  it("each work once, typed in any case, with or without dashes", async () => {
    const { user, recoveryCodes } = await enrolled();
    expect(await checkSecondFactor(user.id, recoveryCodes[0].toUpperCase().replace(/-/g, " "))).toBe(true);
    expect(await checkSecondFactor(user.id, recoveryCodes[0])).toBe(false);
    expect(await checkSecondFactor(user.id, recoveryCodes[1])).toBe(true);
    expect(await checkSecondFactor(user.id, "abcd-efgh-jkmn")).toBe(false);
    expect(await getTotpStatus(user)).toMatchObject({ state: "on", recoveryCodesLeft: 8 });
  });

  it("are replaced by new ones: the old ones stop working", async () => {
    const { user, recoveryCodes } = await enrolled();
    const fresh = await regenerateRecoveryCodes(user.id);
    expect(fresh).toHaveLength(10);
    expect(fresh.filter((code) => recoveryCodes.includes(code))).toEqual([]);
    expect(await checkSecondFactor(user.id, recoveryCodes[2])).toBe(false);
    expect(await checkSecondFactor(user.id, fresh[0])).toBe(true);
  });
});

describe("the secret at rest", () => {
  it("opens with any session secret of the rotation list, not with another context nor once altered", () => {
    const sealed = sealSecret("JBSWY3DPEHPK3PXP", "admin-totp:7", ["nouveau-secret-de-session-assez-long"]);
    expect(openSecret(sealed, "admin-totp:7", ["nouveau-secret-de-session-assez-long"])).toBe("JBSWY3DPEHPK3PXP");
    const older = sealSecret("JBSWY3DPEHPK3PXP", "admin-totp:7", ["ancien-secret-de-session-assez-long"]);
    expect(
      openSecret(older, "admin-totp:7", ["nouveau-secret-de-session-assez-long", "ancien-secret-de-session-assez-long"]),
    ).toBe("JBSWY3DPEHPK3PXP");
    expect(openSecret(older, "admin-totp:7", ["nouveau-secret-de-session-assez-long"])).toBeNull();
    expect(openSecret(sealed, "admin-totp:8", ["nouveau-secret-de-session-assez-long"])).toBeNull();
    const [v, iv, tag, ciphertext] = sealed.split(".");
    const altered = [v, iv, tag, Buffer.from("AAAAAAAAAAAAAAAA").toString("base64url") + ciphertext.slice(22)].join(".");
    expect(openSecret(altered, "admin-totp:7", ["nouveau-secret-de-session-assez-long"])).toBeNull();
  });
});

describe("remembered browsers", () => {
  const withCookie = (setCookie: string) => getRequest("/admin/login", { Cookie: setCookie.split(";")[0] });

  it("are remembered 30 days for their user only", async () => {
    const { user } = await enrolled();
    const other = await newAdmin();
    const setCookie = await rememberDevice(user.id, new Date(T0));
    expect(setCookie).toMatch(/^__admin_device=/);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/Max-Age=2592000/);
    expect(await isTrustedDevice(withCookie(setCookie), user.id, new Date(T0 + TRUSTED_DEVICE_TTL_MS - 60_000))).toBe(true);
    expect(await isTrustedDevice(withCookie(setCookie), user.id, new Date(T0 + TRUSTED_DEVICE_TTL_MS + 1))).toBe(false);
    expect(await isTrustedDevice(withCookie(setCookie), other.id, new Date(T0))).toBe(false);
    // A forged cookie (unsigned token) is nothing.
    const token = decodeURIComponent(setCookie.split(";")[0].split("=")[1]);
    expect(await isTrustedDevice(getRequest("/admin/login", { Cookie: `__admin_device=${token}x` }), user.id, new Date(T0))).toBe(
      false,
    );
  });

  it("are forgotten when the factor is turned off", async () => {
    const { user } = await enrolled();
    const setCookie = await rememberDevice(user.id, new Date(T0));
    await disableTotp(user.id);
    expect(await isTrustedDevice(withCookie(setCookie), user.id, new Date(T0))).toBe(false);
    expect(await getDb().select().from(adminTrustedDevices).where(eq(adminTrustedDevices.userId, user.id))).toEqual([]);
  });

  it("are forgotten when the password changes", async () => {
    const { user } = await enrolled();
    const setCookie = await rememberDevice(user.id, new Date(T0));
    vi.useRealTimers();
    await updateUser(user.id, user.id, {
      username: user.username,
      email: `${user.username}@example.fr`,
      firstName: null,
      lastName: null,
      address: null,
      city: null,
      postalCode: null,
      country: null,
      phone: null,
      password: "un-nouveau-mot-de-passe-1",
      isAdmin: true,
    });
    expect(await isTrustedDevice(withCookie(setCookie), user.id, new Date(T0))).toBe(false);
  });

  it("are forgotten when the user's sessions are revoked", async () => {
    const { user } = await enrolled();
    const setCookie = await rememberDevice(user.id, new Date(T0));
    await revokeUserSessions(user.id, { keepId: "une-session-gardee" });
    expect(await isTrustedDevice(withCookie(setCookie), user.id, new Date(T0))).toBe(false);
  });
});
