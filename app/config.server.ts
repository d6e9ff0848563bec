import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { DatabaseUrlError, parseDatabaseUrl, type DatabaseTarget } from "~/db/database-url";
import { BRAND } from "~/lib/meta";
import type { PublicConfig, ShopMode } from "~/lib/public-config";

/**
 * Environment, read and validated once at start-up. The mode is explicit:
 * - SHOP_MODE=demo: demo mode (payments go to the local emulator); Stripe keys are refused.
 * - SHOP_MODE=live, or no SHOP_MODE with Stripe keys: live mode; every secret is required.
 * - neither: demo mode in development and tests, but a production start (NODE_ENV=production)
 *   refuses to start, so a server that lost its Stripe keys never falls back to the demo.
 */

export const DEMO_ADMIN_PASSWORD = "admin-demo-2026";

const PROCESSES_EXPECTED = "attendu un nombre de processus, de 1 à 64";
const POOL_EXPECTED = "attendu un nombre de connexions, de 1 à 100";
const KEEP_EXPECTED = "attendu un nombre de sauvegardes à garder, de 1 à 1000";
const EVERY_EXPECTED = "attendu un nombre d'heures entre deux sauvegardes, de 0 (aucune) à 8760 (un an)";

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  SHOP_MODE: z.enum(["demo", "live"], { error: 'attendu "demo" ou "live"' }).optional(),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  PUBLIC_URL: z.string().url().optional(),
  DATABASE_URL: z.string().min(1).default("./data/shop.db"),
  /** The shop's own files besides a SQLite database (the demo's generated secrets): by default the SQLite file's folder, or ./data. */
  DATA_DIR: z.string().optional(),
  SESSION_SECRET: z.string().optional(),
  ADMIN_USERNAME: z.string().min(1).default("admin"),
  ADMIN_PASSWORD: z.string().optional(),
  STRIPE_SECRET_KEY: z.string().optional(),
  STRIPE_PUBLISHABLE_KEY: z.string().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  STRIPE_EMULATOR_PORT: z.coerce.number().int().min(1).max(65535).default(12111),
  /** 1: each subscription customer on its own Stripe test clock (test keys only; always on in demo mode). */
  STRIPE_TEST_CLOCKS: z.enum(["0", "1"], { error: 'attendu "1" (activées) ou "0"' }).optional(),
  /** smtp://user:pass@host:port or smtps://… (services/email/transport.server.ts); required in live mode. */
  SMTP_URL: z
    .string()
    .refine((v) => /^smtps?:\/\/[^/?#]+/i.test(v), { error: "attendu smtp://utilisateur:motdepasse@hôte:port ou smtps://…" })
    .optional(),
  /** The From of every email, e.g. `Maison Éclat <commandes@maison-eclat.fr>`; by default the site email of the settings. */
  MAIL_FROM: z.string().optional(),
  /** Reverse proxies in front of the server (0: clients connect directly); see http/client-address.server.ts. */
  TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
  /** Server processes sharing the port and the database (server/index.js); by default one per core. */
  WEB_CONCURRENCY: z.coerce
    .number({ error: PROCESSES_EXPECTED })
    .int({ error: PROCESSES_EXPECTED })
    .min(1, { error: PROCESSES_EXPECTED })
    .max(64, { error: PROCESSES_EXPECTED })
    .optional(),
  /** Connections of each process's PostgreSQL pool (app/db/postgres.server.ts); unused on SQLite. */
  DATABASE_POOL_SIZE: z.coerce
    .number({ error: POOL_EXPECTED })
    .int({ error: POOL_EXPECTED })
    .min(1, { error: POOL_EXPECTED })
    .max(100, { error: POOL_EXPECTED })
    .default(10),
  /** Where `npm run db:backup` and the scheduler write the snapshots (app/services/backups): by default DATA_DIR/backups. */
  BACKUP_DIR: z.string().optional(),
  /** How many snapshots are kept; older ones are deleted after each new one. */
  BACKUP_KEEP: z.coerce
    .number({ error: KEEP_EXPECTED })
    .int({ error: KEEP_EXPECTED })
    .min(1, { error: KEEP_EXPECTED })
    .max(1000, { error: KEEP_EXPECTED })
    .default(14),
  /** Hours between two snapshots taken by the scheduler (0: none; decimals allowed, 0.5 is every 30 minutes). */
  BACKUP_EVERY: z.coerce
    .number({ error: EVERY_EXPECTED })
    .min(0, { error: EVERY_EXPECTED })
    .max(8760, { error: EVERY_EXPECTED })
    .default(24),
});

export type Mode = ShopMode;

export type AppConfig = {
  mode: Mode;
  nodeEnv: "development" | "production" | "test";
  port: number;
  publicUrl: string;
  /** Where DATABASE_URL points (db/database-url.ts). */
  database: DatabaseTarget;
  /** The SQLite file (resolved), or ":memory:"; a PostgreSQL database is refused when the database opens (db/client.server.ts). */
  databasePath: string;
  dataDir: string;
  sessionSecrets: string[];
  adminUsername: string;
  adminPassword: string;
  stripe: {
    secretKey: string;
    publishableKey: string;
    webhookSecret: string;
    emulatorPort: number;
    /**
     * Each subscription customer is created on its own test clock, which the admin can advance
     * to simulate the next renewal: always in demo mode, opt-in (STRIPE_TEST_CLOCKS=1) with test keys.
     */
    testClocks: boolean;
  };
  trustProxy: number;
  /** Server processes (WEB_CONCURRENCY): 1 serves from the one process; more, from as many workers. */
  processes: number;
  /** Connections of each process's PostgreSQL pool (DATABASE_POOL_SIZE). */
  databasePoolSize: number;
  /** null: demo mode's mailbox (the emails stay in /admin/emails); never null in live mode. */
  smtpUrl: string | null;
  mailFrom: string | null;
  /** The database's snapshots (app/services/backups). */
  backups: {
    /** BACKUP_DIR, resolved. */
    dir: string;
    /** BACKUP_KEEP: snapshots kept. */
    keep: number;
    /** BACKUP_EVERY: hours between two snapshots of the scheduler; 0 when it takes none. */
    everyHours: number;
  };
};

function blank(value: string | undefined) {
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}

function loadDotEnv() {
  const file = path.resolve(process.cwd(), ".env");
  if (existsSync(file) && typeof process.loadEnvFile === "function") {
    process.loadEnvFile(file);
  }
}

/** Shortest session secret accepted in live mode (each of the rotated ones). */
export const MIN_SESSION_SECRET_LENGTH = 32;
/** Shortest admin password accepted in live mode. */
export const MIN_ADMIN_PASSWORD_LENGTH = 12;

/** Passwords tried first by anyone guessing, compared without case, spaces or punctuation. */
const COMMON_PASSWORDS = new Set(
  [
    "motdepasse",
    "motdepasse123",
    "motdepasse1234",
    "password",
    "password123",
    "password1234",
    "passw0rd",
    "123456789012",
    "1234567890123",
    "12345678901234",
    "000000000000",
    "111111111111",
    "admin",
    "admin123456789",
    "administrateur",
    "administrator",
    "azerty",
    "azertyuiop",
    "azertyuiopqs",
    "azerty123456",
    "qwerty",
    "qwertyuiop",
    "qwerty123456",
    "bonjour",
    "bonjour123456",
    "soleil",
    "changeme",
    "changezmoi",
    "iloveyou",
    "jetaime",
    "letmein",
    "welcome",
    "bienvenue",
    "boutique",
    "maboutique",
    "secret",
    // The demo's, printed in the README and on the demo's login page.
    DEMO_ADMIN_PASSWORD,
  ].map(normalizedPassword),
);

/** Lower case, no accents, letters and digits only: "Maison-Éclat" and "maisoneclat" compare equal. */
function normalizedPassword(value: string) {
  return value
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "");
}

/** True when `value` is `word` repeated one or more times ("adminadmin"). */
function repeats(value: string, word: string) {
  return word.length > 0 && value.length % word.length === 0 && word.repeat(value.length / word.length) === value;
}

/** What is wrong with the secrets of a live shop, in French; empty when they are strong enough. */
export function weakSecretProblems(sessionSecret: string, adminUsername: string, adminPassword: string): string[] {
  const problems: string[] = [];
  const secrets = sessionSecret
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (secrets.length === 0 || secrets.some((s) => s.length < MIN_SESSION_SECRET_LENGTH)) {
    problems.push(
      `SESSION_SECRET trop court : chaque secret (séparés par des virgules) doit faire au moins ${MIN_SESSION_SECRET_LENGTH} caractères. ` +
        "Générez-en un avec `openssl rand -base64 48` ou " +
        "`node -e \"console.log(require('crypto').randomBytes(48).toString('base64'))\"`.",
    );
  }
  const password = normalizedPassword(adminPassword);
  if (adminPassword.length < MIN_ADMIN_PASSWORD_LENGTH) {
    problems.push(`ADMIN_PASSWORD trop court : au moins ${MIN_ADMIN_PASSWORD_LENGTH} caractères.`);
  } else if (
    COMMON_PASSWORDS.has(password) ||
    [normalizedPassword(BRAND), normalizedPassword(adminUsername)].some((word) => repeats(password, word))
  ) {
    problems.push(
      "ADMIN_PASSWORD trop facile à deviner (mot de passe courant ou de la démo, nom de la boutique ou identifiant) : choisissez-en un autre, " +
        "par exemple une phrase de plusieurs mots.",
    );
  }
  return problems;
}

/** A demo-only secret generated once and kept in the data folder, so sessions survive restarts. */
function persistedDemoSecret(dataDir: string, name: string, prefix = "") {
  const file = path.join(dataDir, name);
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  const secret = prefix + randomBytes(32).toString("hex");
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/** A configuration that must stop the start-up; its message is meant for the person starting the shop. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

type Env = z.infer<typeof envSchema>;

/** DATABASE_URL's target; an unknown scheme stops the start-up before any folder is made. */
function databaseTarget(value: string): DatabaseTarget {
  try {
    return parseDatabaseUrl(value);
  } catch (error) {
    if (error instanceof DatabaseUrlError) throw new ConfigError(error.message);
    throw error;
  }
}

/** The mode from SHOP_MODE and the Stripe keys (see the comment at the top of this file). */
function resolveMode(e: Env): Mode {
  const keys = [
    ["STRIPE_SECRET_KEY", e.STRIPE_SECRET_KEY],
    ["STRIPE_PUBLISHABLE_KEY", e.STRIPE_PUBLISHABLE_KEY],
  ]
    .filter(([, v]) => v)
    .map(([k]) => k);
  if (e.SHOP_MODE === "demo") {
    if (keys.length > 0) {
      throw new ConfigError(
        `Configuration ambiguë : SHOP_MODE=demo mais ${keys.join(" et ")} ${keys.length > 1 ? "sont définies" : "est définie"}. ` +
          "Retirez les clés Stripe pour la démo, ou utilisez SHOP_MODE=live pour la production.",
      );
    }
    return "demo";
  }
  if (e.SHOP_MODE === "live" || keys.length > 0) return "live";
  if (e.NODE_ENV === "production") {
    throw new ConfigError(
      "Mode de la boutique non défini : ni SHOP_MODE ni clés Stripe. " +
        "Pour la démo, définissez SHOP_MODE=demo (c'est ce que fait npm start) ; pour la production, " +
        "définissez SHOP_MODE=live et les clés Stripe (STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY, STRIPE_WEBHOOK_SECRET) " +
        "avec SESSION_SECRET et ADMIN_PASSWORD.",
    );
  }
  return "demo";
}

export function readConfig(env: Record<string, string | undefined>): AppConfig {
  const parsed = envSchema.safeParse(Object.fromEntries(Object.entries(env).map(([k, v]) => [k, blank(v)])));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  - ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Configuration invalide :\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  const mode = resolveMode(e);
  const live = mode === "live";
  const database = databaseTarget(e.DATABASE_URL);
  const databasePath =
    database.dialect === "postgresql" || database.path === ":memory:" ? ":memory:" : path.resolve(database.path);
  const dataDir = e.DATA_DIR
    ? path.resolve(e.DATA_DIR)
    : databasePath === ":memory:"
      ? path.resolve("data")
      : path.dirname(databasePath);

  if (live) {
    const missing = [
      ["STRIPE_SECRET_KEY", e.STRIPE_SECRET_KEY],
      ["STRIPE_PUBLISHABLE_KEY", e.STRIPE_PUBLISHABLE_KEY],
      ["STRIPE_WEBHOOK_SECRET", e.STRIPE_WEBHOOK_SECRET],
      ["SESSION_SECRET", e.SESSION_SECRET],
      ["ADMIN_PASSWORD", e.ADMIN_PASSWORD],
      ["SMTP_URL", e.SMTP_URL],
    ]
      .filter(([, v]) => !v)
      .map(([k]) => k);
    if (missing.length > 0) {
      const why = e.SHOP_MODE === "live" ? "SHOP_MODE=live" : "clés Stripe présentes";
      throw new ConfigError(
        `Mode production (${why}) : variables manquantes : ${missing.join(", ")}. ` +
          "Définissez-les, ou lancez la démo avec SHOP_MODE=demo et sans clés Stripe.",
      );
    }
    const weak = weakSecretProblems(e.SESSION_SECRET!, e.ADMIN_USERNAME, e.ADMIN_PASSWORD!);
    if (weak.length > 0) {
      throw new ConfigError(`Mode production : secrets trop faibles :\n${weak.map((p) => `  - ${p}`).join("\n")}`);
    }
  }

  const testClocks = e.STRIPE_TEST_CLOCKS === "1";
  if (live && testClocks && !e.STRIPE_SECRET_KEY!.startsWith("sk_test_")) {
    throw new ConfigError(
      "STRIPE_TEST_CLOCKS=1 n'est possible qu'avec une clé Stripe de test (sk_test_…) : les horloges de test n'existent pas " +
        "avec une clé de production. Retirez STRIPE_TEST_CLOCKS, ou utilisez vos clés de test.",
    );
  }

  mkdirSync(dataDir, { recursive: true });
  const sessionSecrets = (e.SESSION_SECRET ?? persistedDemoSecret(dataDir, ".session-secret"))
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

  return {
    mode,
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ""),
    database,
    databasePath,
    dataDir,
    sessionSecrets,
    adminUsername: e.ADMIN_USERNAME,
    adminPassword: e.ADMIN_PASSWORD ?? DEMO_ADMIN_PASSWORD,
    stripe: live
      ? {
          secretKey: e.STRIPE_SECRET_KEY!,
          publishableKey: e.STRIPE_PUBLISHABLE_KEY!,
          webhookSecret: e.STRIPE_WEBHOOK_SECRET!,
          emulatorPort: e.STRIPE_EMULATOR_PORT,
          testClocks,
        }
      : {
          // The emulator's secret key: random per data folder, never sent to the browser.
          secretKey: persistedDemoSecret(dataDir, ".stripe-emulator-key", "sk_test_emulator_"),
          publishableKey: "pk_test_emulator",
          webhookSecret: e.STRIPE_WEBHOOK_SECRET ?? persistedDemoSecret(dataDir, ".webhook-secret"),
          emulatorPort: e.STRIPE_EMULATOR_PORT,
          testClocks: true,
        },
    trustProxy: e.TRUST_PROXY,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    processes: e.WEB_CONCURRENCY ?? Math.min(os.availableParallelism(), 64),
    smtpUrl: e.SMTP_URL ?? null,
    mailFrom: e.MAIL_FROM ?? null,
    backups: {
      dir: e.BACKUP_DIR ? path.resolve(e.BACKUP_DIR) : path.join(dataDir, "backups"),
      keep: e.BACKUP_KEEP,
      everyHours: e.BACKUP_EVERY,
    },
  };
}

let cached: AppConfig | undefined;

export function getConfig(): AppConfig {
  if (!cached) {
    loadDotEnv();
    cached = readConfig(process.env);
  }
  return cached;
}

/** The only configuration that reaches the browser. */
export function getPublicConfig(): PublicConfig {
  const config = getConfig();
  return { mode: config.mode, stripePublishableKey: config.stripe.publishableKey, publicUrl: config.publicUrl };
}
