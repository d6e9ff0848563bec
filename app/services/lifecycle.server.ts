import { getConfig } from "~/config.server";
import { closeDb, getDb } from "~/db/client.server";
import { renderEmail } from "~/services/email/render.server";
import { startEmailSender, stopEmailSender } from "~/services/email/sender.server";
import { ensureStripeEmulator, stopStripeEmulator } from "~/services/stripe.server";
import { startSubscriptionScheduler, stopSubscriptionScheduler } from "~/services/subscriptions/scheduler.server";

/**
 * Start and stop of the shop process, called by the server entry (server/index.js) through
 * app/entry.server.tsx: nothing is served before startShop() has succeeded.
 */

/**
 * Validates the configuration (a ConfigError explains what to fix), opens the database
 * (migrations, seed), in demo mode starts the Stripe emulator on STRIPE_EMULATOR_PORT, and
 * starts the email sender and the subscriptions' scheduler (reminders before renewals).
 */
export async function startShop() {
  const config = getConfig();
  getDb();
  if (config.mode === "demo") await ensureStripeEmulator();
  startEmailSender({ render: renderEmail });
  startSubscriptionScheduler();
  return { mode: config.mode, port: config.port };
}

/**
 * Stops the scheduler (nothing more is queued), the email sender (after the email under way),
 * the emulator, and closes the database; the HTTP server is closed before.
 */
export async function stopShop() {
  stopSubscriptionScheduler();
  await stopEmailSender();
  await stopStripeEmulator();
  closeDb();
}
