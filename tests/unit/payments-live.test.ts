import { describe, expect, it, vi } from "vitest";

// Live mode: real Stripe keys. The emulator and its routes must not exist.
vi.mock("~/config.server", () => {
  const config = {
    mode: "live",
    nodeEnv: "production",
    publicUrl: "https://boutique.example",
    stripe: {
      secretKey: "sk_live_example",
      publishableKey: "pk_live_example",
      webhookSecret: "whsec_live_example",
      emulatorPort: 12111,
    },
  };
  return { getConfig: () => config, getPublicConfig: () => ({ mode: "live", stripePublishableKey: "pk_live_example" }) };
});

const { loader: scriptLoader } = await import("~/routes/stripe-emulator[.]js");
const { action: proxyAction, loader: proxyLoader } = await import("~/routes/stripe-emulator.api.$");
const { ensureStripeEmulator, getStripe, runningStripeEmulator } = await import("~/services/stripe.server");

describe("live mode", () => {
  it("has no emulator script and no emulator proxy (404)", async () => {
    expect((await scriptLoader()).status).toBe(404);
    const post = new Request("http://localhost/stripe-emulator/api/v1/payment_methods", {
      method: "POST",
      body: "type=card",
      headers: { Authorization: "Bearer pk_live_example", "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect((await proxyAction({ request: post, params: { "*": "v1/payment_methods" }, context: {} })).status).toBe(404);
    const get = new Request("http://localhost/stripe-emulator/api/v1/payment_intents/pi_1?client_secret=x");
    expect((await proxyLoader({ request: get, params: { "*": "v1/payment_intents/pi_1" }, context: {} })).status).toBe(404);
  });

  it("talks to Stripe's API with the real key and never starts the emulator", async () => {
    const stripe = await getStripe();
    expect(stripe.getApiField("host")).toBe("api.stripe.com");
    expect(stripe.getApiField("protocol")).toBe("https");
    await expect(ensureStripeEmulator()).rejects.toThrow(/mode démo/);
    expect(runningStripeEmulator()).toBeUndefined();
  });
});
