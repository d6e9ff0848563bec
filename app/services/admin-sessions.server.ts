import { createHash, randomBytes } from "node:crypto";
import { and, asc, desc, eq, lte, ne } from "drizzle-orm";
import { getDb, type Db } from "~/db/client.server";
import { adminSessions, users } from "~/db/schema";
import { SESSION_ID_PATTERN } from "~/lib/ids";
import { describeUserAgent } from "~/lib/user-agent";
import { forgetTrustedDevices } from "./admin-trusted-devices.server";

/**
 * Administrators' sessions, kept in the database so that they can be listed and revoked.
 *
 * - The cookie holds a random secret token (32 bytes, base64url); the table keeps only its
 *   SHA-256, and names each session by a separate random public id.
 * - A session lasts 12 hours from sign-in, whatever the activity (not sliding): the cookie's
 *   Max-Age says the same, but the server checks `expires_at` itself.
 * - `last_seen_at` is written at most once a minute per session, not on every request.
 * - Expired sessions are deleted when they are presented, and a user's expired sessions
 *   when that user signs in.
 */

export const ADMIN_SESSION_TTL_MS = 12 * 60 * 60 * 1000;
export const LAST_SEEN_INTERVAL_MS = 60 * 1000;

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export type SessionClient = { userAgent: string | null; address: string | null };

/** What the sessions list and the API show of a session: never its token or the token's hash. */
export type AdminSessionView = {
  id: string;
  current: boolean;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
  userAgent: string | null;
  device: string;
  address: string | null;
};

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** Opens a session for this user and returns the token for the cookie; purges the user's expired sessions first. */
export async function openAdminSession(
  userId: number,
  client: SessionClient,
  now = new Date(),
): Promise<{ token: string; id: string; expiresAt: string }> {
  const token = randomBytes(32).toString("base64url");
  const id = randomBytes(16).toString("base64url");
  const createdAt = now.toISOString();
  const expiresAt = new Date(now.getTime() + ADMIN_SESSION_TTL_MS).toISOString();
  await getDb().transaction(async (tx) => {
    await tx.delete(adminSessions).where(and(eq(adminSessions.userId, userId), lte(adminSessions.expiresAt, createdAt)));
    await tx.insert(adminSessions).values({
      id,
      tokenHash: hashToken(token),
      userId,
      createdAt,
      expiresAt,
      lastSeenAt: createdAt,
      userAgent: client.userAgent?.slice(0, 512) || null,
      address: client.address?.slice(0, 100) || null,
    });
  });
  return { token, id, expiresAt };
}

/**
 * The live session of this token and its user id, or null. An expired session is deleted;
 * a session whose user is no longer an administrator (or no longer exists) too.
 */
export async function findAdminSession(token: string, now = new Date()): Promise<{ id: string; userId: number } | null> {
  if (!TOKEN.test(token)) return null;
  const db = getDb();
  const [row] = await db
    .select({
      id: adminSessions.id,
      userId: adminSessions.userId,
      expiresAt: adminSessions.expiresAt,
      lastSeenAt: adminSessions.lastSeenAt,
      isAdmin: users.isAdmin,
    })
    .from(adminSessions)
    .innerJoin(users, eq(users.id, adminSessions.userId))
    .where(eq(adminSessions.tokenHash, hashToken(token)))
    .limit(1);
  if (!row) return null;
  if (Date.parse(row.expiresAt) <= now.getTime() || !row.isAdmin) {
    await db.delete(adminSessions).where(eq(adminSessions.id, row.id));
    return null;
  }
  if (now.getTime() - Date.parse(row.lastSeenAt) >= LAST_SEEN_INTERVAL_MS) {
    await db.update(adminSessions).set({ lastSeenAt: now.toISOString() }).where(eq(adminSessions.id, row.id));
  }
  return { id: row.id, userId: row.userId };
}

/** Ends the session of this token (sign-out). */
export async function deleteAdminSessionByToken(token: string): Promise<void> {
  if (!TOKEN.test(token)) return;
  await getDb()
    .delete(adminSessions)
    .where(eq(adminSessions.tokenHash, hashToken(token)));
}

/** The user's live sessions: the current one (`currentId`, marked `current`) first, then the most recently used. */
export async function listAdminSessions(userId: number, currentId: string | null, now = new Date()): Promise<AdminSessionView[]> {
  return (
    await getDb()
      .select({
        id: adminSessions.id,
        createdAt: adminSessions.createdAt,
        lastSeenAt: adminSessions.lastSeenAt,
        expiresAt: adminSessions.expiresAt,
        userAgent: adminSessions.userAgent,
        address: adminSessions.address,
      })
      .from(adminSessions)
      .where(eq(adminSessions.userId, userId))
      .orderBy(desc(adminSessions.lastSeenAt), asc(adminSessions.createdAt))
  )
    .filter((s) => Date.parse(s.expiresAt) > now.getTime())
    .map((s) => ({ ...s, current: s.id === currentId, device: describeUserAgent(s.userAgent) }))
    .sort((a, b) => Number(b.current) - Number(a.current));
}

/** Revokes one of the user's sessions (by public id); false when the user has no such session. */
export async function revokeAdminSession(userId: number, id: string): Promise<boolean> {
  if (!SESSION_ID_PATTERN.test(id)) return false;
  const deleted = await getDb()
    .delete(adminSessions)
    .where(and(eq(adminSessions.id, id), eq(adminSessions.userId, userId)))
    .returning({ id: adminSessions.id });
  return deleted.length > 0;
}

/**
 * Deletes the user's sessions, all of them or all but `keepId` (the session the administrator
 * is using). Returns how many were deleted. Pass the transaction when called inside one.
 * Every browser remembered for the user's second factor is forgotten too (even the current
 * one): a password change, a demotion or « Révoquer les autres sessions » asks for the code
 * again everywhere.
 */
export async function revokeUserSessions(userId: number, options: { keepId?: string | null; tx?: Tx } = {}): Promise<number> {
  const db = options.tx ?? getDb();
  const where = options.keepId
    ? and(eq(adminSessions.userId, userId), ne(adminSessions.id, options.keepId))
    : eq(adminSessions.userId, userId);
  const deleted = await db.delete(adminSessions).where(where).returning({ id: adminSessions.id });
  await forgetTrustedDevices(userId, db);
  return deleted.length;
}
