import { readFileSync } from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import { API_ORDER } from "./shop-process";

/**
 * A shopper, an administrator and the demo's Stripe emulator talking to a running shop over
 * HTTP, as its clients do: for the server tests that drive whole purchases.
 */

export type Answer = { status: number; body: Record<string, unknown>; headers: Headers };

/** The address a shopper's requests come from (the shop runs with TRUST_PROXY=1). */
export function shopperAddress(shopper: number) {
  return `10.20.${Math.floor(shopper / 200) % 250}.${(shopper % 200) + 1}`;
}

/** A JSON request; `retries`: tries again after a 502 (a shopper clicking again). */
export async function api(
  base: string,
  pathname: string,
  { body, shopper = 0, cookie, retries = 0 }: { body?: unknown; shopper?: number; cookie?: string; retries?: number } = {},
): Promise<Answer> {
  for (let attempt = 0; ; attempt++) {
    const response = await fetch(`${base}${pathname}`, {
      method: body === undefined ? "GET" : "POST",
      headers: {
        "X-Forwarded-For": shopperAddress(shopper),
        ...(body === undefined ? {} : { "Content-Type": "application/json", Origin: base }),
        ...(cookie ? { Cookie: cookie } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status === 502 && attempt < retries) continue;
    // A JSON object, or a list (kept as it is), or the text of another answer.
    const parsed = /^[[{]/.test(text) ? (JSON.parse(text) as Record<string, unknown>) : { text };
    return { status: response.status, body: parsed, headers: response.headers };
  }
}

/** Signs the demo's administrator in; the cookie of the session. */
export async function adminCookie(base: string) {
  const signedIn = await api(base, "/api/admin/login", {
    body: { username: "admin", password: "admin-demo-2026" },
    shopper: 7777,
  });
  expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
  return signedIn.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

/** The demo's Stripe emulator, with the secret key the shop generated in its data folder. */
export function stripeEmulator(url: string, dataDir: string) {
  const key = readFileSync(path.join(dataDir, ".stripe-emulator-key"), "utf8").trim();
  const headers = { Authorization: `Bearer ${key}` };
  return {
    url,
    async get(pathname: string) {
      const response = await fetch(`${url}${pathname}`, { headers });
      expect(response.status, pathname).toBe(200);
      return (await response.json()) as Record<string, unknown>;
    },
    async post(pathname: string, form: Record<string, string>) {
      const response = await fetch(`${url}${pathname}`, {
        method: "POST",
        headers: { ...headers, "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(form),
      });
      expect(response.status, pathname).toBe(200);
      return (await response.json()) as Record<string, unknown> & { id: string };
    },
    /** The card 4242 entered and confirmed, as Stripe.js does in the browser. */
    async payWithCard(paymentIntentId: string) {
      const method = await this.post("/v1/payment_methods", {
        type: "card",
        "card[number]": "4242424242424242",
        "card[exp_month]": "12",
        "card[exp_year]": String(new Date().getFullYear() + 3),
        "card[cvc]": "123",
      });
      await this.post(`/v1/payment_intents/${paymentIntentId}/confirm`, { payment_method: method.id });
    },
  };
}

export type StripeEmulator = ReturnType<typeof stripeEmulator>;

/** An order of pack 2 through the API (201): its number and token. */
export async function placeOrder(base: string, email: string, shopper: number, retries = 0) {
  const order = await api(base, "/api/orders", { body: { ...API_ORDER, customerEmail: email }, shopper, retries });
  expect(order.status, JSON.stringify(order.body)).toBe(201);
  return { id: order.body.id as number, token: order.body.token as string };
}
