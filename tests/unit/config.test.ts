import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, DEMO_ADMIN_PASSWORD, readConfig } from "~/config.server";

const dataDir = () => mkdtempSync(path.join(os.tmpdir(), "shop-config-"));
const db = () => path.join(dataDir(), "shop.db");

const LIVE_SECRETS = {
  STRIPE_SECRET_KEY: "sk_test_x",
  STRIPE_PUBLISHABLE_KEY: "pk_test_x",
  STRIPE_WEBHOOK_SECRET: "whsec_x",
  SESSION_SECRET: "nouveau-secret-de-session-assez-long-1, ancien-secret-de-session-assez-long-2",
  ADMIN_PASSWORD: "un-mot-de-passe-solide",
  SMTP_URL: "smtp://boutique:secret@smtp.example.fr:587",
};

/** The ConfigError a configuration is refused with. */
function refusal(env: Record<string, string>) {
  try {
    readConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error("the configuration was accepted");
}

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

  it("gives the demo emulator a random secret key per data folder, kept in that folder", () => {
    const dir = dataDir();
    const env = { SHOP_MODE: "demo", DATABASE_URL: path.join(dir, "shop.db") };
    const key = readConfig(env).stripe.secretKey;
    expect(key).toMatch(/^sk_test_emulator_[0-9a-f]{64}$/);
    expect(readFileSync(path.join(dir, ".stripe-emulator-key"), "utf8")).toBe(key);
    expect(readConfig(env).stripe.secretKey).toBe(key);
    expect(readConfig({ SHOP_MODE: "demo", DATABASE_URL: db() }).stripe.secretKey).not.toBe(key);
    // The browser's key stays the public one.
    expect(readConfig(env).stripe.publishableKey).toBe("pk_test_emulator");
  });

  it("treats empty variables as missing (a copied .env.example stays in demo mode)", () => {
    const config = readConfig({ DATABASE_URL: db(), SHOP_MODE: "", STRIPE_SECRET_KEY: "", STRIPE_PUBLISHABLE_KEY: " " });
    expect(config.mode).toBe("demo");
  });

  it("SHOP_MODE=demo is demo mode, in production too", () => {
    expect(readConfig({ DATABASE_URL: db(), SHOP_MODE: "demo" }).mode).toBe("demo");
    expect(readConfig({ DATABASE_URL: db(), SHOP_MODE: "demo", NODE_ENV: "production" }).mode).toBe("demo");
  });

  it("SHOP_MODE=demo with Stripe keys is ambiguous: refused with one message", () => {
    const both = refusal({ DATABASE_URL: db(), SHOP_MODE: "demo", ...LIVE_SECRETS });
    expect(both).toMatch(
      /^Configuration ambiguë : SHOP_MODE=demo mais STRIPE_SECRET_KEY et STRIPE_PUBLISHABLE_KEY sont définies\./,
    );
    expect(both).toContain("Retirez les clés Stripe pour la démo, ou utilisez SHOP_MODE=live");
    // One key is enough to be ambiguous.
    expect(refusal({ DATABASE_URL: db(), SHOP_MODE: "demo", STRIPE_PUBLISHABLE_KEY: "pk_test_x" })).toContain(
      "SHOP_MODE=demo mais STRIPE_PUBLISHABLE_KEY est définie",
    );
  });

  it("SHOP_MODE=live without the secrets is refused with one message listing every missing one", () => {
    const message = refusal({ DATABASE_URL: db(), SHOP_MODE: "live" });
    expect(message).toBe(
      "Mode production (SHOP_MODE=live) : variables manquantes : STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY, " +
        "STRIPE_WEBHOOK_SECRET, SESSION_SECRET, ADMIN_PASSWORD, SMTP_URL. Définissez-les, ou lancez la démo avec SHOP_MODE=demo et sans clés Stripe.",
    );
  });

  it("Stripe keys without SHOP_MODE mean live mode, with the same check of every secret", () => {
    const env = { DATABASE_URL: db(), STRIPE_SECRET_KEY: "sk_test_x", STRIPE_PUBLISHABLE_KEY: "pk_test_x" };
    expect(refusal(env)).toMatch(
      /^Mode production \(clés Stripe présentes\) : variables manquantes : STRIPE_WEBHOOK_SECRET, SESSION_SECRET, ADMIN_PASSWORD, SMTP_URL\./,
    );
    expect(refusal({ ...env, NODE_ENV: "production" })).toContain(
      "STRIPE_WEBHOOK_SECRET, SESSION_SECRET, ADMIN_PASSWORD, SMTP_URL",
    );
  });

  it("starts in live mode when every secret is set, and accepts rotated session secrets", () => {
    for (const mode of [{}, { SHOP_MODE: "live" }]) {
      const config = readConfig({ DATABASE_URL: db(), NODE_ENV: "production", ...LIVE_SECRETS, ...mode });
      expect(config.mode).toBe("live");
      expect(config.sessionSecrets).toEqual(["nouveau-secret-de-session-assez-long-1", "ancien-secret-de-session-assez-long-2"]);
      expect(config.stripe.secretKey).toBe("sk_test_x");
      expect(config.adminPassword).toBe("un-mot-de-passe-solide");
    }
  });

  it("refuses in live mode a session secret under 32 characters, each rotated one included, saying how to make one", () => {
    const live = { DATABASE_URL: db(), SHOP_MODE: "live", ...LIVE_SECRETS };
    const short = refusal({ ...live, SESSION_SECRET: "a" });
    expect(short).toContain("SESSION_SECRET");
    expect(short).toContain("32 caractères");
    expect(short).toContain("openssl rand -base64 48");
    // The old secret of a rotation is checked too.
    expect(refusal({ ...live, SESSION_SECRET: `${"n".repeat(32)},court` })).toContain("SESSION_SECRET");
    expect(refusal({ ...live, SESSION_SECRET: " , " })).toContain("SESSION_SECRET");
    expect(readConfig({ ...live, SESSION_SECRET: "s".repeat(32) }).sessionSecrets).toEqual(["s".repeat(32)]);
  });

  it("refuses in live mode an admin password that is short, common, or the shop's or the username's name", () => {
    const live = { DATABASE_URL: db(), SHOP_MODE: "live", ...LIVE_SECRETS };
    for (const weak of [
      "b",
      "court-11car",
      "MotDePasse",
      "123456789012",
      "Password1234",
      "azertyuiopqs",
      "maison-eclat",
      "MaisonEclatMaisonEclat",
      "adminadminadmin",
      DEMO_ADMIN_PASSWORD,
    ]) {
      const message = refusal({ ...live, ADMIN_PASSWORD: weak });
      expect(message, weak).toContain("ADMIN_PASSWORD");
    }
    expect(refusal({ ...live, ADMIN_USERNAME: "gerante", ADMIN_PASSWORD: "geranteGERANTE" })).toContain("ADMIN_PASSWORD");
    expect(refusal({ ...live, ADMIN_PASSWORD: "b" })).toContain("12 caractères");
    // Both problems in one message.
    const both = refusal({ ...live, SESSION_SECRET: "a", ADMIN_PASSWORD: "b" });
    expect(both).toContain("SESSION_SECRET");
    expect(both).toContain("ADMIN_PASSWORD");
    expect(readConfig({ ...live, ADMIN_PASSWORD: "cheval-agrafe-2026" }).adminPassword).toBe("cheval-agrafe-2026");
  });

  it("keeps the demo mode free of those rules", () => {
    const config = readConfig({ DATABASE_URL: db(), SHOP_MODE: "demo", SESSION_SECRET: "a", ADMIN_PASSWORD: "b" });
    expect(config.sessionSecrets).toEqual(["a"]);
    expect(config.adminPassword).toBe("b");
  });

  it("puts subscription customers on test clocks always in demo mode, and with real Stripe only on request and with test keys", () => {
    expect(readConfig({ DATABASE_URL: db() }).stripe.testClocks).toBe(true);
    const live = { DATABASE_URL: db(), NODE_ENV: "production", ...LIVE_SECRETS };
    expect(readConfig(live).stripe.testClocks).toBe(false);
    expect(readConfig({ ...live, STRIPE_TEST_CLOCKS: "0" }).stripe.testClocks).toBe(false);
    expect(readConfig({ ...live, STRIPE_TEST_CLOCKS: "1" }).stripe.testClocks).toBe(true);
    const message = refusal({
      ...live,
      STRIPE_SECRET_KEY: "sk_live_x",
      STRIPE_PUBLISHABLE_KEY: "pk_live_x",
      STRIPE_TEST_CLOCKS: "1",
    });
    expect(message).toMatch(/^STRIPE_TEST_CLOCKS=1 n'est possible qu'avec une clé Stripe de test \(sk_test_…\)/);
    expect(refusal({ ...live, STRIPE_TEST_CLOCKS: "oui" })).toContain('STRIPE_TEST_CLOCKS: attendu "1" (activées) ou "0"');
  });

  it("a production start with neither SHOP_MODE nor Stripe keys is refused: it never falls back to the demo", () => {
    const message = refusal({ DATABASE_URL: db(), NODE_ENV: "production" });
    expect(message).toMatch(/^Mode de la boutique non défini : ni SHOP_MODE ni clés Stripe\./);
    expect(message).toContain("Pour la démo, définissez SHOP_MODE=demo");
    expect(message).toContain("pour la production, définissez SHOP_MODE=live et les clés Stripe");
    // A webhook secret or a session secret alone does not choose a mode either.
    expect(refusal({ DATABASE_URL: db(), NODE_ENV: "production", STRIPE_WEBHOOK_SECRET: "whsec_x", SESSION_SECRET: "s" })).toBe(
      message,
    );
  });

  it("outside production (remix dev, tests) no SHOP_MODE and no keys still mean demo", () => {
    expect(readConfig({ DATABASE_URL: db() }).mode).toBe("demo");
    expect(readConfig({ DATABASE_URL: db(), NODE_ENV: "development" }).mode).toBe("demo");
    expect(readConfig({ DATABASE_URL: db(), NODE_ENV: "test" }).mode).toBe("demo");
  });

  it("rejects an unknown SHOP_MODE or an invalid port with a clear message", () => {
    expect(refusal({ DATABASE_URL: db(), SHOP_MODE: "production" })).toBe(
      'Configuration invalide :\n  - SHOP_MODE: attendu "demo" ou "live"',
    );
    expect(() => readConfig({ DATABASE_URL: db(), PORT: "abc" })).toThrow(/PORT/);
  });

  it("runs one process per core unless WEB_CONCURRENCY says how many (1 to 64)", () => {
    expect(readConfig({ DATABASE_URL: db() }).processes).toBe(Math.min(os.availableParallelism(), 64));
    expect(readConfig({ DATABASE_URL: db(), WEB_CONCURRENCY: "" }).processes).toBe(Math.min(os.availableParallelism(), 64));
    expect(readConfig({ DATABASE_URL: db(), WEB_CONCURRENCY: "1" }).processes).toBe(1);
    expect(readConfig({ DATABASE_URL: db(), WEB_CONCURRENCY: "3" }).processes).toBe(3);
    for (const wrong of ["0", "65", "1,5", "deux"]) {
      expect(refusal({ DATABASE_URL: db(), WEB_CONCURRENCY: wrong })).toBe(
        "Configuration invalide :\n  - WEB_CONCURRENCY: attendu un nombre de processus, de 1 à 64",
      );
    }
  });

  it("reads the operations' settings: METRICS_TOKEN (at least 16 characters), LOG_FORMAT, LOG_LEVEL, SHUTDOWN_DRAIN_MS", () => {
    const defaults = readConfig({ DATABASE_URL: db() });
    expect(defaults.metricsToken).toBeUndefined();
    expect(defaults.shutdownDrainMs).toBe(0);
    const set = readConfig({ DATABASE_URL: db(), METRICS_TOKEN: "jeton-des-metriques-0123", SHUTDOWN_DRAIN_MS: "5000" });
    expect(set.metricsToken).toBe("jeton-des-metriques-0123");
    expect(set.shutdownDrainMs).toBe(5000);
    expect(refusal({ DATABASE_URL: db(), METRICS_TOKEN: "court" })).toBe(
      "Configuration invalide :\n  - METRICS_TOKEN: attendu un jeton d'au moins 16 caractères",
    );
    expect(refusal({ DATABASE_URL: db(), LOG_FORMAT: "texte" })).toBe(
      'Configuration invalide :\n  - LOG_FORMAT: attendu "json" ou "pretty"',
    );
    expect(refusal({ DATABASE_URL: db(), LOG_LEVEL: "bavard" })).toBe(
      "Configuration invalide :\n  - LOG_LEVEL: attendu fatal, error, warn, info, debug, trace ou silent",
    );
    expect(refusal({ DATABASE_URL: db(), SHUTDOWN_DRAIN_MS: "-1" })).toBe(
      "Configuration invalide :\n  - SHUTDOWN_DRAIN_MS: attendu un délai en millisecondes, de 0 à 60000",
    );
  });

  it("gives each process a PostgreSQL pool of 10 connections unless DATABASE_POOL_SIZE says how many (1 to 100)", () => {
    expect(readConfig({ DATABASE_URL: db() }).databasePoolSize).toBe(10);
    expect(readConfig({ DATABASE_URL: db(), DATABASE_POOL_SIZE: "" }).databasePoolSize).toBe(10);
    expect(readConfig({ DATABASE_URL: db(), DATABASE_POOL_SIZE: "4" }).databasePoolSize).toBe(4);
    for (const wrong of ["0", "101", "2,5", "dix"]) {
      expect(refusal({ DATABASE_URL: db(), DATABASE_POOL_SIZE: wrong })).toBe(
        "Configuration invalide :\n  - DATABASE_POOL_SIZE: attendu un nombre de connexions, de 1 à 100",
      );
    }
  });
});
