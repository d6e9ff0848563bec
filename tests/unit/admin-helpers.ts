import { eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { orderItems, orders, users } from "~/db/schema";
import { createAdminSession } from "~/services/admin-auth.server";
import { getRequest } from "../helpers/requests";

/** The Cookie header of a new session of a signed-in administrator (the seeded 'admin' by default). */
export async function adminCookie(username = "admin", headers: Record<string, string> = {}): Promise<string> {
  const [user] = await getDb().select().from(users).where(eq(users.username, username)).limit(1);
  if (!user) throw new Error(`no user ${username}`);
  const setCookie = await createAdminSession(user, getRequest("/admin/login", headers), "127.0.0.1");
  return setCookie.split(";")[0];
}

export function cookieFrom(response: Response, name: string): string | null {
  const all = response.headers.getSetCookie?.() ?? [response.headers.get("Set-Cookie") ?? ""];
  const found = all.find((c) => c.startsWith(`${name}=`));
  return found ? found.split(";")[0] : null;
}

let nextOrderId = 400_000_000;

/** Inserts an order with one item directly (orders are normally created by the checkout). */
export async function insertOrder(
  overrides: Partial<typeof orders.$inferInsert> = {},
  item: Partial<typeof orderItems.$inferInsert> = {},
) {
  const id = overrides.id ?? nextOrderId++;
  await getDb()
    .insert(orders)
    .values({
      id,
      subtotalCents: 2590,
      shippingCents: 0,
      totalCents: 2590,
      customerEmail: "camille@example.fr",
      customerName: "Camille Martin",
      shippingAddress: "3 rue des Roses",
      shippingPostalCode: "69001",
      shippingCity: "Lyon",
      shippingCountry: "France",
      ...overrides,
    });
  await getDb()
    .insert(orderItems)
    .values({
      orderId: id,
      productId: 1,
      quantity: 1,
      unitPriceCents: 2590,
      productName: "Masque Hydrogel au Collagène",
      variantName: "6 masques + 2 offerts",
      ...item,
    });
  return id;
}

/** A body never containing a password, its hash, or a key named like one. */
export function expectNoSecrets(body: unknown, secrets: string[] = []) {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  const leaks = [/passwordHash/i, /password_hash/i, /scrypt\$/].filter((re) => re.test(text)).map(String);
  leaks.push(...secrets.filter((secret) => text.includes(secret)));
  const walk = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === "object") {
      for (const [key, inner] of Object.entries(value)) {
        if (/^password/i.test(key)) leaks.push(`key ${key}`);
        walk(inner);
      }
    }
  };
  if (typeof body !== "string") walk(body);
  if (leaks.length > 0) throw new Error(`response leaks password data (${leaks.join(", ")}): ${text.slice(0, 300)}`);
}
