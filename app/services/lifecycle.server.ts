import { getConfig } from "~/config.server";
import { closeDb, getDb } from "~/db/client.server";
import { ensureStripeEmulator, stopStripeEmulator } from "~/services/stripe.server";

/**
 * Start and stop of the shop process, called by the server entry (server/index.js) through
 * app/entry.server.tsx: nothing is served before startShop() has succeeded.
 */

/**
 * Validates the configuration (a ConfigError explains what to fix), opens the database
 * (migrations, seed) and, in demo mode, starts the Stripe emulator on STRIPE_EMULATOR_PORT.
 */
export async function startShop() {
  const config = getConfig();
  getDb();
  if (config.mode === "demo") await ensureStripeEmulator();
  return { mode: config.mode, port: config.port };
}

/** Stops the emulator and closes the database; the HTTP server is closed before. */
export async function stopShop() {
  await stopStripeEmulator();
  closeDb();
}
