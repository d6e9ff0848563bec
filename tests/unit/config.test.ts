import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, DEMO_ADMIN_PASSWORD, readConfig } from "~/config.server";

const dataDir = () => mkdtempSync(path.join(os.tmpdir(), "shop-config-"));

describe("configuration and modes", () => {
  it("runs in demo mode without Stripe keys, with a generated session secret kept in the data folder", () => {
    const dir = dataDir();
    const env = { DATABASE_URL: path.join(dir, "shop.db") };
    const first = readConfig(env);
    expect(first.mode).toBe("demo");
    expect(first.adminPassword).toBe(DEMO_ADMIN_PASSWORD);
    expect(first.sessionSecrets[0]).toMatch(/^[0-9a-f]{64}$/);
    // Kept across restarts.
    expect(readConfig(env).sessionSecrets).toEqual(first.sessionSecrets);
  });

  it("treats empty variables as missing (a copied .env.example stays in demo mode)", () => {
    const config = readConfig({ DATABASE_URL: path.join(dataDir(), "shop.db"), STRIPE_SECRET_KEY: "", STRIPE_PUBLISHABLE_KEY: " " });
    expect(config.mode).toBe("demo");
  });

  it("refuses to start in live mode with one message listing every missing secret", () => {
    const env = { DATABASE_URL: path.join(dataDir(), "shop.db"), STRIPE_SECRET_KEY: "sk_test_x", STRIPE_PUBLISHABLE_KEY: "pk_test_x" };
    expect(() => readConfig(env)).toThrow(ConfigError);
    expect(() => readConfig(env)).toThrow(/STRIPE_WEBHOOK_SECRET, SESSION_SECRET, ADMIN_PASSWORD/);
  });

  it("starts in live mode when every secret is set, and accepts rotated session secrets", () => {
    const config = readConfig({
      DATABASE_URL: path.join(dataDir(), "shop.db"),
      STRIPE_SECRET_KEY: "sk_test_x",
      STRIPE_PUBLISHABLE_KEY: "pk_test_x",
      STRIPE_WEBHOOK_SECRET: "whsec_x",
      SESSION_SECRET: "nouveau-secret, ancien-secret",
      ADMIN_PASSWORD: "un-mot-de-passe-solide",
    });
    expect(config.mode).toBe("live");
    expect(config.sessionSecrets).toEqual(["nouveau-secret", "ancien-secret"]);
    expect(config.stripe.secretKey).toBe("sk_test_x");
  });

  it("rejects an invalid port with a clear message", () => {
    expect(() => readConfig({ DATABASE_URL: path.join(dataDir(), "shop.db"), PORT: "abc" })).toThrow(/PORT/);
  });
});
