import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { getConfig } from "~/config.server";
import { apiError, handleApi, requireSameOriginApi } from "~/http/api.server";
import { NO_STORE } from "~/http/cache-control";
import { stripeEmulatorAddress } from "~/services/stripe.server";

/**
 * /stripe-emulator/api/*: demo mode only (404 in live mode). The browser's stand-in for
 * Stripe.js may only talk to our own origin (Content-Security-Policy), so its calls come here
 * and are forwarded to the local emulator. Only what Stripe.js itself does with a publishable
 * key passes: create a card PaymentMethod, retrieve or confirm a PaymentIntent or a SetupIntent with its client secret, answer their 3-D Secure challenge.
 */
const ALLOWED: Array<{ method: string; path: RegExp }> = [
  { method: "POST", path: /^v1\/payment_methods$/ },
  { method: "GET", path: /^v1\/payment_intents\/pi_[A-Za-z0-9]+$/ },
  { method: "POST", path: /^v1\/payment_intents\/pi_[A-Za-z0-9]+\/confirm$/ },
  // The customer's answer to the bank's 3-D Secure challenge (Stripe.js's authentication frame).
  { method: "POST", path: /^v1\/emulator\/payment_intents\/pi_[A-Za-z0-9]+\/authenticate$/ },
  // A card saved for later payments (a subscriber's new card), and its challenge.
  { method: "GET", path: /^v1\/setup_intents\/seti_[A-Za-z0-9]+$/ },
  { method: "POST", path: /^v1\/setup_intents\/seti_[A-Za-z0-9]+\/confirm$/ },
  { method: "POST", path: /^v1\/emulator\/setup_intents\/seti_[A-Za-z0-9]+\/authenticate$/ },
];
const MAX_BODY_BYTES = 16 * 1024;

async function forward(request: Request, splat: string | undefined) {
  const config = getConfig();
  if (config.mode !== "demo") return new Response("Not Found", { status: 404 });
  const method = request.method.toUpperCase();
  const target = splat ?? "";
  if (!ALLOWED.some((rule) => rule.method === method && rule.path.test(target))) {
    return apiError(404, "Ressource inconnue de l'émulateur Stripe");
  }
  if (method !== "GET") requireSameOriginApi(request);
  if (request.headers.get("Authorization") !== `Bearer ${config.stripe.publishableKey}`) {
    return apiError(401, "Clé publique attendue");
  }
  const body = method === "GET" ? undefined : await request.text();
  if (body && body.length > MAX_BODY_BYTES) return apiError(413, "Corps de requête trop volumineux");

  const emulator = await stripeEmulatorAddress();
  const search = new URL(request.url).search;
  const response = await fetch(`${emulator.url}/${target}${search}`, {
    method,
    headers: {
      Authorization: `Bearer ${config.stripe.publishableKey}`,
      ...(body !== undefined ? { "Content-Type": "application/x-www-form-urlencoded" } : {}),
    },
    body,
  });
  return new Response(await response.text(), {
    status: response.status,
    headers: { "Content-Type": "application/json", "Cache-Control": NO_STORE },
  });
}

export const loader = ({ request, params }: LoaderFunctionArgs) => handleApi(() => forward(request, params["*"]));
export const action = ({ request, params }: ActionFunctionArgs) => handleApi(() => forward(request, params["*"]));
