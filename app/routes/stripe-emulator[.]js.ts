import { readFile } from "node:fs/promises";
import path from "node:path";
import { getConfig } from "~/config.server";
import { NO_CACHE } from "~/http/cache-control";

/**
 * GET /stripe-emulator.js: the stand-in for Stripe.js, demo mode only (404 in live mode).
 * It defines window.Stripe so @stripe/stripe-js's loadStripe() uses it instead of js.stripe.com.
 */
let cached: string | undefined;

export async function loader() {
  if (getConfig().mode !== "demo") return new Response("Not Found", { status: 404 });
  if (!cached || getConfig().nodeEnv === "development") {
    cached = await readFile(path.resolve(process.cwd(), "stripe-emulator/browser.js"), "utf8");
  }
  return new Response(cached, {
    headers: {
      "Content-Type": "text/javascript; charset=utf-8",
      "Cache-Control": NO_CACHE,
      "X-Content-Type-Options": "nosniff",
    },
  });
}
