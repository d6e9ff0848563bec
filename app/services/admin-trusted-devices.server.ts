import { createHash, randomBytes } from "node:crypto";
import { createCookie, type Cookie } from "@remix-run/node";
import { and, eq, lte } from "drizzle-orm";
import { getConfig } from "~/config.server";
import { getDb, type DbOrTx } from "~/db/client.server";
import { adminTrustedDevices } from "~/db/schema";

/**
 * « Se souvenir de cet appareil »: after a correct code, a browser may skip the code step for
 * 30 days. The signed, HttpOnly cookie `__admin_device` holds a random token; the table keeps
 * its SHA-256 with the user it was given to and its expiry, so the server can revoke it: turning
 * the second factor off, a new password or revoking the user's sessions delete the user's rows.
 * The password is still asked on every sign-in.
 */

export const TRUSTED_DEVICE_TTL_MS = 30 * 24 * 60 * 60 * 1000;
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

let cookie: Cookie | undefined;

function deviceCookie(): Cookie {
  if (!cookie) {
    const config = getConfig();
    cookie = createCookie("__admin_device", {
      httpOnly: true,
      sameSite: "lax",
      path: "/admin",
      secure: config.mode === "live",
      secrets: config.sessionSecrets,
      maxAge: TRUSTED_DEVICE_TTL_MS / 1000,
    });
  }
  return cookie;
}

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

async function readToken(request: Request): Promise<string | null> {
  const value: unknown = await deviceCookie().parse(request.headers.get("Cookie"));
  return typeof value === "string" && TOKEN.test(value) ? value : null;
}

/** Remembers this browser for the user (30 days) and returns the Set-Cookie value; purges the user's expired rows. */
export async function rememberDevice(userId: number, now = new Date()): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  await getDb().transaction(async (tx) => {
    await tx
      .delete(adminTrustedDevices)
      .where(and(eq(adminTrustedDevices.userId, userId), lte(adminTrustedDevices.expiresAt, now.toISOString())));
    await tx.insert(adminTrustedDevices).values({
      id: randomBytes(16).toString("base64url"),
      tokenHash: hashToken(token),
      userId,
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + TRUSTED_DEVICE_TTL_MS).toISOString(),
    });
  });
  return await deviceCookie().serialize(token);
}

/** True when the request's browser was remembered for this user, and still is (not expired, not revoked). */
export async function isTrustedDevice(request: Request, userId: number, now = new Date()): Promise<boolean> {
  const token = await readToken(request);
  if (token === null) return false;
  const [row] = await getDb()
    .select({ userId: adminTrustedDevices.userId, expiresAt: adminTrustedDevices.expiresAt })
    .from(adminTrustedDevices)
    .where(eq(adminTrustedDevices.tokenHash, hashToken(token)))
    .limit(1);
  return Boolean(row && row.userId === userId && Date.parse(row.expiresAt) > now.getTime());
}

/** Forgets every browser remembered for the user. Pass the transaction when called inside one. */
export async function forgetTrustedDevices(userId: number, db: DbOrTx = getDb()): Promise<void> {
  await db.delete(adminTrustedDevices).where(eq(adminTrustedDevices.userId, userId));
}
