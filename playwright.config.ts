import { defineConfig, devices } from "@playwright/test";
import { chromiumPath as findChromium } from "./tests/helpers/chromium";

const port = Number(process.env.E2E_PORT ?? 3100);
const buildName = process.env.SHOP_BUILD_NAME ?? "build";
/** The e2e server's data folder: its SQLite file and the demo secrets (the emulator's key among them). */
export const dataDir = `tests/.tmp/e2e-${port}`;
/** The e2e server's Stripe emulator (demo mode). */
export const emulatorURL = `http://127.0.0.1:${port + 11}`;
export const baseURL = `http://127.0.0.1:${port}`;
/**
 * The e2e server's database: a SQLite file in its data folder, or with E2E_DATABASE=postgresql a
 * throwaway PostgreSQL server on its own port (scripts/postgres/throwaway.js), made for the run
 * and removed after it.
 */
export const e2eOnPostgres = process.env.E2E_DATABASE === "postgresql";
export const databaseUrl = e2eOnPostgres ? `postgres://postgres@127.0.0.1:${port + 12}/shop` : `${dataDir}/shop.db`;
const serverCommand = `node server/index.js ./${buildName}/server/index.js`;

/** Debian's Chromium (tests/helpers/chromium.ts). */
const chromiumPath = findChromium();

const chromium = {
  executablePath: chromiumPath,
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
  ],
};

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  workers: process.env.CI ? 2 : 2,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: [["list"], ["json", { outputFile: e2eOnPostgres ? "reports/e2e-postgresql.json" : "reports/e2e.json" }]],
  use: {
    baseURL,
    locale: "fr-FR",
    timezoneId: "Europe/Paris",
    trace: "retain-on-failure",
    launchOptions: chromium,
  },
  projects: [
    { name: "js", use: { ...devices["Desktop Chrome"], launchOptions: chromium } },
    { name: "no-js", use: { ...devices["Desktop Chrome"], javaScriptEnabled: false, launchOptions: chromium } },
  ],
  webServer: {
    command: `rm -rf ${dataDir} && ${e2eOnPostgres ? `node scripts/postgres/throwaway.js --port ${port + 12} ${serverCommand}` : serverCommand}`,
    // On PostgreSQL, the throwaway server is stopped and removed once the shop has ended.
    ...(e2eOnPostgres ? { gracefulShutdown: { signal: "SIGTERM" as const, timeout: 15_000 } } : {}),
    url: `${baseURL}/`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      HOST: "127.0.0.1",
      PORT: String(port),
      NODE_ENV: "production",
      SHOP_MODE: "demo",
      // Test data is made from many client addresses (tests/helpers/e2e.ts, testShopperHeaders).
      TRUST_PROXY: "1",
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      PUBLIC_URL: baseURL,
      ADMIN_USERNAME: "admin",
      ADMIN_PASSWORD: "motdepasse-e2e-1",
      STRIPE_EMULATOR_PORT: new URL(emulatorURL).port,
      STRIPE_SECRET_KEY: "",
      STRIPE_PUBLISHABLE_KEY: "",
    },
  },
});
