import { and, asc, eq, gt, ne, sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { lockFor } from "~/db/locks.server";
import { users } from "~/db/schema";
import { ShopError } from "~/lib/shop-error";
import type { UserCreateInput, UserUpdateInput } from "~/schemas/user";
import { hashPassword } from "~/lib/passwords.server";
import type { PageQuery } from "~/schemas/page";
import { revokeUserSessions } from "./admin-sessions.server";
import { decodeCursor, pageOf } from "./pagination/cursor.server";

/** Every column a page or an API may show: never the password hash. */
const SAFE_USER_COLUMNS = {
  id: users.id,
  username: users.username,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  address: users.address,
  city: users.city,
  postalCode: users.postalCode,
  country: users.country,
  phone: users.phone,
  isAdmin: users.isAdmin,
  createdAt: users.createdAt,
  updatedAt: users.updatedAt,
};

type SafeUser = {
  id: number;
  username: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  address: string | null;
  city: string | null;
  postalCode: string | null;
  country: string | null;
  phone: string | null;
  isAdmin: boolean;
  createdAt: string;
  updatedAt: string;
};

export const USERNAME_TAKEN = "Ce nom d'utilisateur est déjà utilisé.";
export const EMAIL_TAKEN = "Cette adresse email est déjà utilisée.";
export const CANNOT_DELETE_SELF = "Vous ne pouvez pas supprimer votre propre compte.";
export const CANNOT_DEMOTE_SELF = "Vous ne pouvez pas retirer vos propres droits d'administrateur.";
export const LAST_ADMIN_DELETE = "Impossible de supprimer le dernier administrateur.";
export const LAST_ADMIN_DEMOTE = "Impossible de retirer ses droits au dernier administrateur.";

// Broken user rules: a ShopError with the form field it belongs to (if any).
const usernameTaken = () => new ShopError(409, "username_taken", USERNAME_TAKEN, { field: "username" });
const emailTaken = () => new ShopError(409, "email_taken", EMAIL_TAKEN, { field: "email" });

export const USERS_PAGE_SIZE = 50;

/** One page of the users (administrators first, then by id) and how many there are: /admin/users. */
export async function listUsersPage(requestedPage: number, pageSize = USERS_PAGE_SIZE) {
  const [{ total }] = await getDb()
    .select({ total: sql<number>`count(*)`.mapWith(Number) })
    .from(users);
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const page = Math.min(Math.max(1, requestedPage), pageCount);
  const rows: SafeUser[] = await getDb()
    .select(SAFE_USER_COLUMNS)
    .from(users)
    .orderBy(asc(users.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  return { users: rows, total, page, pageCount };
}

/** One page of GET /api/users, by id, from the cursor's key. */
export async function pageUsers(query: PageQuery) {
  const key = query.cursor ? decodeCursor(query.cursor, ["number"]) : null;
  const rows: SafeUser[] = await getDb()
    .select(SAFE_USER_COLUMNS)
    .from(users)
    .where(key ? gt(users.id, Number(key[0])) : undefined)
    .orderBy(asc(users.id))
    .limit(query.limit + 1);
  return pageOf(rows, query.limit, (u) => [u.id]);
}

export async function getUser(id: number): Promise<SafeUser | undefined> {
  return (await getDb().select(SAFE_USER_COLUMNS).from(users).where(eq(users.id, id)).limit(1))[0];
}

async function assertUnique(input: { username: string; email: string }, exceptId?: number) {
  const db = getDb();
  const others = exceptId === undefined ? undefined : ne(users.id, exceptId);
  const [sameName] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(sql`lower(${users.username}) = lower(${input.username})`, others))
    .limit(1);
  if (sameName) throw usernameTaken();
  const [sameEmail] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(sql`lower(${users.email}) = lower(${input.email})`, others))
    .limit(1);
  if (sameEmail) throw emailTaken();
}

/** A unique-constraint failure that slipped past the check (two requests at once). */
function translateUniqueError(error: unknown): never {
  const message = error instanceof Error ? error.message : "";
  if (message.includes("UNIQUE") && message.includes("users.username")) throw usernameTaken();
  if (message.includes("UNIQUE") && message.includes("users.email")) throw emailTaken();
  throw error;
}

export async function createUser(input: UserCreateInput): Promise<SafeUser> {
  await assertUnique(input);
  const passwordHash = await hashPassword(input.password);
  const { password: _password, ...fields } = input;
  try {
    return (
      await getDb()
        .insert(users)
        .values({ ...fields, passwordHash })
        .returning(SAFE_USER_COLUMNS)
    )[0];
  } catch (error) {
    translateUniqueError(error);
  }
}

/**
 * Updates a user. An administrator cannot remove their own admin rights, and the last
 * administrator keeps them. An empty password keeps the current one.
 *
 * Sessions: a new password closes every session of the user, except the one the acting
 * administrator is using (`actorSessionId`) when they change their own password; losing
 * the admin rights closes them all.
 */
export async function updateUser(
  actorId: number,
  id: number,
  input: UserUpdateInput,
  options: { actorSessionId?: string } = {},
): Promise<SafeUser | undefined> {
  const db = getDb();
  const current = await getUser(id);
  if (!current) return undefined;
  await assertUnique(input, id);
  const passwordHash = input.password ? await hashPassword(input.password) : undefined;
  const { password: _password, ...fields } = input;
  try {
    return await db.transaction(async (tx) => {
      // The last administrator rule counts the others: one change of administrators at a time.
      await lockFor(tx, "admin-user", "administrators");
      const [target] = await tx.select({ isAdmin: users.isAdmin }).from(users).where(eq(users.id, id)).limit(1);
      if (!target) return undefined;
      if (target.isAdmin && !fields.isAdmin) {
        if (id === actorId) throw new ShopError(403, "cannot_demote_self", CANNOT_DEMOTE_SELF, { field: "isAdmin" });
        const [otherAdmins] = await tx
          .select({ n: sql<number>`count(*)`.mapWith(Number) })
          .from(users)
          .where(and(eq(users.isAdmin, true), ne(users.id, id)))
          .limit(1);
        if (!otherAdmins?.n) throw new ShopError(409, "last_admin", LAST_ADMIN_DEMOTE, { field: "isAdmin" });
      }
      const [updated] = await tx
        .update(users)
        .set({ ...fields, ...(passwordHash ? { passwordHash } : {}), updatedAt: new Date().toISOString() })
        .where(eq(users.id, id))
        .returning(SAFE_USER_COLUMNS);
      if (target.isAdmin && !fields.isAdmin) await revokeUserSessions(id, { tx });
      else if (passwordHash) await revokeUserSessions(id, { tx, keepId: id === actorId ? options.actorSessionId : null });
      return updated;
    });
  } catch (error) {
    if (error instanceof ShopError) throw error;
    translateUniqueError(error);
  }
}

/** Deletes a user (their sessions go with them); refuses the acting administrator and the last administrator. */
export async function deleteUser(actorId: number, id: number): Promise<boolean> {
  if (id === actorId) throw new ShopError(403, "cannot_delete_self", CANNOT_DELETE_SELF);
  return await getDb().transaction(async (tx) => {
    await lockFor(tx, "admin-user", "administrators");
    const [target] = await tx.select({ isAdmin: users.isAdmin }).from(users).where(eq(users.id, id)).limit(1);
    if (!target) return false;
    if (target.isAdmin) {
      const [otherAdmins] = await tx
        .select({ n: sql<number>`count(*)`.mapWith(Number) })
        .from(users)
        .where(and(eq(users.isAdmin, true), ne(users.id, id)))
        .limit(1);
      if (!otherAdmins?.n) throw new ShopError(409, "last_admin", LAST_ADMIN_DELETE);
    }
    await tx.delete(users).where(eq(users.id, id));
    return true;
  });
}
