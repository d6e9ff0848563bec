import type { Stripe } from "@stripe/stripe-js";
import { useEffect, useState } from "react";
import { usePublicConfig } from "~/lib/public-config";
import { loadShopStripe } from "./payment-stripe-loader";

export type ShopStripeState = {
  /** Stripe.js loading (null until the effect ran, i.e. never on the server). */
  stripe: Promise<Stripe | null> | null;
  /** No key, or Stripe.js could not be loaded. */
  loadFailed: boolean;
  /** The demo: the local emulator's stand-in instead of Stripe.js. */
  demo: boolean;
};

/**
 * Loads Stripe.js (or, in demo mode, the local emulator's stand-in) when the component that
 * calls it mounts: only the payment steps call it, so Stripe.js is loaded there and nowhere else.
 */
export function useShopStripe(): ShopStripeState {
  const config = usePublicConfig();
  const [stripe, setStripe] = useState<Promise<Stripe | null> | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const mode = config?.mode;
  const key = config?.stripePublishableKey;

  useEffect(() => {
    if (!mode || !key) {
      setLoadFailed(true);
      return;
    }
    let active = true;
    const loading = loadShopStripe({ mode, stripePublishableKey: key }).then(
      (instance) => {
        if (!instance && active) setLoadFailed(true);
        return instance;
      },
      () => {
        if (active) setLoadFailed(true);
        return null;
      },
    );
    setStripe(loading);
    return () => {
      active = false;
    };
  }, [mode, key]);

  return { stripe, loadFailed, demo: mode === "demo" };
}
