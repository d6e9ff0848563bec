import { getTableColumns, getTableName, is, type Table } from "drizzle-orm";
import { PgTable } from "drizzle-orm/pg-core";
import { SQLiteTable } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import * as pgSchema from "~/db/schema.pg";
import * as sqliteSchema from "~/db/schema.sqlite";
import { ERASED_COLUMNS, KEPT_COLUMNS } from "~/services/customers/erase.server";

/**
 * Every column that looks personal is either erased (ERASED_COLUMNS, services/customers/erase.server.ts)
 * or kept on purpose, with its reason (KEPT_COLUMNS): a new column of a name, an address, a
 * telephone, a text typed by a customer... fails here until it is put in one of the two lists.
 */

/** Column names that may hold a person's data: names, contact details, addresses, typed texts, email contents, client traces. */
const PERSONAL_LOOKING =
  /^(?!.*_(id|at|cents|count)$).*(^|_)(e?mail|username|name|address2?|phone|city|postal|country|reason|message|subject|text|html|payload|attachments|document|note|ip|user_agent|password|error)(_|$)/i;

function tablesOf(schema: Record<string, unknown>) {
  return Object.values(schema).filter((t): t is Table => is(t, SQLiteTable) || is(t, PgTable));
}

/** Table name → its columns' names, as in the database. */
function columnNames(schema: Record<string, unknown>): Map<string, string[]> {
  return new Map(tablesOf(schema).map((t) => [getTableName(t), Object.values(getTableColumns(t)).map((c) => c.name)]));
}

/** Table name → the database names of the columns the erasure writes. */
const erased = new Map<string, Set<string>>();
for (const { table, columns } of ERASED_COLUMNS) {
  const all = getTableColumns(table);
  const names = erased.get(getTableName(table)) ?? new Set<string>();
  for (const key of Object.keys(columns)) names.add(all[key as keyof typeof all].name);
  erased.set(getTableName(table), names);
}

describe.each([
  ["SQLite", sqliteSchema],
  ["PostgreSQL", pgSchema],
])("the personal columns of the %s schema", (_engine, schema) => {
  const tables = columnNames(schema as Record<string, unknown>);

  it("are each erased or kept with a reason", () => {
    const unlisted: string[] = [];
    for (const [table, columns] of tables) {
      for (const column of columns) {
        if (!PERSONAL_LOOKING.test(column)) continue;
        if (erased.get(table)?.has(column)) continue;
        if (KEPT_COLUMNS[table]?.[column]) continue;
        unlisted.push(`${table}.${column}`);
      }
    }
    expect(unlisted).toEqual([]);
  });

  it("name only columns that exist, none both erased and kept", () => {
    const stale: string[] = [];
    for (const [table, columns] of [...erased].map(([t, c]) => [t, [...c]] as const)) {
      for (const column of columns) if (!tables.get(table)?.includes(column)) stale.push(`erased ${table}.${column}`);
    }
    for (const [table, columns] of Object.entries(KEPT_COLUMNS)) {
      for (const column of Object.keys(columns)) {
        if (!tables.get(table)?.includes(column)) stale.push(`kept ${table}.${column}`);
        if (erased.get(table)?.has(column)) stale.push(`both ${table}.${column}`);
      }
    }
    expect(stale).toEqual([]);
  });

  it("are all recognised by the pattern, so it is not too narrow", () => {
    for (const [table, columns] of erased)
      for (const column of columns)
        expect({ table, column, personal: PERSONAL_LOOKING.test(column) }).toMatchObject({ personal: true });
  });

  it("include the withdrawal request's email and reason", () => {
    expect([...(erased.get("withdrawal_requests") ?? [])].sort()).toEqual(["email", "reason"]);
  });
});

it("the pattern catches what a new personal column would be called", () => {
  for (const name of ["billing_email", "customer_phone", "delivery_address", "ip", "client_ip", "user_agent", "note"])
    expect(name).toMatch(PERSONAL_LOOKING);
  for (const name of [
    "description",
    "subscription_id",
    "shipping_cents",
    "stripe_customer_id",
    "recipient_count",
    "subject_id",
    "last_seen_at",
  ])
    expect(name).not.toMatch(PERSONAL_LOOKING);
});
