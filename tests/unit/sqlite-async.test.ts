import Database from "better-sqlite3";
import { eq, sql } from "drizzle-orm";
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import { reuseStatements } from "~/db/client.server";
import { asyncSqlite, ConnectionWaitError } from "~/db/sqlite-async.server";

const items = sqliteTable("items", {
  id: integer("id").primaryKey(),
  name: text("name").notNull(),
  stock: integer("stock").notNull().default(0),
  active: integer("active", { mode: "boolean" }).notNull().default(true),
});
const schema = { items };

function open(options?: { lockWaitMs?: number }) {
  const sqlite = new Database(":memory:");
  sqlite.exec(
    "CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL, stock INTEGER NOT NULL DEFAULT 0, active INTEGER NOT NULL DEFAULT 1)",
  );
  return { sqlite, db: asyncSqlite(sqlite, schema, options) };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

/** The SQL texts the connection compiles from now on, with the shop's statement reuse on. */
function recordPrepares(sqlite: Database.Database): string[] {
  const prepare = sqlite.prepare.bind(sqlite);
  const texts: string[] = [];
  sqlite.prepare = ((source: string) => {
    texts.push(source);
    return prepare(source);
  }) as typeof sqlite.prepare;
  reuseStatements(sqlite);
  return texts;
}

describe("SQLite behind an asynchronous interface", () => {
  it("reads and writes like drizzle's SQLite driver: objects, booleans, returning", async () => {
    const { db } = open();
    const inserted = await db.insert(items).values({ name: "Essentiel", stock: 3 }).returning();
    expect(inserted).toEqual([{ id: 1, name: "Essentiel", stock: 3, active: true }]);
    await db.insert(items).values({ name: "Cure", active: false });
    expect(await db.select({ name: items.name, active: items.active }).from(items)).toEqual([
      { name: "Essentiel", active: true },
      { name: "Cure", active: false },
    ]);
    expect(await db.select().from(items).where(eq(items.id, 2)).get()).toMatchObject({ name: "Cure" });
    expect(await db.select({ n: sql<number>`count(*)` }).from(items)).toEqual([{ n: 2 }]);
  });

  it("prepares each SQL text once per connection (the shop's reuseStatements), and still reads what a schema change brings", async () => {
    const { sqlite, db } = open();
    const texts = recordPrepares(sqlite);
    for (let i = 0; i < 5; i++) await db.insert(items).values({ name: `Pack ${i}` });
    for (let i = 1; i <= 5; i++) expect(await db.select().from(items).where(eq(items.id, i)).get()).toMatchObject({ id: i });
    await db.transaction(async (tx) => {
      await tx.update(items).set({ stock: 2 }).where(eq(items.id, 1));
      await tx.update(items).set({ stock: 2 }).where(eq(items.id, 2));
    });
    expect(new Set(texts).size).toBe(texts.length);
    expect(texts).toHaveLength(3);
    sqlite.exec("ALTER TABLE items ADD COLUMN note TEXT");
    expect(await db.select().from(items).where(eq(items.id, 1)).get()).toMatchObject({ id: 1, stock: 2 });
  });

  it("keeps a transaction apart: a statement of another request waits for its end, and survives its rollback", async () => {
    const { db } = open();
    await db.insert(items).values({ id: 1, name: "Essentiel", stock: 5 });
    let outsideDone = false;
    const transaction = db
      .transaction(async (tx) => {
        await tx.update(items).set({ stock: 4 }).where(eq(items.id, 1));
        // Another request runs while the transaction awaits something.
        const outside = db
          .insert(items)
          .values({ id: 2, name: "Cure" })
          .then(() => (outsideDone = true));
        await tick();
        await tick();
        expect(outsideDone).toBe(false);
        expect(await tx.select().from(items)).toHaveLength(1);
        void outside;
        throw new Error("refusé");
      })
      .catch((error: Error) => error.message);
    expect(await transaction).toBe("refusé");
    await tick();
    expect(outsideDone).toBe(true);
    expect(await db.select({ id: items.id, stock: items.stock }).from(items)).toEqual([
      { id: 1, stock: 5 },
      { id: 2, stock: 0 },
    ]);
  });

  it("runs concurrent transactions one after the other: no decrement lost, none below zero", async () => {
    const { db } = open();
    await db.insert(items).values({ id: 1, name: "Essentiel", stock: 10 });
    const sold = await Promise.all(
      Array.from({ length: 25 }, () =>
        db.transaction(async (tx) => {
          const [row] = await tx.select({ stock: items.stock }).from(items).where(eq(items.id, 1));
          await tick();
          if (row.stock <= 0) return false;
          await tx
            .update(items)
            .set({ stock: row.stock - 1 })
            .where(eq(items.id, 1));
          return true;
        }),
      ),
    );
    expect(sold.filter(Boolean)).toHaveLength(10);
    expect(await db.select({ stock: items.stock }).from(items)).toEqual([{ stock: 0 }]);
  });

  it("writes a query's LIMIT into its SQL, so that SQLite compiles it once rather than at every run", async () => {
    const { sqlite, db } = open();
    const texts = recordPrepares(sqlite);
    for (let i = 1; i <= 5; i++) await db.insert(items).values({ id: i, name: `Pack ${i}` });
    texts.length = 0;
    const names = async (limit: number, offset?: number) => {
      const query = db.select({ id: items.id }).from(items).orderBy(items.id).limit(limit);
      return (await (offset === undefined ? query : query.offset(offset))).map((row) => row.id);
    };
    expect(await names(1)).toEqual([1]);
    expect(await names(1)).toEqual([1]);
    expect(await names(2, 3)).toEqual([4, 5]);
    const byId = db
      .select({ name: items.name })
      .from(items)
      .where(eq(items.id, sql.placeholder("id")))
      .limit(1)
      .prepare();
    expect(await byId.execute({ id: 3 })).toEqual([{ name: "Pack 3" }]);
    expect(await byId.execute({ id: 4 })).toEqual([{ name: "Pack 4" }]);
    // The same text each time: the statement compiled once is reused (reuseStatements).
    expect(texts).toEqual([
      'select "id" from "items" order by "items"."id" limit 1',
      'select "id" from "items" order by "items"."id" limit 2 offset ?',
      'select "name" from "items" where "items"."id" = ? limit 1',
    ]);
    // A large limit (an API page's size is at most 200) stays bound.
    expect(await names(5000)).toEqual([1, 2, 3, 4, 5]);
    expect(texts.at(-1)).toBe('select "id" from "items" order by "items"."id" limit ?');
  });

  it("makes a transaction inside a transaction a savepoint", async () => {
    const { db, sqlite } = open();
    await db.transaction(async (tx) => {
      await tx.insert(items).values({ id: 1, name: "Essentiel" });
      await tx
        .transaction(async (inner) => {
          await inner.insert(items).values({ id: 2, name: "Cure" });
          throw new Error("annulé");
        })
        .catch(() => undefined);
      await tx.insert(items).values({ id: 3, name: "Essai" });
    });
    expect((await db.select({ id: items.id }).from(items)).map((r) => r.id)).toEqual([1, 3]);
    expect(sqlite.inTransaction).toBe(false);
  });

  it("commits what a transaction wrote, and a failed statement rolls the whole transaction back", async () => {
    const { db } = open();
    await db.transaction(async (tx) => {
      await tx.insert(items).values({ id: 1, name: "Essentiel" });
    });
    await expect(
      db.transaction(async (tx) => {
        await tx.insert(items).values({ id: 2, name: "Cure" });
        await tx.insert(items).values({ id: 1, name: "Doublon" });
      }),
    ).rejects.toMatchObject({ cause: { code: "SQLITE_CONSTRAINT_PRIMARYKEY" } });
    expect((await db.select({ id: items.id }).from(items)).map((r) => r.id)).toEqual([1]);
  });

  it("refuses, after a while, a statement sent through the shared handle from inside a transaction", async () => {
    const { db, sqlite } = open({ lockWaitMs: 50 });
    await expect(
      db.transaction(async (tx) => {
        await tx.insert(items).values({ id: 1, name: "Essentiel" });
        await db.select().from(items);
      }),
    ).rejects.toMatchObject({ cause: expect.any(ConnectionWaitError) });
    expect(sqlite.inTransaction).toBe(false);
    expect(await db.select().from(items)).toEqual([]);
  });
});
