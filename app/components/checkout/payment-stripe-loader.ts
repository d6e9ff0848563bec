import type { Stripe } from "@stripe/stripe-js";
import type { PublicConfig } from "~/lib/public-config";

/**
 * Loads Stripe.js on the payment step only, once per page.
 * Live mode: @stripe/stripe-js/pure injects https://js.stripe.com (allowed by the CSP).
 * Demo mode: our emulator script (/stripe-emulator.js) is injected first; it defines
 * window.Stripe, which loadStripe() then finds and uses instead of fetching Stripe.js.
 */

export const EMULATOR_SCRIPT_SRC = "/stripe-emulator.js";

let loading: Promise<Stripe | null> | null = null;

function injectEmulatorScript(): Promise<void> {
  if ((window as { Stripe?: unknown }).Stripe) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const existing = document.querySelector<HTMLScriptElement>(`script[src="${EMULATOR_SCRIPT_SRC}"]`);
    const script = existing ?? document.createElement("script");
    script.addEventListener("load", () => resolve(), { once: true });
    script.addEventListener("error", () => reject(new Error("Impossible de charger l'émulateur Stripe")), { once: true });
    if (!existing) {
      script.src = EMULATOR_SCRIPT_SRC;
      script.async = true;
      document.head.appendChild(script);
    }
  });
}

export function loadShopStripe(config: Pick<PublicConfig, "mode" | "stripePublishableKey">): Promise<Stripe | null> {
  if (typeof window === "undefined") return Promise.resolve(null);
  if (!loading) {
    const attempt = (async () => {
      if (config.mode === "demo") await injectEmulatorScript();
      const mod = await import("@stripe/stripe-js/pure");
      // The package's "pure" entry is CommonJS: the bundler may expose it as the default export.
      const loadStripe = mod.loadStripe ?? (mod as unknown as { default: typeof mod }).default.loadStripe;
      return loadStripe(config.stripePublishableKey, { locale: "fr" });
    })();
    loading = attempt;
    // A failed load can be retried (e.g. after a network hiccup).
    attempt.catch(() => {
      if (loading === attempt) loading = null;
    });
  }
  return loading;
}
