import path from "node:path";
import { pathToFileURL } from "node:url";
import Stripe from "stripe";
import { ConfigError, getConfig } from "~/config.server";
import { log } from "~/log.server";
import { HANDLED_WEBHOOK_EVENTS } from "~/services/payments/webhook-events";

/**
 * The one Stripe SDK client of the process.
 * Live mode: Stripe's API with the real secret key.
 * Demo mode: the same SDK pointed at the local emulator (stripe-emulator/server.js), started once
 * per process on 127.0.0.1 only: by the server entry before it listens (startShop; with several
 * processes, by the primary alone, and the workers use it on STRIPE_EMULATOR_PORT), or on first
 * use where there is no server entry (unit tests, `remix dev`). It is loaded with a run-time path
 * so the production bundle never contains it and live mode never loads it.
 */

/** What stripe-emulator/server.js returns (the subset the app uses). */
export type StripeEmulatorHandle = {
  host: string;
  port: number;
  url: string;
  events: Array<{ id: string; type: string; data: { object: Record<string, unknown> } }>;
  getObject(id: string): Record<string, unknown> | undefined;
  setWebhookTarget(
    target:
      | string
      | ((delivery: { payload: string; signature: string; event: unknown }) => Promise<{ status: number } | number | void>)
      | null,
  ): void;
  flushWebhooks(): Promise<void>;
  signEvent(event: unknown): { payload: string; signature: string };
  close(): Promise<void>;
};

type EmulatorModule = {
  startStripeEmulator(options: {
    port: number;
    host: string;
    secretKey: string;
    publishableKey: string;
    webhookSecret: string;
    webhookUrl: string;
    enabledEvents?: readonly string[];
    log?: { info?: (...args: unknown[]) => void; warn?: (...args: unknown[]) => void };
  }): Promise<StripeEmulatorHandle>;
};

declare global {
  // One emulator per process, kept across dev rebuilds.
  var __shopStripeEmulator: Promise<StripeEmulatorHandle> | undefined;
}

const EMULATOR_HOST = "127.0.0.1";

let client: { stripe: Stripe; key: string } | undefined;

function buildClient(port?: number): Stripe {
  const config = getConfig();
  if (config.mode === "live") {
    return new Stripe(config.stripe.secretKey, {
      maxNetworkRetries: 2,
      timeout: 20_000,
      appInfo: { name: "maison-eclat-shop" },
    });
  }
  return new Stripe(config.stripe.secretKey, {
    host: EMULATOR_HOST,
    port: port ?? config.stripe.emulatorPort,
    protocol: "http",
    maxNetworkRetries: 1,
    timeout: 10_000,
    telemetry: false,
  });
}

/**
 * The SDK client without any network side effect (no emulator start): enough for
 * `webhooks.constructEvent`, which only checks a signature.
 */
export function getStripeClient(): Stripe {
  const config = getConfig();
  const key = `${config.mode}:${config.stripe.emulatorPort}`;
  if (!client || client.key !== key) client = { stripe: buildClient(), key };
  return client.stripe;
}

/** The SDK client, ready to call (demo mode: once the emulator listens). */
export async function getStripe(): Promise<Stripe> {
  const config = getConfig();
  if (config.mode === "live") return getStripeClient();
  const emulator = await stripeEmulatorAddress();
  const key = `demo:${emulator.port}`;
  if (!client || client.key !== key) client = { stripe: buildClient(emulator.port), key };
  return client.stripe;
}

/**
 * Set by the server entry on its worker processes (server/index.js): the emulator runs once, in
 * the primary process, on STRIPE_EMULATOR_PORT; the workers only talk to it. Set from outside
 * (the speed measures, scripts/bench/shop.js), the emulator runs in a process of its own on
 * that port, and no shop process starts one.
 */
export function emulatorRunsElsewhere() {
  return process.env.SHOP_STRIPE_EMULATOR_SHARED === "1";
}

/** Where the demo emulator answers: this process's, or the one the primary process runs. */
export async function stripeEmulatorAddress(): Promise<{ host: string; port: number; url: string }> {
  const config = getConfig();
  if (config.mode === "demo" && emulatorRunsElsewhere()) {
    const port = config.stripe.emulatorPort;
    return { host: EMULATOR_HOST, port, url: `http://${EMULATOR_HOST}:${port}` };
  }
  const { host, port, url } = await ensureStripeEmulator();
  return { host, port, url };
}

/** Starts the local emulator once per process (demo mode only). */
export function ensureStripeEmulator(): Promise<StripeEmulatorHandle> {
  const config = getConfig();
  if (config.mode !== "demo") {
    return Promise.reject(new Error("L'émulateur Stripe n'existe qu'en mode démo."));
  }
  if (!globalThis.__shopStripeEmulator) {
    const starting = startEmulator();
    globalThis.__shopStripeEmulator = starting;
    // A failed start may be retried by the next request.
    starting.catch(() => {
      if (globalThis.__shopStripeEmulator === starting) globalThis.__shopStripeEmulator = undefined;
    });
  }
  return globalThis.__shopStripeEmulator;
}

/** The running emulator of this process, if any (demo-only proxy and tests). */
export function runningStripeEmulator(): Promise<StripeEmulatorHandle> | undefined {
  return globalThis.__shopStripeEmulator;
}

async function startEmulator(): Promise<StripeEmulatorHandle> {
  const config = getConfig();
  const file = path.resolve(process.cwd(), "stripe-emulator/server.js");
  const mod = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as EmulatorModule;
  try {
    return await mod.startStripeEmulator({
      port: config.stripe.emulatorPort,
      host: EMULATOR_HOST,
      secretKey: config.stripe.secretKey,
      publishableKey: config.stripe.publishableKey,
      webhookSecret: config.stripe.webhookSecret,
      webhookUrl: `${config.publicUrl}/api/stripe/webhook`,
      // Subscribed to what the shop handles, as its endpoint is at Stripe in live mode.
      enabledEvents: HANDLED_WEBHOOK_EVENTS,
      log: {
        info: (...args) => log.info(args.map(String).join(" ")),
        warn: (...args) => log.warn(args.map(String).join(" ")),
      },
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EADDRINUSE") {
      throw new ConfigError(
        `Le port ${config.stripe.emulatorPort} de l'émulateur Stripe est déjà utilisé (127.0.0.1). ` +
          "Arrêtez l'autre instance de la boutique ou choisissez un autre STRIPE_EMULATOR_PORT.",
      );
    }
    throw error;
  }
}

/** Stops this process's emulator (shutdown, tests). */
export async function stopStripeEmulator() {
  const running = globalThis.__shopStripeEmulator;
  globalThis.__shopStripeEmulator = undefined;
  client = undefined;
  if (running) await (await running.catch(() => undefined))?.close();
}
