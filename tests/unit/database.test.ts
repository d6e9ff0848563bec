import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openDatabase } from "~/db/client.server";
import { setBusyTimeout } from "~/db/sqlite-async.server";
import { dialect, products, siteSettings, users } from "~/db/schema";
import { verifyPassword } from "~/lib/passwords.server";

describe.skipIf(dialect !== "sqlite")("database start-up on SQLite", () => {
  it("migrates, uses WAL, and seeds product 1, the admin and the settings idempotently", async () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), "shop-db-")), "shop.db");
    const options = { adminUsername: "gerante", adminPassword: "secret-de-test-42" };
    const first = await openDatabase(file, options);
    expect(first.sqlite!.pragma("journal_mode", { simple: true })).toBe("wal");
    // Waits for another process's write lock are made without blocking the process (sqlite-async).
    expect(first.sqlite!.pragma("busy_timeout", { simple: true })).toBe(0);
    await first.db.update(products).set({ priceCents: 1990 }).where(eq(products.id, 1));
    first.sqlite!.close();

    const second = await openDatabase(file, options);
    const [product] = await second.db.select().from(products).where(eq(products.id, 1)).limit(1);
    expect(product).toMatchObject({ name: "Masque Hydrogel au Collagène", priceCents: 1990, originalPriceCents: 3180 });
    expect(await second.db.select().from(products)).toHaveLength(1);
    const admins = await second.db.select().from(users).where(eq(users.username, "gerante"));
    expect(admins).toHaveLength(1);
    expect(admins[0].isAdmin).toBe(true);
    expect(admins[0].passwordHash).not.toContain("secret-de-test-42");
    expect(await verifyPassword("secret-de-test-42", admins[0].passwordHash)).toBe(true);
    expect(await verifyPassword("mauvais", admins[0].passwordHash)).toBe(false);
    expect(await second.db.select().from(siteSettings)).toHaveLength(1);
    second.sqlite!.close();
  });
});

/** Two connections to one new SQLite file, as two server processes have; `close` ends both. */
async function twoProcesses() {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "shop-db-")), "shop.db");
  const options = { adminUsername: "admin", adminPassword: "motdepasse-test-1" };
  const here = await openDatabase(file, options);
  const other = await openDatabase(file, options);
  return {
    here,
    other,
    close() {
      if (other.sqlite!.inTransaction) other.sqlite!.exec("ROLLBACK");
      here.sqlite!.close();
      other.sqlite!.close();
    },
  };
}

describe.skipIf(dialect !== "sqlite")("SQLite transactions shared by several processes", () => {
  it("take the write lock when they begin, so a second process's write waits for them", async () => {
    const { here: first, other: second, close } = await twoProcesses();
    second.sqlite!.pragma("busy_timeout = 0");
    const otherWrite = () => second.sqlite!.prepare("UPDATE site_settings SET site_name = site_name").run();
    try {
      // Inside the first process's transaction, before it has written anything, the other one cannot write.
      await first.db.transaction(async (tx) => {
        await tx.select().from(products);
        expect(otherWrite).toThrow(/database is locked/);
        await tx.update(products).set({ name: "Masque" }).where(eq(products.id, 1));
      });
      // Once it has committed, the other process writes.
      expect(otherWrite).not.toThrow();
    } finally {
      close();
    }
  });

  it("a transaction waiting for another process's write lock leaves its own process free, then runs once the lock is released", async () => {
    const { here, other, close } = await twoProcesses();
    try {
      other.sqlite!.exec("BEGIN IMMEDIATE");
      other.sqlite!.prepare("UPDATE products SET stock = 7 WHERE id = 1").run();
      const events: string[] = [];
      const write = here.db.transaction(async (tx) => {
        events.push("began");
        const [row] = await tx.select({ stock: products.stock }).from(products).where(eq(products.id, 1));
        await tx
          .update(products)
          .set({ stock: row.stock - 1 })
          .where(eq(products.id, 1));
      });
      // Meanwhile this process answers: a timer fires, a read outside the transaction returns
      // (what was committed before the other process's write).
      await new Promise((resolve) => setTimeout(resolve, 200));
      events.push("timer");
      const [read] = await here.db.select({ stock: products.stock }).from(products).where(eq(products.id, 1));
      events.push(`read ${read.stock}`);
      expect(events).toEqual(["timer", `read ${read.stock}`]);
      expect(read.stock).not.toBe(7);
      other.sqlite!.exec("COMMIT");
      await write;
      expect(events[2]).toBe("began");
      // It began after the other's commit: it saw the 7 and wrote 6.
      const [after] = await here.db.select({ stock: products.stock }).from(products).where(eq(products.id, 1));
      expect(after.stock).toBe(6);
    } finally {
      close();
    }
  });

  it("a write waits at most the busy timeout for another process's lock, then fails with SQLite's error and writes nothing", async () => {
    const { here, other, close } = await twoProcesses();
    setBusyTimeout(here.sqlite!, 300);
    try {
      other.sqlite!.exec("BEGIN IMMEDIATE");
      const started = Date.now();
      const inTransaction = await here.db
        .transaction(async (tx) => tx.update(products).set({ stock: 0 }).where(eq(products.id, 1)))
        .then(
          () => "written",
          (e: unknown) => String(e),
        );
      const outside = await here.db
        .update(products)
        .set({ stock: 0 })
        .where(eq(products.id, 1))
        .then(
          () => "written",
          (e: unknown) => String((e as { cause?: unknown }).cause ?? e),
        );
      const waited = Date.now() - started;
      expect(inTransaction).toMatch(/database is locked/);
      expect(outside).toMatch(/database is locked/);
      expect(waited).toBeGreaterThanOrEqual(600);
      expect(waited).toBeLessThan(3_000);
      other.sqlite!.exec("ROLLBACK");
      const [row] = await here.db.select({ stock: products.stock }).from(products).where(eq(products.id, 1));
      expect(row.stock).toBeGreaterThan(0);
    } finally {
      close();
    }
  });
});
