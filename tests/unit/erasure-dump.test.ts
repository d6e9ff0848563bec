import { eq, getTableName, is } from "drizzle-orm";
import { PgTable } from "drizzle-orm/pg-core";
import { SQLiteTable } from "drizzle-orm/sqlite-core";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import * as schema from "~/db/schema";
import { orders, users } from "~/db/schema";
import { createContactRequest } from "~/services/contacts.server";
import { findOrCreateCustomer } from "~/services/customers/accounts.server";
import { eraseCustomerData } from "~/services/customers/erase.server";
import { markOrderPaid } from "~/services/payments/payment-state.server";
import { requestWithdrawal, withdrawalToApi } from "~/services/withdrawals.server";
import { insertOrder } from "./admin-helpers";
import { setUpTestEmulator } from "./emulator-fixtures";

// The erasure reaches Stripe: this file's own emulator, on a free port.
setUpTestEmulator();

/**
 * After an erasure, nothing in the database says who the customer was: every table is read
 * whole, and none of the customer's values is found anywhere, except in the issued invoice
 * (invoices.document), kept as issued by law.
 */

const PERSON = {
  email: "seraphine.quillebeuf@example.fr",
  firstName: "Séraphine",
  lastName: "Quillebeuf",
  street: "12 impasse des Coquelicots",
  address2: "Escalier Zéphyr",
  city: "Saint-Quentin-Fallavier",
  phone: "+33798765432",
  reason: "Le masque m'a donné des rougeurs sur la joue gauche",
  subject: "Allergie au sérum",
  message: "Je suis allergique aux parabènes, merci de me rappeler",
};

/** What must not be found: each value, and the telephone's digits and the email's local part on their own. */
const NEEDLES = [...Object.values(PERSON), "798765432", "seraphine.quillebeuf"];

/** Every row of every table, as text; the issued invoices' frozen document left out (kept by law). */
async function dumpDatabase(): Promise<Record<string, string>> {
  const db = getDb();
  const out: Record<string, string> = {};
  for (const table of Object.values(schema)) {
    if (!is(table, SQLiteTable) && !is(table, PgTable)) continue;
    const name = getTableName(table);
    const rows = (await db.select().from(table as typeof schema.products)) as Record<string, unknown>[];
    out[name] = JSON.stringify(name === "invoices" ? rows.map((row) => ({ ...row, document: null })) : rows);
  }
  return out;
}

function found(dump: Record<string, string>): string[] {
  const hits: string[] = [];
  for (const [table, text] of Object.entries(dump)) {
    const lower = text.toLowerCase();
    for (const needle of NEEDLES) if (lower.includes(needle.toLowerCase())) hits.push(`${table}: ${needle}`);
  }
  return hits;
}

let customerId: number;
let orderId: number;

beforeAll(async () => {
  customerId = (
    await findOrCreateCustomer(getDb(), {
      email: PERSON.email,
      firstName: PERSON.firstName,
      lastName: PERSON.lastName,
      address: PERSON.street,
      postalCode: "38070",
      city: PERSON.city,
      country: "France",
    })
  ).id;
  await getDb().update(users).set({ phone: PERSON.phone }).where(eq(users.id, customerId));
  orderId = await insertOrder({
    userId: customerId,
    customerEmail: PERSON.email,
    customerName: `${PERSON.firstName} ${PERSON.lastName}`,
    customerFirstName: PERSON.firstName,
    customerLastName: PERSON.lastName,
    shippingAddress: PERSON.street,
    shippingAddress2: PERSON.address2,
    shippingPostalCode: "38070",
    shippingCity: PERSON.city,
    shippingPhone: PERSON.phone,
  });
  await markOrderPaid(orderId, { paymentIntentId: `pi_dump_${orderId}` });
  await getDb().update(orders).set({ status: "shipped" }).where(eq(orders.id, orderId));
  // Typed in capitals, as a customer may.
  const withdrawal = await requestWithdrawal({ orderId, email: PERSON.email.toUpperCase(), reason: PERSON.reason });
  expect(withdrawal.outcome).toBe("recorded");
  await createContactRequest({
    name: `${PERSON.firstName} ${PERSON.lastName}`,
    email: PERSON.email,
    subject: PERSON.subject,
    message: PERSON.message,
  });
});

describe("after the erasure of a customer with a shipped order, a withdrawal, a contact request and emails", () => {
  it("the database held the customer's values everywhere before", async () => {
    const hits = found(await dumpDatabase());
    for (const table of ["users", "orders", "withdrawal_requests", "contact_requests", "emails"])
      expect(hits.some((h) => h.startsWith(`${table}:`))).toBe(true);
    expect(hits).toContain(`withdrawal_requests: ${PERSON.reason}`);
  });

  it("no table holds any of them, outside the issued invoice", async () => {
    const admin = (await getDb().select().from(users).where(eq(users.username, "admin")).limit(1))[0]!;
    await eraseCustomerData(customerId, { id: admin.id, username: admin.username });
    expect(found(await dumpDatabase())).toEqual([]);
  });

  it("the order's withdrawal, as the API shows it, no longer says the email or the reason", async () => {
    const text = JSON.stringify(await withdrawalToApi(orderId));
    for (const needle of NEEDLES) expect(text.toLowerCase()).not.toContain(needle.toLowerCase());
  });
});
