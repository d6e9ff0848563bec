import Database from "better-sqlite3";
import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import { reuseStatements } from "~/db/client.server";

const items = sqliteTable("items", { id: integer("id").primaryKey(), name: text("name").notNull() });

function open(max?: number) {
  const sqlite = new Database(":memory:");
  sqlite.exec("CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL)");
  reuseStatements(sqlite, max);
  return { sqlite, db: drizzle(sqlite) };
}

describe("compiled statements reused by SQL text", () => {
  it("hands back the same statement for the same SQL, and a new one for other SQL", () => {
    const { sqlite } = open();
    const a = sqlite.prepare("SELECT 1 AS one");
    expect(sqlite.prepare("SELECT 1 AS one")).toBe(a);
    expect(sqlite.prepare("SELECT 2 AS two")).not.toBe(a);
  });

  it("gives rows as objects again after drizzle read the same SQL as arrays", async () => {
    const { sqlite, db } = open();
    await db.insert(items).values([{ name: "Essentiel" }, { name: "Cure" }]);
    // drizzle reads typed selections in array mode (raw), then maps them.
    expect((await db.select().from(items).where(eq(items.id, 2)).limit(1))[0]).toEqual({ id: 2, name: "Cure" });
    const source = db.select().from(items).where(eq(items.id, 2)).toSQL().sql;
    expect(sqlite.prepare(source).get(2)).toEqual({ id: 2, name: "Cure" });
    expect(await db.select().from(items)).toEqual([
      { id: 1, name: "Essentiel" },
      { id: 2, name: "Cure" },
    ]);
  });

  it("keeps at most `max` statements, the most recently used ones", () => {
    const { sqlite } = open(2);
    const one = sqlite.prepare("SELECT 1");
    const two = sqlite.prepare("SELECT 2");
    expect(sqlite.prepare("SELECT 1")).toBe(one);
    sqlite.prepare("SELECT 3");
    expect(sqlite.prepare("SELECT 1")).toBe(one);
    expect(sqlite.prepare("SELECT 2")).not.toBe(two);
  });
});
