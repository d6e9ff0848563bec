import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { canBind, freePort, spawnShop, type ShopProcess } from "./shop-process";

/**
 * DATABASE_URL at start-up (server/index.js, one process or a cluster primary): an unreachable
 * PostgreSQL server or an unknown scheme stops the start once, with one French message and exit code 1, before
 * anything listens or any folder is made.
 */

const started: ShopProcess[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((p) => p.dispose()));
});

async function refusedStart(env: Record<string, string>) {
  const shop = await spawnShop({ SHOP_MODE: "demo", ...env });
  started.push(shop);
  const exit = await shop.exited;
  expect(exit.code).toBe(1);
  expect(await canBind(shop.port)).toBe(true);
  expect(await canBind(shop.emulatorPort)).toBe(true);
  // One message, no stack trace; no folder named after the URL's scheme.
  expect(shop.stderr().trim().split("\n")).toHaveLength(1);
  expect(shop.stderr()).not.toMatch(/\bat .*\.js:\d+/);
  expect(readdirSync(process.cwd()).filter((name) => name.includes(":"))).toEqual([]);
  return shop.stderr().trim();
}

describe("DATABASE_URL at start-up", () => {
  for (const processes of ["1", "2"]) {
    it(`with ${processes} process(es), a PostgreSQL server it cannot reach stops the start, naming it without its password`, async () => {
      const closed = await freePort();
      const message = await refusedStart({
        WEB_CONCURRENCY: processes,
        DATABASE_URL: `postgres://boutique:secret@127.0.0.1:${closed}/boutique`,
      });
      expect(message).toBe(
        `Connexion à PostgreSQL impossible (postgres://boutique:***@127.0.0.1:${closed}/boutique) : connect ECONNREFUSED 127.0.0.1:${closed}`,
      );
    });

    it(`with ${processes} process(es), an unknown scheme stops the start, naming the accepted forms`, async () => {
      const message = await refusedStart({ WEB_CONCURRENCY: processes, DATABASE_URL: "postgress://127.0.0.1/boutique" });
      expect(message).toMatch(/^DATABASE_URL : le schéma « postgress: » n'est pas pris en charge\. Formes acceptées : /);
      expect(message).toContain("postgresql://");
    });
  }

  it("still takes a SQLite file as a file: URL", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "shop-file-url-"));
    try {
      const shop = await spawnShop({ SHOP_MODE: "demo", DATABASE_URL: pathToFileURL(path.join(dir, "ma boutique.db")).href });
      started.push(shop);
      await shop.ready();
      expect(existsSync(path.join(dir, "ma boutique.db"))).toBe(true);
    } finally {
      await Promise.all(started.splice(0).map((p) => p.dispose()));
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
