import { asResponses } from "../helpers/route-response";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { users } from "~/db/schema";
import { ShopError } from "~/lib/shop-error";
import { action as usersListActionRoute } from "~/routes/admin.users._index";
import { action as editActionRoute } from "~/routes/admin.users.edit.$id";
import { action as newActionRoute } from "~/routes/admin.users.new";
import { userCreateSchema, userUpdateSchema } from "~/schemas/user";
import { verifyPassword } from "~/lib/passwords.server";
import {
  CANNOT_DELETE_SELF,
  CANNOT_DEMOTE_SELF,
  createUser,
  deleteUser,
  LAST_ADMIN_DELETE,
  LAST_ADMIN_DEMOTE,
  updateUser,
} from "~/services/users.server";
import { formRequest, routeArgs } from "../helpers/requests";
import { adminCookie, cookieFrom, expectNoSecrets } from "./admin-helpers";

const usersListAction = asResponses(usersListActionRoute);
const editAction = asResponses(editActionRoute);
const newAction = asResponses(newActionRoute);

const base = {
  username: "",
  email: "",
  firstName: "",
  lastName: "",
  address: "",
  city: "",
  postalCode: "",
  country: "",
  phone: "",
};
const adminId = async () =>
  (await getDb().select({ id: users.id }).from(users).where(eq(users.username, "admin")).limit(1))[0]!.id;
const hashOf = async (id: number) =>
  (await getDb().select({ h: users.passwordHash }).from(users).where(eq(users.id, id)).limit(1))[0]!.h;

describe("user schema: password rules", () => {
  it("needs at least 10 characters when creating", () => {
    const short = userCreateSchema.safeParse({ username: "zoe", email: "zoe@example.fr", password: "123456789" });
    expect(short.success).toBe(false);
    expect(short.error!.issues[0]).toMatchObject({
      path: ["password"],
      message: "Le mot de passe doit contenir au moins 10 caractères.",
    });
    expect(userCreateSchema.safeParse({ username: "zoe", email: "zoe@example.fr" }).success).toBe(false);
    expect(userCreateSchema.safeParse({ username: "zoe", email: "zoe@example.fr", password: "1234567890" }).success).toBe(true);
  });
  it("keeps the password when none is given on update, checks it otherwise", () => {
    expect(userUpdateSchema.safeParse({ username: "zoe", email: "zoe@example.fr" }).success).toBe(true);
    expect(userUpdateSchema.safeParse({ username: "zoe", email: "zoe@example.fr", password: "court" }).success).toBe(false);
  });
  it("rejects odd usernames and invalid emails", () => {
    expect(userCreateSchema.safeParse({ username: "a b", email: "x@example.fr", password: "1234567890" }).success).toBe(false);
    expect(userCreateSchema.safeParse({ username: "abc", email: "pas-un-email", password: "1234567890" }).success).toBe(false);
  });
});

describe("user service", () => {
  it("hashes the password (scrypt) and never stores it in clear", async () => {
    const user = await createUser(
      userCreateSchema.parse({ username: "hugo", email: "hugo@example.fr", password: "motdepasse-hugo" }),
    );
    const hash = (await hashOf(user.id))!;
    expect(hash).toMatch(/^scrypt\$/);
    expect(hash).not.toContain("motdepasse-hugo");
    expect(await verifyPassword("motdepasse-hugo", hash)).toBe(true);
    expectNoSecrets(user);
  });

  it("keeps usernames and emails unique, ignoring case", async () => {
    await createUser(userCreateSchema.parse({ username: "Sarah", email: "sarah@example.fr", password: "motdepasse-sarah" }));
    await expect(
      createUser(userCreateSchema.parse({ username: "sarah", email: "s2@example.fr", password: "motdepasse-sarah" })),
    ).rejects.toThrow("Ce nom d'utilisateur est déjà utilisé.");
    await expect(
      createUser(userCreateSchema.parse({ username: "sarah2", email: "SARAH@example.fr", password: "motdepasse-sarah" })),
    ).rejects.toThrow("Cette adresse email est déjà utilisée.");
  });

  it("an administrator can neither delete nor demote themself", async () => {
    const me = await adminId();
    await expect(deleteUser(me, me)).rejects.toThrow(CANNOT_DELETE_SELF);
    await expect(
      updateUser(me, me, userUpdateSchema.parse({ username: "admin", email: "admin@maison-eclat.fr", isAdmin: false })),
    ).rejects.toThrow(CANNOT_DEMOTE_SELF);
    expect((await getDb().select({ a: users.isAdmin }).from(users).where(eq(users.id, me)).limit(1))[0]!.a).toBe(true);
  });

  it("the last administrator can be neither removed nor demoted", async () => {
    const last = await adminId();
    // An actor other than the target (e.g. an API client acting for a just-demoted admin).
    const someoneElse = 987654;
    await expect(deleteUser(someoneElse, last)).rejects.toThrow(LAST_ADMIN_DELETE);
    await expect(
      updateUser(
        someoneElse,
        last,
        userUpdateSchema.parse({ username: "admin", email: "admin@maison-eclat.fr", isAdmin: false }),
      ),
    ).rejects.toThrow(LAST_ADMIN_DEMOTE);
    // With a second administrator, one of them may go.
    const second = await createUser(
      userCreateSchema.parse({ username: "second", email: "second@example.fr", password: "motdepasse-second", isAdmin: true }),
    );
    await deleteUser(last, second.id);
  });

  it("changes the password only when a new one is given", async () => {
    const user = await createUser(
      userCreateSchema.parse({ username: "paul", email: "paul@example.fr", password: "motdepasse-paul" }),
    );
    const before = await hashOf(user.id);
    await updateUser(
      await adminId(),
      user.id,
      userUpdateSchema.parse({ username: "paul", email: "paul@example.fr", city: "Lille" }),
    );
    expect(await hashOf(user.id)).toBe(before);
    await updateUser(
      await adminId(),
      user.id,
      userUpdateSchema.parse({ username: "paul", email: "paul@example.fr", password: "nouveau-motdepasse" }),
    );
    expect(await verifyPassword("nouveau-motdepasse", await hashOf(user.id))).toBe(true);
  });
});

describe("user pages", () => {
  it("creates a user from the form (checkbox 'on' = admin) and hides the password in a failed reply", async () => {
    const cookie = await adminCookie();
    const ok = await newAction(
      routeArgs(
        formRequest(
          "/admin/users/new",
          { ...base, username: "claire", email: "claire@example.fr", password: "motdepasse-claire", isAdmin: "on" },
          { headers: { Cookie: cookie } },
        ),
      ),
    );
    expect(ok.status).toBe(302);
    expect(ok.headers.get("Location")).toBe("/admin/users");
    expect(cookieFrom(ok, "toast-session")).not.toBeNull();
    const claire = (await getDb().select().from(users).where(eq(users.username, "claire")).limit(1))[0]!;
    expect(claire.isAdmin).toBe(true);

    const bad = await newAction(
      routeArgs(
        formRequest(
          "/admin/users/new",
          { ...base, username: "claire", email: "claire2@example.fr", password: "motdepasse-claire" },
          { headers: { Cookie: cookie } },
        ),
      ),
    );
    expect(bad.status).toBe(409);
    const body = await bad.json();
    expect(body.result.error?.username).toEqual(["Ce nom d'utilisateur est déjà utilisé."]);
    expectNoSecrets(body, ["motdepasse-claire"]);
  });

  it("refuses to demote oneself from the edit form, and to delete oneself from the list", async () => {
    const cookie = await adminCookie();
    const me = await adminId();
    const response = await editAction(
      routeArgs(
        formRequest(
          `/admin/users/edit/${me}`,
          { ...base, username: "admin", email: "admin@maison-eclat.fr" },
          { headers: { Cookie: cookie } },
        ),
        { id: String(me) },
      ),
    );
    expect(response.status).toBe(403);
    expect((await response.json()).result.error?.isAdmin).toEqual([CANNOT_DEMOTE_SELF]);

    const del = await usersListAction(
      routeArgs(formRequest("/admin/users?index", { intent: "delete", id: String(me) }, { headers: { Cookie: cookie } })),
    );
    expect(del.headers.get("Location")).toBe("/admin/users");
    expect((await getDb().select().from(users).where(eq(users.id, me)).limit(1))[0]).toBeDefined();
  });

  it("the thrown rule error carries a status for the API", async () => {
    let thrown: unknown;
    try {
      await deleteUser(await adminId(), await adminId());
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ShopError);
    expect((thrown as ShopError).status).toBe(403);
    expect((thrown as ShopError).message).toBe(CANNOT_DELETE_SELF);
  });
});
