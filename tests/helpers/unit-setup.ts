import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeEach, vi } from "vitest";

/**
 * Each test file gets its own fresh, migrated and seeded SQLite database in a temp folder.
 * An unexpected console.error fails the test.
 */
const dir = mkdtempSync(path.join(os.tmpdir(), "shop-unit-"));
process.env.DATABASE_URL = path.join(dir, "shop.db");
process.env.ADMIN_USERNAME = "admin";
process.env.ADMIN_PASSWORD = "motdepasse-test-1";
delete process.env.STRIPE_SECRET_KEY;
delete process.env.STRIPE_PUBLISHABLE_KEY;
delete process.env.SHOP_MODE;

let errorSpy: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  errorSpy = vi.spyOn(console, "error");
});
afterEach(() => {
  const calls = errorSpy.mock.calls;
  errorSpy.mockRestore();
  if (calls.length > 0 && !(globalThis as { __allowConsoleError?: boolean }).__allowConsoleError) {
    throw new Error(`Unexpected console.error: ${calls.map((c: unknown[]) => c.map(String).join(" ")).join("\n")}`);
  }
});

afterAll(async () => {
  const { setDb } = await import("~/db/client.server");
  globalThis.__shopDb?.sqlite.close();
  setDb(undefined);
  rmSync(dir, { recursive: true, force: true });
});
