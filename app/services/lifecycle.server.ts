import { getConfig } from "~/config.server";
import { closeDb, openDb } from "~/db/client.server";
import { renderEmail } from "~/services/email/render.server";
import { startEmailSender, stopEmailSender } from "~/services/email/sender.server";
import { emulatorRunsElsewhere, ensureStripeEmulator, stopStripeEmulator, stripeEmulatorAddress } from "~/services/stripe.server";
import { startSubscriptionScheduler, stopSubscriptionScheduler } from "~/services/subscriptions/scheduler.server";

/**
 * Start and stop of the shop process, called by the server entry (server/index.js) through
 * app/entry.server.tsx: nothing is served before startShop() has succeeded.
 *
 * With several processes (WEB_CONCURRENCY > 1), the primary process serves nothing: it calls
 * startPrimary() (configuration, migrations, the demo emulator) before it starts the workers,
 * and each worker calls startShop(), which then finds the database migrated and the emulator
 * running. Everything that lasts is in the database, so any worker answers any request.
 */

/** How many server processes to run (WEB_CONCURRENCY); a bad configuration throws its ConfigError. */
export function shopProcessCount(): number {
  return getConfig().processes;
}

/**
 * The primary process of a multi-process start: validates the configuration, applies the
 * migrations and the seed once (then closes its connection), and in demo mode starts the one
 * Stripe emulator the workers share (unless SHOP_STRIPE_EMULATOR_SHARED=1 says one already runs
 * on STRIPE_EMULATOR_PORT).
 */
export async function startPrimary() {
  const config = getConfig();
  await openDb();
  await closeDb();
  if (config.mode === "demo" && !emulatorRunsElsewhere()) await ensureStripeEmulator();
  return { mode: config.mode, port: config.port, processes: config.processes };
}

/** Stops the primary's emulator, once every worker has ended. */
export async function stopPrimary() {
  await stopStripeEmulator();
}

/**
 * Validates the configuration (a ConfigError explains what to fix), opens the database
 * (migrations, seed), in demo mode starts the Stripe emulator on STRIPE_EMULATOR_PORT (unless
 * the primary process runs it), and
 * starts the email sender and the subscriptions' scheduler (reminders before renewals).
 */
export async function startShop() {
  const config = getConfig();
  await openDb();
  if (config.mode === "demo") await stripeEmulatorAddress();
  startEmailSender({ render: renderEmail });
  startSubscriptionScheduler();
  return { mode: config.mode, port: config.port };
}

/**
 * Stops the scheduler (nothing more is queued), the email sender (after the email under way),
 * the emulator, and closes the database; the HTTP server is closed before.
 */
export async function stopShop() {
  await stopSubscriptionScheduler();
  await stopEmailSender();
  await stopStripeEmulator();
  await closeDb();
}
