import { useRouteLoaderData } from "@remix-run/react";

/**
 * The only configuration that reaches the browser (built by getPublicConfig in
 * config.server.ts, sent by the root loader): the mode, Stripe's publishable key and the
 * shop's public address (canonical links, link previews, structured data).
 */
export type ShopMode = "demo" | "live";

export type PublicConfig = { mode: ShopMode; stripePublishableKey: string; publicUrl: string };

/** The part of the root loader's data that components read. */
export type RootPublicData = { config: PublicConfig };

/** The public configuration from the root loader (undefined outside the shop's root). */
export function usePublicConfig(): PublicConfig | undefined {
  return useRouteLoaderData<RootPublicData>("root")?.config;
}
