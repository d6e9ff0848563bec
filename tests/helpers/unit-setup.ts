import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, afterEach, beforeAll, beforeEach, inject, vi } from "vitest";

/**
 * Each test file gets its own fresh, migrated and seeded database: a SQLite file in a temp
 * folder, or, in the suite's PostgreSQL run (project unit-pg), a new database on the run's
 * throwaway server. DATABASE_URL is set before the test file loads: the tables the services
 * use follow its engine (app/db/schema.ts).
 * An unexpected console.error, or error of the shop's log, fails the test.
 */
const postgresUrl = inject("postgresUrl");
const dir = mkdtempSync(path.join(os.tmpdir(), "shop-unit-"));
let dropDatabase: (() => Promise<void>) | undefined;
if (postgresUrl) {
  const name = `unit_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  process.env.DATABASE_URL = url.toString();
  dropDatabase = async () => {
    const client = new pg.Client({ connectionString: postgresUrl });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.end();
  };
} else {
  process.env.DATABASE_URL = path.join(dir, "shop.db");
}
process.env.ADMIN_USERNAME = "admin";
process.env.ADMIN_PASSWORD = "motdepasse-test-1";
delete process.env.STRIPE_SECRET_KEY;
delete process.env.STRIPE_PUBLISHABLE_KEY;
delete process.env.SHOP_MODE;
// The scheduler's snapshots only where a test asks for them (tests/unit/backups.test.ts).
process.env.BACKUP_EVERY = "0";
// And in this file's temp folder: never in ./data/backups, whatever the engine.
process.env.BACKUP_DIR = path.join(dir, "backups");

// Opened without reading the configuration: a test file may still set what it reads (the emulator's port).
beforeAll(async () => {
  const { openDatabase, setDb } = await import("~/db/client.server");
  setDb(
    await openDatabase(process.env.DATABASE_URL!, {
      adminUsername: process.env.ADMIN_USERNAME!,
      adminPassword: process.env.ADMIN_PASSWORD!,
    }),
  );
});

let errorSpy: ReturnType<typeof vi.spyOn>;
let logErrorSpy: ReturnType<typeof vi.spyOn>;
beforeEach(async () => {
  errorSpy = vi.spyOn(console, "error");
  // The shop's errors go through its logger (app/log.server.ts): unexpected ones fail the test too.
  const { log } = await import("~/log.server");
  logErrorSpy = vi.spyOn(log, "error");
});
afterEach(() => {
  const calls = [...errorSpy.mock.calls, ...logErrorSpy.mock.calls];
  errorSpy.mockRestore();
  logErrorSpy.mockRestore();
  if (calls.length > 0 && !(globalThis as { __allowConsoleError?: boolean }).__allowConsoleError) {
    throw new Error(`Unexpected console.error: ${calls.map((c: unknown[]) => c.map(String).join(" ")).join("\n")}`);
  }
});

afterAll(async () => {
  const { closeDb } = await import("~/db/client.server");
  await closeDb();
  await dropDatabase?.();
  rmSync(dir, { recursive: true, force: true });
});
