import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { DbOrTx } from "~/db/client.server";
import { users } from "~/db/schema";

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
 * isAdmin false, country France). A new customer gets the delivery details typed with the
 * order; an existing one is only linked: an anonymous checkout never changes an account (the
 * order keeps its own copy of the name and the address).
 */
export async function findOrCreateCustomer(db: DbOrTx, input: CustomerInput): Promise<{ id: number; created: boolean }> {
  const email = input.email.trim().toLowerCase();
  const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
  if (existing) return { id: existing.id, created: false };
  const profile = {
    firstName: input.firstName || null,
    lastName: input.lastName || null,
    address: input.address,
    postalCode: input.postalCode,
    city: input.city,
    country: input.country,
  };
  const base = usernameBase(email);
  for (let attempt = 0; attempt < 5; attempt++) {
    const username = `${base}-${randomBytes(3).toString("hex")}`;
    const [row] = await db
      .insert(users)
      .values({ username, email, passwordHash: null, isAdmin: false, ...profile })
      .onConflictDoNothing()
      .returning({ id: users.id });
    if (row) return { id: row.id, created: true };
    // The email was taken meanwhile: link to that customer.
    const [raced] = await db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
    if (raced) return { id: raced.id, created: false };
  }
  throw new Error("Impossible de créer le client");
}

/** A client account an order may be linked to by its id (the API's `userId`): an existing non-administrator, else null. */
export async function linkableCustomerId(db: DbOrTx, userId: number | null | undefined): Promise<number | null> {
  if (userId == null) return null;
  const [row] = await db.select({ id: users.id, isAdmin: users.isAdmin }).from(users).where(eq(users.id, userId)).limit(1);
  return row && !row.isAdmin ? row.id : null;
}
