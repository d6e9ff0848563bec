import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openDatabase } from "~/db/client.server";
import { dialect, products, siteSettings, users } from "~/db/schema";
import { verifyPassword } from "~/lib/passwords.server";

describe.skipIf(dialect !== "sqlite")("database start-up on SQLite", () => {
  it("migrates, uses WAL, and seeds product 1, the admin and the settings idempotently", async () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), "shop-db-")), "shop.db");
    const options = { adminUsername: "gerante", adminPassword: "secret-de-test-42" };
    const first = await openDatabase(file, options);
    expect(first.sqlite!.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(first.sqlite!.pragma("busy_timeout", { simple: true })).toBe(5000);
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

describe.skipIf(dialect !== "sqlite")("SQLite transactions shared by several processes", () => {
  it("take the write lock when they begin, so a second process's write waits for them", async () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), "shop-db-")), "shop.db");
    const options = { adminUsername: "admin", adminPassword: "motdepasse-test-1" };
    const first = await openDatabase(file, options);
    const second = await openDatabase(file, options);
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
      first.sqlite!.close();
      second.sqlite!.close();
    }
  });
});
