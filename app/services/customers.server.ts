import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { BaseSQLiteDatabase } from "drizzle-orm/sqlite-core";
import type { RunResult } from "better-sqlite3";
import type * as schema from "~/db/schema";
import { users } from "~/db/schema";

/** The database or a transaction: every write of a checkout happens in one transaction. */
export type DbOrTx = BaseSQLiteDatabase<"sync", RunResult, typeof schema>;

export type CustomerInput = {
  email: string;
  firstName: string;
  lastName: string;
  address: string;
  postalCode: string;
  city: string;
  country: string;
};

function usernameBase(email: string) {
  const local = email.split("@")[0] ?? "";
  const base = local
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "")
    .slice(0, 20);
  return base || "client";
}

/**
 * Finds the customer by email, or creates one (checkout customers never sign in: no password,
 * isAdmin false, country France). A customer created at checkout gets their latest delivery
 * details; an account with a password (an administrator) is linked but never modified.
 */
export function findOrCreateCustomer(db: DbOrTx, input: CustomerInput): { id: number; created: boolean } {
  const email = input.email.trim().toLowerCase();
  const existing = db
    .select({ id: users.id, passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.email, email))
    .get();
  const profile = {
    firstName: input.firstName,
    lastName: input.lastName,
    address: input.address,
    postalCode: input.postalCode,
    city: input.city,
    country: input.country,
  };
  if (existing) {
    if (existing.passwordHash === null) {
      db.update(users).set(profile).where(eq(users.id, existing.id)).run();
    }
    return { id: existing.id, created: false };
  }
  const base = usernameBase(email);
  for (let attempt = 0; attempt < 5; attempt++) {
    const username = `${base}-${randomBytes(3).toString("hex")}`;
    const row = db
      .insert(users)
      .values({ username, email, passwordHash: null, isAdmin: false, ...profile })
      .onConflictDoNothing()
      .returning({ id: users.id })
      .get();
    if (row) return { id: row.id, created: true };
  }
  throw new Error("Impossible de créer le client");
}
